import type { EventLog } from '../../log/eventLogTypes';
import { readLog } from '../../log/readLog';
import { describeValue } from '../../util/describeValue';
import { unknownOption } from '../../util/unknownOption';
import type { RecallOptions, TranscriptEntry } from '../viewTypes';
import { isRecallIndex, type RecallIndex } from './recallIndex';
import { recallIndexOfEntries, recallIndexOfLog } from './recallSources';

const RECALL_NAMES = ['source', 'query', 'budget', 'k'] as const;

/** What a caller probably meant inside `recall`. */
const RECALL_HINTS: Readonly<Record<string, string>> = {
  log: 'source',
  from: 'source',
  history: 'source',
  trimmed: 'source',
  question: 'query',
  text: 'query',
  maxTokens: 'budget',
  tokens: 'budget',
  limit: 'k',
  topK: 'k',
  top_k: 'k',
  maxMessages: 'k',
};

/** The longest `recall.query`, in characters. */
const MAX_QUERY = 100_000;
/** The most messages one block may recall. */
const MAX_K = 1_000;

/** The checked `recall` option, its source not indexed yet (indexing costs). */
export interface RecallRequest {
  readonly index: () => RecallIndex;
  readonly query: string | undefined;
  readonly budget: number;
  readonly k: number;
}

/**
 * Reads `recall.source`'s entries from `from` on (those indexed before were read then): each a
 * `{ message, position }` with an integer position ≥ 0.
 */
const checkEntries = (
  list: readonly unknown[],
  from: number,
  fail: (what: string) => never,
): void => {
  for (let i = from; i < list.length; i++) {
    const entry = list[i] as Partial<TranscriptEntry> | null | undefined;
    if (typeof entry !== 'object' || entry === null) {
      fail(
        `options.recall.source[${i}] must be { message, position }, received ${describeValue(entry)}`,
      );
    }
    const { message, position } = entry as Partial<TranscriptEntry>;
    if (typeof message !== 'object' || message === null || typeof message.role !== 'string') {
      fail(
        `options.recall.source[${i}].message must be a message, received ${describeValue(message)}`,
      );
    }
    if (!(Number.isSafeInteger(position) && (position as number) >= 0)) {
      fail(
        `options.recall.source[${i}].position must be an integer ≥ 0, received ${describeValue(position)}`,
      );
    }
  }
};

/**
 * Reads `modelView`'s `recall` option: `{ source, query?, budget, k? }` (absent, `undefined` and
 * `null`: no recall), `source` an event log, a list of `{ message, position }` or a recall index,
 * `budget` an integer ≥ 1, `k` an integer from 1 to 1,000, `query` a string of at most 100,000
 * characters. A wrong value goes to `fail`, naming the field and the value.
 *
 * @internal
 */
export const readRecallOption = (
  value: unknown,
  fail: (what: string) => never,
): RecallRequest | undefined => {
  if (value === undefined || value === null) return undefined;
  const field = 'options.recall';
  if (typeof value !== 'object' || Array.isArray(value)) {
    return fail(
      `${field} must be an object such as { source: log, budget: 2000 }, received ${describeValue(value)}`,
    );
  }
  const unknown = unknownOption(value, RECALL_NAMES, field, RECALL_HINTS);
  if (unknown !== undefined) fail(unknown);
  const { source, query, budget, k } = value as Partial<Record<keyof RecallOptions, unknown>>;
  if (!(typeof budget === 'number' && Number.isSafeInteger(budget) && budget >= 1)) {
    fail(
      `${field}.budget must be an integer ≥ 1 (the recall block's tokens), received ${describeValue(budget)}`,
    );
  }
  if (
    k !== undefined &&
    !(typeof k === 'number' && Number.isSafeInteger(k) && k >= 1 && k <= MAX_K)
  ) {
    fail(`${field}.k must be an integer from 1 to ${MAX_K}, received ${describeValue(k)}`);
  }
  if (query !== undefined && !(typeof query === 'string' && query.length <= MAX_QUERY)) {
    fail(
      `${field}.query must be a string of at most ${MAX_QUERY} characters, received ${describeValue(query)}`,
    );
  }
  let index: () => RecallIndex;
  if (isRecallIndex(source)) {
    index = () => source;
  } else if (Array.isArray(source)) {
    const entries = source as readonly TranscriptEntry[];
    index = () => recallIndexOfEntries(entries, (from) => checkEntries(entries, from, fail));
  } else {
    let log: EventLog | undefined;
    try {
      if (typeof source === 'object' && source !== null) log = readLog(source, 'modelView');
    } catch {
      // Not a log: said below.
    }
    if (log === undefined) {
      return fail(
        `${field}.source must be an event log, a list of { message, position } or a recall index, received ${describeValue(source)}`,
      );
    }
    const checked = log;
    index = () => recallIndexOfLog(checked);
  }
  return {
    index,
    query: query as string | undefined,
    budget: budget as number,
    k: (k as number | undefined) ?? 16,
  };
};
