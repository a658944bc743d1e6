import type { EventLog } from '../../log/eventLog';
import type { MemoryActionType } from '../../model/actions';
import type { CompletionUsage } from '../../model/completion';
import type { MemoryConfig } from '../../model/config';
import type { TrimRule } from '../../model/effects';
import type { Message } from '../../model/message';
import type { SummaryCoverage } from '../../model/summaryCoverage';
import type { MaskToolResults, ViewChange, ViewTarget } from '../../view/viewTypes';

/**
 * What an inspected file held: an event log in our envelope, a state in our envelope, a raw
 * state (as a store persists it), a reference `toDict` memory, or a session file of the JSON file
 * store. Everything but a log reads as a one-step timeline (step 0 only).
 *
 * @example
 * ```ts
 * const kind: InputKind = 'session';
 * ```
 */
export type InputKind = 'log' | 'state' | 'rawState' | 'dict' | 'session';

/**
 * The header of a session file (the JSON file store's keys, timestamps in Unix seconds).
 *
 * @example
 * ```ts
 * const session: SessionInfo = { sessionId: 's1', namespace: null, createdAt: 1, updatedAt: 2, revision: 1 };
 * ```
 */
export interface SessionInfo {
  readonly sessionId: string;
  readonly namespace: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly revision: number;
}

/**
 * An input read for inspection: its kind, the event log it reads as, and a session's header.
 *
 * @example
 * ```ts
 * const inspected: Inspected = { kind: 'log', log: createEventLog(), session: null };
 * ```
 */
export interface Inspected {
  readonly kind: InputKind;
  readonly log: EventLog;
  readonly session: SessionInfo | null;
}

/**
 * A rule that removed a message: a trim rule of `enforceLimits`, or `'clear'` (`clearMemory`).
 *
 * @example
 * ```ts
 * const rule: RemovalRule = 'clear';
 * ```
 */
export type RemovalRule = TrimRule | 'clear';

/**
 * What left the window at one step: how many, how many by each rule (rules that removed nothing
 * are absent), and their positions (in window order).
 *
 * @example
 * ```ts
 * const trimmed: TrimmedCount = { count: 2, byRule: { messageLimit: 1, toolPairBoundary: 1 }, positions: [3, 4] };
 * ```
 */
export interface TrimmedCount {
  readonly count: number;
  readonly byRule: Readonly<Partial<Record<RemovalRule, number>>>;
  readonly positions: readonly number[];
}

/**
 * The summary changed at one step: the new text (or `null`), the previous one, and, for a
 * committed chunk, the positions it covers.
 *
 * @example
 * ```ts
 * const change: SummaryChange = { summary: 'The user is Alice.', previous: null, coverage: { from: 0, to: 3, count: 4 } };
 * ```
 */
export interface SummaryChange {
  readonly summary: string | null;
  readonly previous: string | null;
  readonly coverage: SummaryCoverage | null;
}

/**
 * One step of a timeline: step 0 is the initial state, step `n` the state after the log's `n`th
 * action. Plain JSON data, computed for every step in one pass over the log.
 *
 * @example
 * ```ts
 * const row: TimelineRow = timelineRows(log)[3];
 * `${row.messages}/${row.maxMessages}`; // '3/5'
 * ```
 */
export interface TimelineRow {
  readonly step: number;
  /** The action's type; `null` at step 0. */
  readonly action: MemoryActionType | null;
  /** A short one-line description of the action (`add user "Hi"`, `commit summary through #3`). */
  readonly label: string;
  /** Messages in the window after this step. */
  readonly messages: number;
  readonly maxMessages: number;
  /** Tokens in the window after this step (the injected summary not included). */
  readonly tokens: number;
  readonly maxTokens: number | null;
  readonly trimmed: TrimmedCount;
  /** Set when the summary changed at this step. */
  readonly summary: SummaryChange | null;
  /** Trimmed messages held for summarizing after this step. */
  readonly held: number;
  /**
   * The model calls this step records: the `metadata.usage` of the assistant messages it adds
   * (the agent records each call's usage there), added up; `null` when it adds none.
   */
  readonly usage: StepUsage | null;
}

/**
 * The usage of the model calls of a step (or of several steps, added up): how many calls, and
 * their `CompletionUsage` counts summed (a cache count present when a call reported it).
 *
 * @example
 * ```ts
 * const usage: StepUsage = { calls: 1, inputTokens: 5000, cachedInputTokens: 4096, outputTokens: 35 };
 * ```
 */
export interface StepUsage extends CompletionUsage {
  readonly calls: number;
}

