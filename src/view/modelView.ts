import { systemMessage } from '../messages/constructors';
import { getPositions } from '../core/selectors';
import { readState } from '../internal/readState';
import { isSummarized } from '../internal/summarized';
import type { Message } from '../model/message';
import type { MemoryState } from '../model/state';
import { countMessageTokens } from '../tokens/registry';
import { cacheBreakpoints } from './cacheBreakpoints';
import { fitBudget } from './fitBudget';
import { isSendable } from './isSendable';
import { maskToolResults } from './maskToolResults';
import { dropEmptyMessages, dropLeadingAssistantTurns } from './providerRules';
import { readViewOptions } from './readViewOptions';
import { recallBlock, type RecalledBlock } from './recall/recallBlock';
import type { RecallRequest } from './recall/readRecallOption';
import { messageText } from '../tokens/messageText';
import { registeredEmbedder } from '../similarity/embedders';
import { repairToolPairs, type ViewDraft, type ViewSource } from './repairToolPairs';
import { summaryMessage } from './summaryMessage';
import type { MaskToolResults, ModelView, ModelViewOptions, TranscriptEntry } from './viewTypes';

const API = 'modelView';

/** The window as a view source: messages, positions from the runs, token counts from the state. */
const windowSource = (state: MemoryState): ViewSource => {
  const positions = getPositions(state);
  return {
    length: state.messages.length,
    index: (i) => i,
    message: (i) => state.messages[i] as Message,
    position: (i) => positions[i] as number,
  };
};

/**
 * A transcript as a view source, without the messages a committed summary stands for: a message
 * trimmed from the window (not in it, not held for summarizing) whose position a summary covers.
 */
const transcriptSource = (
  state: MemoryState,
  transcript: readonly TranscriptEntry[],
  draft: ViewDraft,
): ViewSource => {
  let entries = transcript;
  let indices: number[] | undefined;
  if (state.summaryCoverage.length > 0) {
    const held = new Set(getPositions(state));
    for (const position of state.pendingPositions) held.add(position);
    const kept: TranscriptEntry[] = [];
    indices = [];
    transcript.forEach((entry, index) => {
      const { position } = entry;
      if (
        position !== null &&
        !held.has(position) &&
        isSummarized(state.summaryCoverage, position)
      ) {
        draft.changes.push({
          type: 'view/omitted',
          reason: 'summarized',
          index,
          position,
          message: entry.message,
        });
      } else {
        kept.push(entry);
        indices?.push(index);
      }
    });
    entries = kept;
  }
  const at = indices;
  return {
    length: entries.length,
    index: at === undefined ? (i) => i : (i) => at[i] as number,
    message: (i) => (entries[i] as TranscriptEntry).message,
    position: (i) => (entries[i] as TranscriptEntry).position,
  };
};

