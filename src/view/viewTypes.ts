import type { EventLog } from '../log/eventLogTypes';
import type { Message } from '../model/message';
import type { CacheBreakpoints, CacheTtl } from '../model/promptCache';
import type { RecallIndex } from './recall/recallIndex';

/**
 * Whose message rules a model view meets.
 *
 * - `'openai'`: Chat Completions (tool results right after their call, every call answered, ids
 *   present and unique, no assistant message with `null` content and nothing else).
 * - `'anthropic'`: Messages (the same tool rules, plus: the first message after the system
 *   messages is a user turn, and no user or assistant message without a content block except a
 *   final assistant one).
 * - `'none'`: no provider's format rules; only the tool-pairing rules every tool-calling API
 *   shares (a result follows its call; every call is answered; ids present and unique).
 *
 * @example
 * ```ts
 * const target: ViewTarget = 'anthropic';
 * ```
 */
export type ViewTarget = 'openai' | 'anthropic' | 'none';

/**
 * Why a model view left a message out.
 *
 * - `'summarized'`: trimmed from the window and covered by a committed summary (the injected
 *   `[Conversation Summary]` message stands for it).
 * - `'tool-result-without-call'`: a tool result whose call is not right before it in the view.
 * - `'missing-tool-call-id'`: a tool result without a `toolCallId`.
 * - `'duplicate-tool-result'`: a second result for the same call.
 * - `'tool-call-without-id'` / `'duplicate-tool-call-id'`: an assistant tool-call message with a
 *   call that has no id, or an id an earlier call used; it goes with its results.
 * - `'empty-content'`: a message the target refuses as empty.
 * - `'first-message-not-user'` (`'anthropic'`): a leading assistant turn before the first user turn.
 * - `'budget'`: left out, oldest first, to fit `options.budget`.
 *
 * @example
 * ```ts
 * const reason: ViewOmissionReason = 'tool-result-without-call';
 * ```
 */
export type ViewOmissionReason =
  | 'summarized'
  | 'tool-result-without-call'
  | 'missing-tool-call-id'
  | 'duplicate-tool-result'
  | 'tool-call-without-id'
  | 'duplicate-tool-call-id'
  | 'empty-content'
  | 'first-message-not-user'
  | 'budget';

/**
 * What a model view changed on its way from the retained memory to the model, as data (like a
 * reducer's effects): a message left out, a tool call answered in the view, or a tool result
 * masked.
 *
 * - `view/omitted`: `message` was left out for `reason`; `position` is its position in the
 *   conversation (`null` for a message memory never held), `index` its index in the source (the
 *   window, or `options.transcript`).
 * - `view/answered`: the call `toolCallId` of the assistant message at `position` had no result;
 *   the view answers it with `message` (a tool message saying the call was interrupted), right
 *   after the call's other results. Memory is not changed.
 * - `view/recalled` (with `recall`): the messages at `positions` (oldest first), which had left
 *   the window, are quoted in the view's recall block `message` (a system message
 *   `[Earlier in this conversation]`, at `index` in the view's `messages`), found for `query`;
 *   `tokens` is the block's count. Memory is not changed.
 * - `view/masked` (with `maskToolResults`): the tool result at `index` (its index in the source)
 *   and `position` is sent with a short placeholder as its content (`message`, the same role,
 *   `toolCallId` and `toolName`); `reason` `'stale'`: older than what `keepLast`/`keepTurns`
 *   keep; `'repeat'`: identical (same tool name, same content) to the newer result of the call
 *   `sameAs`, which is sent verbatim. `toolName` is `null` for a result without one. Memory is
 *   not changed: the original stays in the window (or transcript) at `index`.
 *
 * @example
 * ```ts
 * const change: ViewChange = {
 *   type: 'view/omitted',
 *   reason: 'tool-result-without-call',
 *   index: 0,
 *   position: 41,
 *   message: toolMessage('4', { toolCallId: 'c1', toolName: 'calc' }),
 * };
 * ```
 */
