import { encodeEnvelope } from '../../codec/envelope';
import { type EventLog, fork, mapLogStates } from '../../log/eventLog';
import type { TokenizerName } from '../../model/config';
import type { Message } from '../../model/message';
import type { MemoryState } from '../../model/state';
import { RECALL_HEADER } from '../../knowledge/retrieval/headers';
import { countHeuristicTokens } from '../../tokens/heuristic';
import { registerTokenizer } from '../../tokens/registry';
import { type PageData, tokenKey } from './data';

/** The tokenizer the page replays an encoding's log with: a lookup in the embedded table. */
export const TABLE_TOKENIZER = 'conversation-memory-inspector:table';

let table: ReadonlyMap<string, number> = new Map();
let registered = false;

/**
 * Whether `message` is the recall block or a piece of it as recall counts them (the header, a
 * line after a line break): text the log never held, made for the step's question, so no table
 * holds it.
 */
const isRecallText = (message: Message): boolean =>
  message.role === 'system' &&
  typeof message.content === 'string' &&
  (message.content.startsWith(RECALL_HEADER) || message.content.startsWith('\n'));

const countFromTable = (message: Message): number => {
  const count = table.get(tokenKey(message));
  if (count === undefined && isRecallText(message)) {
    // The page has no encoding: the recall block is estimated (the CLI's `--at` counts it).
    return countHeuristicTokens(message);
  }
  if (count === undefined) {
    throw new Error(`no recorded token count for ${tokenKey(message).slice(0, 120)}`);
  }
  return count;
};

const withTokenizer = (log: EventLog, tokenizer: TokenizerName): EventLog => {
  const retag = (state: MemoryState): MemoryState => ({
    ...state,
    config: { ...state.config, tokenizer },
  });
  return mapLogStates(log, retag);
};

/**
 * The log the page replays: the embedded log as it is for the `heuristic` tokenizer; otherwise the
 * same log counting with {@link TABLE_TOKENIZER}, whose table this installs.
 *
 * @param data - the page's data
 * @returns the log to step through
 * @example
 * ```ts
 * const stepper = createStepper(pageLogOf(data));
 * ```
 */
export const pageLogOf = (data: PageData): EventLog => {
  if (data.tokenTable === null) return data.log;
  table = new Map(data.tokenTable);
  if (!registered) {
    registerTokenizer(TABLE_TOKENIZER, countFromTable);
    registered = true;
  }
  return withTokenizer(data.log, TABLE_TOKENIZER);
};

/**
 * "Fork here": the event log of the first `n` steps, with the original tokenizer, as the JSON text
 * of its envelope (what `conversation-memory inspect` reads).
 *
 * @param data - the page's data
 * @param log - the log the page replays ({@link pageLogOf})
 * @param n - the step to branch at
 * @returns the envelope's JSON text
 * @example
 * ```ts
 * const text = forkText(data, pageLogOf(data), 7);
 * ```
 */
export const forkText = (data: PageData, log: EventLog, n: number): string => {
  const forked = fork(log, n);
  const original = data.tokenTable === null ? forked : withTokenizer(forked, data.tokenizer);
  return `${JSON.stringify(encodeEnvelope(original), null, 2)}\n`;
};