/**
 * What the next provider call receives: the knowledge blocks as a system message (with
 * `knowledge`), the injected `[Conversation Summary] …` system message (when the state holds a
 * summary), then the window (or `options.transcript`) repaired to
 * meet the target's rules, within an optional token budget, and a report of every change, as
 * data. Pure, total for any state the reducers, `fromDict`, `decodeState` and the stores make,
 * and browser-safe; the state is never changed.
 *
 * Rules, in order:
 * 1. With `transcript`, a message trimmed from the window and covered by a committed summary is
 *    left out (`'summarized'`): the summary stands for it.
 * 2. Tool pairs (every target): a tool result that does not follow its call is left out; a
 *    tool-call message with a call that has no id, or an id an earlier call used, is left out
 *    with its results; a call no result answers is answered in the view with an
 *    interrupted-call tool message (`view/answered`; see `interruptedToolResult`).
 * 3. Empty messages the target refuses are left out (`'empty-content'`).
 * 4. With `maskToolResults`, tool results outside the current turn that `keepLast`/`keepTurns`
 *    do not keep, and exact repeats of a newer result sent verbatim, are sent with a short
 *    placeholder as their content (`view/masked`; see `MaskToolResults`); with `untilFits`, the
 *    results not kept are masked only as far as the budget needs.
 * 5. With `budget`, the oldest groups are left out until the view fits (`'budget'`); the summary,
 *    pinned system messages and the newest group stay.
 * 6. `'anthropic'`: leading assistant turns before the first user turn are left out.
 * 7. With `cache`, the view marks where its cached prompt prefixes end, as
 *    `cache.breakpoints`: indices in `messages`, ascending, at most three (Anthropic allows four
 *    per request; the request's own system prompt takes the fourth): the last of the system
 *    messages the view begins with (knowledge, summary, a pinned system prompt at the start);
 *    the last message before the newest turn (which runs from the last user message on); and
 *    the newest turn's last message. For `'anthropic'`, which lifts system messages into
 *    `system`, the last two are never system messages. Nothing else of the view changes. The
 *    prefix before a mark stays the same on the next call as long as nothing leaves the window
 *    and the budget and masking leave out or mask nothing new (trim in steps: `trimTo`).
 * 8. With `recall`, messages that left the window (`recall.source`: an event log, the trimmed
 *    history the application keeps, or an index) and match the query (the newest user message
 *    unless `recall.query` is given; Okapi BM25 with the knowledge retrieval's stemming, fused
 *    with the nearest by cosine when the state's `embedder` is a registered one) are
 *    quoted, whole, oldest first, with their dates, in one system message
 *    `[Earlier in this conversation]` of at most `recall.budget` tokens and `recall.k` messages
 *    (tool results as text with their call; sanitized like the knowledge blocks), counted inside
 *    `budget`, placed right before the newest user message (for `'anthropic'`, after the leading
 *    system messages), never marked by rule 7, and reported as `view/recalled`. Nothing said
 *    before a clear is recalled.
 *
 * Afterwards `validateTranscript(view.messages, target)` finds nothing (for `'openai'` and
 * `'anthropic'`), and the last turn is never left unanswered (providers refuse a request whose
 * last tool calls have no results). The common case, a window with no tool message and nothing
 * to repair (`isSendable`), returns the window itself with no copy.
 *
 * @param state - the memory
 * @param options - `target` (default `'none'`), `budget`, `transcript`, `knowledge`,
 * `maskToolResults`, `cache`, `recall`
 * @returns `{ messages, target, changes }`, plus `tokens` and `overBudget` with a budget and
 * `cache` with `cache`
 * @throws MemoryArgumentError for a value that is not a memory state, or a wrong option
 * @example
 * ```ts
 * let state = createMemory({ maxMessages: 3 });
 * state = addMessages(state, [
 *   userMessage('2 + 2?'),
 *   assistantMessage(null, [{ id: 'c1', name: 'calc', parameters: { a: 2, b: 2 } }]),
 *   toolMessage('4', { toolCallId: 'c1', toolName: 'calc' }),
 *   assistantMessage('4'),
 * ]).state;
 * getHistory(state)[0].role; // 'tool' (the reference policy kept an orphan result)
 * const view = modelView(state, { target: 'openai' });
 * view.messages.map((m) => m.role); // ['assistant']
 * view.changes[0]; // { type: 'view/omitted', reason: 'tool-result-without-call', index: 0, … }
 * modelView(state, { target: 'openai', cache: true }).cache; // { ttl: '5m', breakpoints: [0] }
 * ```
 */
export const modelView = (state: MemoryState, options?: ModelViewOptions): ModelView => {
  state = readState(state, API);
  const { target, budget, transcript, knowledge, mask, cache, recall } = readViewOptions(options);
  const view = viewOf(state, target, budget, transcript, knowledge, mask, recall);
  if (cache === undefined) return view;
  const block = view.changes.find((change) => change.type === 'view/recalled')?.index;
  return {
    ...view,
    cache: { ttl: cache, breakpoints: cacheBreakpoints(view.messages, target, block) },
  };
};

/** The newest user message's text in a draft (recall's default query), or `undefined`. */
const newestUserText = (draft: ViewDraft): string | undefined => {
  for (let k = draft.messages.length - 1; k >= 0; k--) {
    const message = draft.messages[k] as Message;
    if (message.role === 'user') return messageText(message);
  }
  return undefined;
};

/** Rule 8: the recall block for a draft, or `undefined` when nothing is recalled. */
const recallFor = (
  state: MemoryState,
  draft: ViewDraft,
  recall: RecallRequest,
): { block: RecalledBlock; query: string } | undefined => {
  const query = recall.query ?? newestUserText(draft);
  if (query === undefined) return undefined;
  const shown = new Set<number>();
  for (const position of draft.positions) if (position !== null) shown.add(position);
  const block = recallBlock(
    recall.index(),
    query,
    recall.budget,
    recall.k,
    (position) => shown.has(position),
    (message) => countMessageTokens(state.config.tokenizer, message, API),
    state.config.tokenizer,
    registeredEmbedder(state.config.embedder) === undefined ? undefined : state.config.embedder,
  );
  return block === undefined ? undefined : { block, query };
};