/**
 * What the inspector shows of a usage: its counts, the share of the input tokens read from the
 * cache (`cachedInputTokens / inputTokens`; absent when the provider did not report cache reads
 * or nothing was sent), and the cost at the prices given (absent without prices).
 *
 * @example
 * ```ts
 * const figures: UsageFigures = { calls: 1, inputTokens: 5000, cachedInputTokens: 4000, outputTokens: 35, cacheShare: 0.8, cost: 0.0033 };
 * ```
 */
export interface UsageFigures extends StepUsage {
  readonly cacheShare?: number;
  readonly cost?: number;
}

/**
 * One message of a window as the model receives it. `kind: 'summary'` is the injected
 * `[Conversation Summary] …` message (no position: it is not stored in memory).
 *
 * @example
 * ```ts
 * const entry: WindowEntry = { kind: 'message', message: userMessage('hi'), position: 4, tokens: 1, pinned: false, group: null };
 * ```
 */
export interface WindowEntry {
  readonly kind: 'summary' | 'message';
  readonly message: Message;
  /** The message's stable position; `null` for the injected summary. */
  readonly position: number | null;
  /** Its token count (the summary's counted with the memory's tokenizer). */
  readonly tokens: number;
  /** A system message kept by `pinSystem`. */
  readonly pinned: boolean;
  /**
   * The position of the assistant tool-call message whose group this message belongs to (the
   * call itself, or a result matched by its call id); `null` outside a group.
   */
  readonly group: number | null;
}

/**
 * A message that left the window at a step, with the rule that removed it.
 *
 * @example
 * ```ts
 * const gone: TrimmedEntry = { message: userMessage('hi'), position: 0, rule: 'messageLimit', tokens: 1 };
 * ```
 */
export interface TrimmedEntry {
  readonly message: Message;
  readonly position: number;
  readonly rule: RemovalRule;
  readonly tokens: number;
  /** Rule `'redundant'`: the position of the newer message it repeats. */
  readonly duplicateOf?: number;
}

/**
 * The window at one step, as the model receives it, and what happened at that step.
 *
 * @example
 * ```ts
 * const view: WindowView = windowAt(log, 7);
 * view.entries[0]?.kind; // 'summary' when a summary is stored
 * ```
 */
export interface WindowView {
  readonly row: TimelineRow;
  readonly config: MemoryConfig;
  /** The injected summary (if any) at index 0, then every message of the window. */
  readonly entries: readonly WindowEntry[];
  /** The messages trimmed at this step, in window order. */
  readonly trimmed: readonly TrimmedEntry[];
  readonly summary: string | null;
  readonly summaryCoverage: readonly SummaryCoverage[];
  /** Positions of the messages held for summarizing. */
  readonly heldPositions: readonly number[];
}

/**
 * One message of the model view at a step, as the provider call receives it:
 *
 * - `'knowledge'`: the knowledge blocks the step's facts give (`[Known Relationships]`, …), one
 *   system message first (not stored in memory);
 * - `'summary'`: the injected `[Conversation Summary] …` system message (not stored in memory);
 * - `'message'`: a message of the window, sent as memory holds it (`position`, and `index`, its
 *   index in the window);
 * - `'masked'`: a tool result of the window sent with a placeholder as its content (with
 *   `maskToolResults`; `position` and `index` are the original's, which the retained window
 *   shows; the `view/masked` change says why);
 * - `'answer'`: a tool message the view made to answer a call that has no result (memory does
 *   not hold it; `answers` is the call's id, `position` the position of the call's message).
 *
 * @example
 * ```ts
 * const entry: ViewEntry = { kind: 'message', message: userMessage('hi'), position: 4, index: 1, answers: null };
 * ```
 */
export interface ViewEntry {
  readonly kind: 'knowledge' | 'summary' | 'message' | 'masked' | 'answer' | 'recalled';
  readonly message: Message;
  /**
   * The message's position; for an answer, the position of the call's message; `null` for the
   * knowledge blocks and the summary.
   */
  readonly position: number | null;
  /** Its index in the window (`null` for the blocks, the summary and an answer). */
  readonly index: number | null;
  /** For an answer, the id of the call it answers; otherwise `null`. */
  readonly answers: string | null;
}

/**
 * The model view at one step (what `modelView(state, { target })` gives for the state after the
 * step), as plain JSON data: the messages the next provider call receives, in order, and every
 * change on the way from the retained window (`view/omitted`, `view/answered`).
 *
 * @example
 * ```ts
 * const view: StepModelView = modelViewAt(log, 7, 'openai');
 * view.entries.map((e) => e.message); // modelView(seek(log, 7), { target: 'openai' }).messages
 * ```
 */
export interface StepModelView {
  readonly target: ViewTarget;
  readonly entries: readonly ViewEntry[];
  readonly changes: readonly ViewChange[];
  /** The masking the view was built with (`maskToolResults`); absent: none. */
  readonly mask?: MaskToolResults;
}