export type ViewChange =
  | {
      readonly type: 'view/omitted';
      readonly reason: ViewOmissionReason;
      readonly index: number;
      readonly position: number | null;
      readonly message: Message;
    }
  | {
      readonly type: 'view/answered';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly position: number | null;
      readonly message: Message;
    }
  | {
      readonly type: 'view/masked';
      readonly reason: 'stale' | 'repeat';
      readonly index: number;
      readonly position: number | null;
      readonly toolCallId: string;
      readonly toolName: string | null;
      /** For a `'repeat'`: the call id of the newer identical result, sent verbatim. */
      readonly sameAs?: string;
      readonly message: Message;
    }
  | {
      readonly type: 'view/recalled';
      /** What the messages were found for (`recall.query`, else the newest user message). */
      readonly query: string;
      /** The recalled messages' positions, oldest first. */
      readonly positions: readonly number[];
      /** The recalled messages, as memory held them, parallel to `positions`. */
      readonly messages: readonly Message[];
      /** The recall block's index in the view's `messages`. */
      readonly index: number;
      /** The recall block's token count (with the state's tokenizer). */
      readonly tokens: number;
      /** The recall block. */
      readonly message: Message;
    };

/**
 * A message of a transcript given to `modelView` in place of the window, with its position in the
 * conversation (`null` for a message memory never held, such as an empty final reply).
 *
 * @example
 * ```ts
 * const entry: TranscriptEntry = { message: userMessage('hi'), position: 12 };
 * ```
 */
export interface TranscriptEntry {
  readonly message: Message;
  readonly position: number | null;
}

/**
 * Which tool results a model view sends verbatim when it masks stale tool output
 * (`modelView`'s `maskToolResults`); the others are sent with a short placeholder that names the
 * tool and the call id and says how to read the result again (the agent's `read_tool_result`
 * tool). Give `keepLast`, `keepTurns` or both (integers ≥ 0): a result is kept when either keeps
 * it. The current turn (from the last user message on) is always sent verbatim, and an exact
 * repeat of a newer result sent verbatim is always masked.
 *
 * With `untilFits: true` (and a `budget`), the results they do not keep are masked only as far as
 * the budget needs: superseded ones first (a newer result of the same tool call, same name and
 * arguments, is in the view), then the others, each oldest first; a view that fits sends them
 * all verbatim.
 *
 * @example
 * ```ts
 * const mask: MaskToolResults = { keepLast: 3, keepTurns: 2 };
 * const toFit: MaskToolResults = { keepLast: 2, untilFits: true }; // with modelView's budget
 * ```
 */
export interface MaskToolResults {
  /** The newest tool results sent verbatim, the current turn's included (default 0). */
  readonly keepLast?: number | undefined;
  /**
   * The newest user turns whose tool results are sent verbatim, the current turn included (so 0
   * and 1 both keep the current turn only; default 0).
   */
  readonly keepTurns?: number | undefined;
  /**
   * Mask only as many of the results `keepLast` / `keepTurns` do not keep as the view's `budget`
   * needs, superseded results first, then the oldest (default `false`: mask them all). Needs
   * `modelView`'s `budget`. A result whose placeholder is not shorter is never masked for it.
   */
  readonly untilFits?: boolean | undefined;
}

/**
 * `modelView`'s `cache` option: `true` marks the view's cache breakpoints for the five-minute
 * cache, `{ ttl: '1h' }` for the one-hour cache (`{}` and `{ ttl: '5m' }` are `true`); `false`,
 * `null` or absent mark none.
 *
 * @example
 * ```ts
 * const cache: ViewCacheOption = { ttl: '1h' };
 * ```
 */
export type ViewCacheOption = boolean | { readonly ttl?: CacheTtl | undefined };

/**
 * Where `modelView`'s recall finds the messages that left the window:
 *
 * - an `EventLog`: every message its actions trimmed, after its last clear (nothing said before
 *   a clear is recalled);
 * - a list of `{ message, position }`, oldest first: the trimmed history the application kept
 *   (the `removed` messages and `positions` of `memory/trimmed` effects);
 * - a `RecallIndex` (what the agent keeps).
 *
 * Each is indexed once and then extended: a log grown by `appendAction`, the same list grown by
 * `push` or a new list that begins with the last one's entries costs only its new messages.
 *
 * @example
 * ```ts
 * const source: RecallSource = log;
 * ```
 */
export type RecallSource = EventLog | readonly TranscriptEntry[] | RecallIndex;

/**
 * `modelView`'s `recall` option: quote, in one system block, the messages that left the window
 * and match the question, within their own token budget.
 *
 * @example
 * ```ts
 * const recall: RecallOptions = { source: log, budget: 2000 };
 * ```
 */
