import type { LoadedSession } from 'conversation-memory';
import { type DecodedMemory, loadedFromColumns, readMemoryText } from '../memoryColumn';
import { describeColumn } from './describeColumn';

/**
 * A row of the `sessions` table as SQLite returns it: nothing is trusted (a row may come from the
 * reference, from another program, or from a damaged file).
 *
 * @example
 * ```ts
 * const row = db.prepare('SELECT * FROM sessions WHERE session_id = ?').get('s1') as SessionRow;
 * ```
 */
export interface SessionRow {
  readonly session_id: string;
  readonly memory_json: unknown;
  readonly message_count: unknown;
  readonly created_at: unknown;
  readonly updated_at: unknown;
  readonly revision: unknown;
}

/**
 * The columns of a row beside its memory, checked.
 *
 * @example
 * ```ts
 * const meta: RowMeta = { revision: 1, createdAt: 1764500000, updatedAt: 1764500000, messageCount: 2 };
 * ```
 */
export interface RowMeta {
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly messageCount: number;
}

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

const isCount = (value: unknown, least: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= least;

/**
 * Checks the columns of a row beside `memory_json`: timestamps are finite numbers (Unix
 * seconds), `revision` an integer ≥ 1, `message_count` an integer ≥ 0. Each problem names its
 * column.
 *
 * @param row - the row as read
 * @returns the checked values, or the problems
 * @example
 * ```ts
 * readRowMeta({ ...row, revision: 'x' }); // { problems: ['revision: expected an integer ≥ 1, got "x"'] }
 * ```
 */
export const readRowMeta = (
  row: Omit<SessionRow, 'memory_json'>,
): { readonly meta: RowMeta } | { readonly problems: readonly string[] } => {
  const problems: string[] = [];
  if (!isCount(row.revision, 1)) {
    problems.push(`revision: expected an integer ≥ 1, got ${describeColumn(row.revision)}`);
  }
  if (!isTime(row.created_at)) {
    problems.push(`created_at: expected Unix seconds, got ${describeColumn(row.created_at)}`);
  }
  if (!isTime(row.updated_at)) {
    problems.push(`updated_at: expected Unix seconds, got ${describeColumn(row.updated_at)}`);
  }
  if (!isCount(row.message_count, 0)) {
    problems.push(
      `message_count: expected an integer ≥ 0, got ${describeColumn(row.message_count)}`,
    );
  }
  if (problems.length > 0) return { problems };
  return {
    meta: {
      revision: row.revision as number,
      createdAt: row.created_at as number,
      updatedAt: row.updated_at as number,
      messageCount: row.message_count as number,
    },
  };
};

/**
 * Decodes the `memory_json` column (the reference's `ConversationMemory.to_dict()` JSON) with
 * `fromDict`. With `tokenizer: 'heuristic'` it only checks the record (cheaply: no real token
 * counting), as `list` and `search` do to skip corrupt rows.
 *
 * @param text - the column's value
 * @param tokenizer - `'heuristic'` to check only; omitted to load with the stored tokenizer
 * @returns the state, or the problems
 * @example
 * ```ts
 * readMemoryJson('{"max_messages": 0}'); // { problems: ['memory_json.max_messages: …'], kind: 'data', … }
 * ```
 */
export const readMemoryJson = (text: unknown, tokenizer?: 'heuristic'): DecodedMemory =>
  readMemoryText(text, describeColumn, tokenizer);

/**
 * A row as `load` returns it: the state decoded with its own tokenizer, its revision and
 * timestamps. A row that does not decode rejects with `SessionCorruptError` listing every
 * problem (columns and memory); a sound row whose tokenizer cannot count in this process rejects
 * with `MemoryDecodeError` of kind `'tokenizer'` (it is not corrupt: register the tokenizer).
 *
 * @param row - the row as read
 * @param api - the caller, for the error
 * @param location - where the row is, for the error (`sqlite:<path>#<key>`)
 * @throws SessionCorruptError or MemoryDecodeError
 * @example
 * ```ts
 * const loaded = loadedFromRow(row, 'SqliteSessionStore.load', `sqlite:sessions.db#${row.session_id}`);
 * ```
 */
export const loadedFromRow = (row: SessionRow, api: string, location: string): LoadedSession =>
  loadedFromColumns(readRowMeta(row), readMemoryJson(row.memory_json), {
    api,
    key: row.session_id,
    location,
  });