/**
 * Where the recall block goes: for `'anthropic'` (which lifts system messages into `system`)
 * after the system messages the view begins with; else right before the newest user message (so the prefix before it stays
 * the same from call to call, for the provider's prompt cache), or after the lead when there is
 * none.
 */
const recallIndexIn = (
  messages: readonly Message[],
  leadLength: number,
  target: ModelView['target'],
): number => {
  if (target === 'anthropic') {
    let k = leadLength;
    while (messages[k]?.role === 'system') k++;
    return k;
  }
  for (let k = messages.length - 1; k >= leadLength; k--) {
    if (messages[k]?.role === 'user') return k;
  }
  return leadLength;
};

/** Rules 1 to 6 and 8: the view's messages and changes (and tokens, with a budget). */
const viewOf = (
  state: MemoryState,
  target: ModelView['target'],
  budget: number | undefined,
  transcript: readonly TranscriptEntry[] | undefined,
  knowledge: string | undefined,
  mask: MaskToolResults | undefined,
  recall: RecallRequest | undefined,
): ModelView => {
  const lead: Message[] = [];
  if (knowledge !== undefined) lead.push(systemMessage(knowledge));
  const summary = summaryMessage(state.summary);
  if (summary !== undefined) lead.push(summary);
  if (
    transcript === undefined &&
    budget === undefined &&
    mask === undefined &&
    recall === undefined &&
    isSendable(state.messages, target)
  ) {
    return {
      messages: lead.length === 0 ? state.messages : [...lead, ...state.messages],
      target,
      changes: [],
    };
  }
  const draft: ViewDraft = {
    messages: [],
    positions: [],
    groupStarts: [],
    sources: [],
    changes: [],
  };
  const source =
    transcript === undefined ? windowSource(state) : transcriptSource(state, transcript, draft);
  repairToolPairs(source, target, draft);
  let view = dropEmptyMessages(draft, target);
  const recalled = recall === undefined ? undefined : recallFor(state, view, recall);
  let tokens: number | undefined;
  let overBudget: boolean | undefined;
  if (budget !== undefined) {
    const count = tokenCounter(state, transcript === undefined);
    let fixed = recalled?.block.tokens ?? 0;
    for (const message of lead) fixed += countMessageTokens(state.config.tokenizer, message, API);
    const pinned = (message: Message) => state.config.pinSystem && message.role === 'system';
    if (mask !== undefined) view = maskToolResults(view, mask, { budget, fixed, count, pinned });
    const before = view;
    const tokensAt = (d: ViewDraft, k: number) =>
      count(d.messages[k] as Message, d.sources[k] as number);
    view = dropLeadingAssistantTurns(
      fitBudget(before, budget, fixed, (k) => tokensAt(before, k), pinned).draft,
      target,
    );
    tokens = fixed;
    for (let k = 0; k < view.messages.length; k++) tokens += tokensAt(view, k);
    overBudget = tokens > budget;
  } else {
    if (mask !== undefined) view = maskToolResults(view, mask);
    view = dropLeadingAssistantTurns(view, target);
  }
  let messages = lead.length === 0 ? view.messages : [...lead, ...view.messages];
  if (recalled !== undefined) {
    const { block, query } = recalled;
    const at = recallIndexIn(messages, lead.length, target);
    messages = [...messages.slice(0, at), block.message, ...messages.slice(at)];
    draft.changes.push({
      type: 'view/recalled',
      query,
      positions: block.positions,
      messages: block.messages,
      index: at,
      tokens: block.tokens,
      message: block.message,
    });
  }
  return {
    messages,
    target,
    changes: draft.changes,
    ...(tokens === undefined ? {} : { tokens, overBudget: overBudget === true }),
  };
};

/**
 * Token counts of a draft's messages: the state's own for window messages sent as memory holds
 * them, else counted once.
 */
const tokenCounter = (state: MemoryState, fromWindow: boolean) => {
  const cache = new Map<Message, number>();
  return (message: Message, source: number): number => {
    // A window message as memory holds it: its stored count (a masked one is counted afresh).
    if (fromWindow && source >= 0 && state.messages[source] === message) {
      return state.tokenCounts[source] as number;
    }
    let count = cache.get(message);
    if (count === undefined) {
      count = countMessageTokens(state.config.tokenizer, message, API);
      cache.set(message, count);
    }
    return count;
  };
};