export interface RecallOptions {
  /** Where the trimmed messages are. */
  readonly source: RecallSource;
  /**
   * What to find (default: the text of the newest user message of the view's source). A query
   * with no searchable word recalls nothing.
   */
  readonly query?: string | undefined;
  /**
   * The recall block's most tokens (an integer ≥ 1), counted with the state's tokenizer. Whole
   * messages only: one that does not fit is left out for a weaker one that does. Inside the
   * view's own `budget`, when there is one (the window gets what the block leaves).
   */
  readonly budget: number;
  /** The most messages recalled (an integer ≥ 1; default 16). */
  readonly k?: number | undefined;
}

/**
 * What `modelView` takes besides the state.
 *
 * @example
 * ```ts
 * const options: ModelViewOptions = { target: 'anthropic', budget: 8000 };
 * ```
 */
export interface ModelViewOptions {
  /** Whose rules the view meets (default `'none'`: the tool-pairing rules only). */
  readonly target?: ViewTarget | undefined;
  /**
   * A token budget for the view (an integer ≥ 1), counted with the state's tokenizer: the oldest
   * messages (whole tool-call groups) are left out until the view fits. The summary message,
   * pinned system messages and the newest group are never left out, so a view may still exceed
   * a budget they alone exceed (`overBudget`). Default: no budget.
   */
  readonly budget?: number | null | undefined;
  /**
   * The transcript to send in place of the window, oldest first (default: the window). The agent
   * passes the run's transcript: the history memory held when the run began and every message of
   * the run, even those memory has trimmed since (the model must see its own calls). A message
   * trimmed from the window and covered by a committed summary is left out (`'summarized'`).
   */
  readonly transcript?: readonly TranscriptEntry[] | undefined;
  /**
   * The knowledge blocks to send (`knowledgeBlocks(...).text` of `conversation-memory/knowledge`:
   * `[Known Relationships]`, `[Known Entities]`, `[Important Knowledge]`…), as one system message
   * first, before the summary, as the reference orders them. Never stored in memory; never left
   * out for a budget (it has its own, counted when it was built). Empty: nothing is sent.
   */
  readonly knowledge?: string | undefined;
  /**
   * Mask stale tool output: tool results older than what `keepLast` / `keepTurns` keep, and
   * exact repeats of a newer result, are sent with a short placeholder in place of their content
   * (the message stays, so the provider's pairing rules hold), before the budget is fitted, so
   * masked results cost fewer tokens. The current turn, pinned messages and every message that
   * is not a tool result are never changed; each masking is a `view/masked` change. Default: no
   * masking.
   */
  readonly maskToolResults?: MaskToolResults | null | undefined;
  /**
   * Mark where the view's cached prompt prefixes end (rule 7): the view gets
   * `cache: { ttl, breakpoints }`, at most three message indices (the end of the leading system
   * messages, of the stable part before the newest turn, and of the newest turn), which the
   * Anthropic adapter sends as `cache_control` and the OpenAI adapter as a `prompt_cache_key`
   * (with a key). `true`: the five-minute cache; `{ ttl: '1h' }`: the one-hour cache. The
   * messages are the same with or without it. Default: no marks.
   */
  readonly cache?: ViewCacheOption | null | undefined;
  /**
   * Recall (`modelView`'s rule 8): messages that left the window and match the question (Okapi BM25 over
   * their text, with the knowledge retrieval's stemming; the newest user message by default)
   * are quoted, with their dates (`metadata.createdAt`), in one system message
   * `[Earlier in this conversation]`, within `recall.budget` tokens, and reported as a
   * `view/recalled` change. Tool results are quoted as text with their call, never sent as tool
   * messages. Default: no recall.
   */
  readonly recall?: RecallOptions | null | undefined;
}

/**
 * What the next provider call receives, and what was changed on the way.
 *
 * - `messages`: the injected `[Conversation Summary] …` system message first (when the state
 *   holds a summary), then the window (or transcript), repaired to meet `target`.
 * - `changes`: every message left out and every tool call answered in the view, in order.
 * - `tokens`: the view's token count with the state's tokenizer, when a `budget` was given.
 * - `overBudget`: `true` when what may not be left out alone exceeds the budget.
 * - `cache`: with `options.cache`, the time to live and the indices in `messages` of the
 *   messages that end a cached prefix (`modelView`'s rule 7).
 *
 * @example
 * ```ts
 * const view: ModelView = modelView(state, { target: 'openai' });
 * validateTranscript(view.messages, 'openai'); // []
 * ```
 */
export interface ModelView {
  readonly messages: readonly Message[];
  readonly target: ViewTarget;
  readonly changes: readonly ViewChange[];
  readonly tokens?: number;
  readonly overBudget?: boolean;
  readonly cache?: CacheBreakpoints;
}
