import { summaryMessage } from '../../view/summaryMessage';
import { normalizeMessage } from '../../internal/normalizeMessage';
import { type EventLog, logActions, logSnapshots } from '../../log/eventLog';
import type { Message } from '../../model/message';
import type { MemoryState } from '../../model/state';
import { countMessageTokens } from '../../tokens/registry';
import { timelineRows } from '../model/timelineRows';
import type { InputKind, Inspected, SessionInfo, TimelineRow } from '../model/types';
import type { TokenPrices } from '../../tokens/estimateCost';

/**
 * What the page embeds: the inspected file's name and kind, its event log (plain JSON), its rows,
 * and, for a log counted with a gpt-tokenizer encoding (whose tables a self-contained page does
 * not carry), the token count of every message the page's replay counts (`tokenTable`: message
 * JSON → count, computed by the CLI with the real encoding).
 *
 * @example
 * ```ts
 * const data: PageData = pageDataOf('log.json', inspected);
 * ```
 */
export interface PageData {
  readonly version: 1;
  readonly file: string;
  readonly kind: InputKind;
  readonly session: SessionInfo | null;
  /** The log's tokenizer (the page replays with a table tokenizer when it is an encoding). */
  readonly tokenizer: string;
  readonly log: EventLog;
  readonly rows: readonly TimelineRow[];
  readonly tokenTable: readonly (readonly [string, number])[] | null;
  /** The prices `--prices` gave (the page costs each step's usage with them); absent: none. */
  readonly prices?: TokenPrices;
}

/**
 * The key of a message in a token table: its JSON (canonical messages serialize the same way in
 * the CLI and, after `JSON.parse`, in the page).
 *
 * @param message - a canonical message
 * @returns the key
 * @example
 * ```ts
 * tokenKey(userMessage('hi')); // '{"role":"user","content":"hi",…}'
 * ```
 */
export const tokenKey = (message: Message): string => JSON.stringify(message);

/**
 * The token count of every message a replay of `log` counts: each message of each snapshot
 * (window and held), each message an action adds, and the injected summary message of every
 * summary the log holds. `null` for the `heuristic` tokenizer, which the page runs itself.
 *
 * @param log - the event log
 * @param rows - its rows (for the summaries after each step)
 * @returns the table, or `null`
 * @example
 * ```ts
 * tokenTableOf(log, timelineRows(log)); // [['{"role":"user",…}', 3], …]
 * ```
 */
export const tokenTableOf = (
  log: EventLog,
  rows: readonly TimelineRow[],
): [string, number][] | null => {
  const tokenizer = log.head.config.tokenizer;
  if (tokenizer === 'heuristic') return null;
  const table = new Map<string, number>();
  const add = (message: Message, count?: number): void => {
    const key = tokenKey(message);
    if (!table.has(key)) table.set(key, count ?? countMessageTokens(tokenizer, message, 'inspect'));
  };
  const addSummary = (summary: string | null): void => {
    const injected = summaryMessage(summary);
    if (injected !== undefined) add(injected);
  };
  const addState = (state: MemoryState): void => {
    state.messages.forEach((message, i) => add(message, state.tokenCounts[i]));
    state.pendingMessages.forEach((message) => add(message));
    addSummary(state.summary);
  };
  logSnapshots(log).forEach(addState);
  addState(log.head);
  for (const action of logActions(log)) {
    if (action.type === 'memory/messageAdded') add(normalizeMessage(action.payload, 'inspect'));
    else if (action.type === 'memory/messagesAdded') {
      for (const message of action.payload) add(normalizeMessage(message, 'inspect'));
    } else if (action.type === 'memory/trimHeld') {
      for (const message of action.payload.removed) add(normalizeMessage(message, 'inspect'));
    }
  }
  for (const row of rows) if (row.summary !== null) addSummary(row.summary.summary);
  return [...table];
};

/**
 * The data a page embeds for an inspected file.
 *
 * @param file - the file's name, as given
 * @param inspected - what `readInput` read from it
 * @param prices - the prices to cost each step's usage with (checked: see `readPrices`)
 * @returns the page's data
 * @example
 * ```ts
 * renderPage(template, pageDataOf('log.json', inspected));
 * ```
 */
export const pageDataOf = (file: string, inspected: Inspected, prices?: TokenPrices): PageData => {
  const rows = timelineRows(inspected.log);
  return {
    version: 1,
    file,
    kind: inspected.kind,
    session: inspected.session,
    tokenizer: inspected.log.head.config.tokenizer,
    log: inspected.log,
    rows,
    tokenTable: tokenTableOf(inspected.log, rows),
    ...(prices === undefined ? {} : { prices }),
  };
};
