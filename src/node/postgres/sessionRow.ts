import type { LoadedSession } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { type DecodedMemory, loadedFromColumns, readMemoryText } from '../memoryColumn';
import type { PostgresRow } from './connection';
import { readRowAddress } from './rowAddress';

/**
 * Decoding the rows of the `sessions` table. Every column comes as the server's text (or `null`)
 * and is checked here: a row may have been changed by another program or by hand.
 */

/**
 * A row's columns beside its memory, checked.
 *
 * @example
 * ```ts
 * const meta: SessionRowMeta = { key: 's1', id: 's1', namespace: undefined, revision: 1, createdAt: 1764500000, updatedAt: 1764500000, messageCount: 2 };
 * ```
 */
export interface SessionRowMeta {
  readonly key: string;
  readonly id: string;
  readonly namespace: string | undefined;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly messageCount: number;
}

/** A decimal integer at least `least`, from its text. */
const integerOf = (text: unknown, least: number): number | undefined => {
  if (typeof text !== 'string' || !/^-?\d+$/u.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= least ? value : undefined;
};

/** A finite number of seconds, from a `double precision` column's text. */
const secondsOf = (text: unknown): number | undefined => {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
};

/**
 * Checks the columns of a row beside `memory_json` (`revision` an integer ≥ 1, `message_count` ≥
 * 0, the timestamps finite Unix seconds, `session_id` and `namespace` those of `session_key`);
 * each problem names its column.
 *
 * @example
 * ```ts
 * readSessionRowMeta({ ...row, revision: 'x' }); // { problems: ['revision: expected an integer ≥ 1, got "x"'] }
 * ```
 */
export const readSessionRowMeta = (
  row: PostgresRow,
): { readonly meta: SessionRowMeta } | { readonly problems: readonly string[] } => {
  const key = row['session_key'];
  if (typeof key !== 'string') {
    return { problems: [`session_key: expected text, got ${describeValue(key)}`] };
  }
  const revision = integerOf(row['revision'], 1);
  const messageCount = integerOf(row['message_count'], 0);
  const createdAt = secondsOf(row['created_at']);
  const updatedAt = secondsOf(row['updated_at']);
  const problems: string[] = [];
  const got = (column: string) => describeValue(row[column]);
  if (revision === undefined)
    problems.push(`revision: expected an integer ≥ 1, got ${got('revision')}`);
  if (messageCount === undefined) {
    problems.push(`message_count: expected an integer ≥ 0, got ${got('message_count')}`);
  }
  if (createdAt === undefined)
    problems.push(`created_at: expected Unix seconds, got ${got('created_at')}`);
  if (updatedAt === undefined)
    problems.push(`updated_at: expected Unix seconds, got ${got('updated_at')}`);
  const address = readRowAddress(row['session_key'], row['session_id'], row['namespace']);
  if (address === undefined) {
    problems.push(
      `session_id, namespace: ${got('session_id')} and ${got('namespace')} are not the session of key ${describeValue(key)}`,
    );
  }
  if (problems.length > 0) return { problems };
  return {
    meta: {
      ...(address as NonNullable<typeof address>),
      revision: revision as number,
      createdAt: createdAt as number,
      updatedAt: updatedAt as number,
      messageCount: messageCount as number,
    },
  };
};

/**
 * Decodes `memory_json` (the `toDict` JSON) with `fromDict`; with `'heuristic'` it only checks it
 * cheaply (no real token counting), as `list` and `search` do.
 *
 * @example
 * ```ts
 * readMemoryJson('{"max_messages": 0}'); // { problems: ['memory_json.max_messages: …'], kind: 'data', … }
 * ```
 */
export const readMemoryJson = (text: unknown, tokenizer?: 'heuristic'): DecodedMemory =>
  readMemoryText(text, describeValue, tokenizer);

/**
 * A row as `load` returns it, or the error it is: `SessionCorruptError` listing every problem
 * (columns and memory), or `MemoryDecodeError` of kind `'tokenizer'` for a sound row whose
 * tokenizer cannot count here.
 *
 * @param row - the row as read
 * @param api - the caller, for the error
 * @param location - where the row is (`postgres:<schema>.sessions#<key>`)
 * @throws SessionCorruptError or MemoryDecodeError
 * @example
 * ```ts
 * const loaded = loadedFromRow(row, 'PostgresSessionStore.load', 'postgres:conversation_memory.sessions#s1');
 * ```
 */
export const loadedFromRow = (row: PostgresRow, api: string, location: string): LoadedSession => {
  const key = row['session_key'];
  return loadedFromColumns(readSessionRowMeta(row), readMemoryJson(row['memory_json']), {
    api,
    key: typeof key === 'string' ? key : '',
    location,
  });
};
