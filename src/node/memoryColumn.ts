import { either as E } from 'fp-ts';
import {
  fromDict,
  type LoadedSession,
  MemoryDecodeError,
  type MemoryState,
  SessionCorruptError,
} from 'conversation-memory';

/**
 * The `memory_json` column of the SQLite and Postgres `sessions` tables (the reference's
 * `ConversationMemory.to_dict()` JSON), decoded the one way both stores decode it.
 */

/**
 * What decoding `memory_json` gave: the state, or the problems (each naming its path inside the
 * column, `memory_json.messages[3].role: …`). `kind: 'tokenizer'` means that the data is sound but
 * names a tokenizer that cannot count in this process (not a corrupt row).
 *
 * @example
 * ```ts
 * const decoded: DecodedMemory = { state };
 * ```
 */
export type DecodedMemory =
  | { readonly state: MemoryState }
  | {
      readonly problems: readonly string[];
      readonly kind: 'data' | 'tokenizer';
      readonly cause: unknown;
    };

const inColumn = (problem: string): string =>
  problem.startsWith('(root)') ? `memory_json${problem.slice(6)}` : `memory_json.${problem}`;

/**
 * Decodes the `memory_json` column's text with `fromDict`. With `tokenizer: 'heuristic'` it only
 * checks the record (cheaply: no real token counting), as `list` and `search` do to skip corrupt
 * rows.
 *
 * @param text - the column's value
 * @param describe - renders a value that is not text, for the problem (each store's own way)
 * @param tokenizer - `'heuristic'` to check only; omitted to load with the stored tokenizer
 * @returns the state, or the problems
 * @example
 * ```ts
 * readMemoryText('{"max_messages": 0}', describeValue); // { problems: ['memory_json.max_messages: …'], kind: 'data', … }
 * ```
 */
export const readMemoryText = (
  text: unknown,
  describe: (value: unknown) => string,
  tokenizer?: 'heuristic',
): DecodedMemory => {
  if (typeof text !== 'string') {
    return {
      problems: [`memory_json: expected JSON text, got ${describe(text)}`],
      kind: 'data',
      cause: undefined,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problems: [`memory_json: not valid JSON (${reason})`], kind: 'data', cause: error };
  }
  return readParsedMemory(parsed, tokenizer);
};

/**
 * {@link readMemoryText} after `JSON.parse`: for a caller that parsed the column already.
 *
 * @example
 * ```ts
 * readParsedMemory(JSON.parse(row.memory_json), 'heuristic');
 * ```
 */
export const readParsedMemory = (parsed: unknown, tokenizer?: 'heuristic'): DecodedMemory => {
  const decoded = fromDict(parsed, tokenizer === undefined ? undefined : { tokenizer });
  if (E.isRight(decoded)) return { state: decoded.right };
  return {
    problems: decoded.left.problems.map(inColumn),
    kind: decoded.left.kind === 'tokenizer' ? 'tokenizer' : 'data',
    cause: decoded.left,
  };
};

/**
 * A row as `load` returns it, from its checked columns and its decoded memory: the state, its
 * revision and timestamps. A row with problems rejects with `SessionCorruptError` listing every
 * one (columns first, then memory); a sound row whose tokenizer cannot count in this process
 * rejects with `MemoryDecodeError` of kind `'tokenizer'` (it is not corrupt: register the
 * tokenizer).
 *
 * @param meta - the columns beside `memory_json`, checked, or their problems
 * @param memory - `memory_json`, decoded
 * @param where - the caller (`api`), the row's key and where it is (`location`), for the error
 * @throws SessionCorruptError or MemoryDecodeError
 * @example
 * ```ts
 * const loaded = loadedFromColumns(readRowMeta(row), readMemoryJson(row.memory_json), {
 *   api: 'SqliteSessionStore.load',
 *   key: row.session_id,
 *   location: `sqlite:sessions.db#${row.session_id}`,
 * });
 * ```
 */
export const loadedFromColumns = (
  meta:
    | {
        readonly meta: {
          readonly revision: number;
          readonly createdAt: number;
          readonly updatedAt: number;
        };
      }
    | { readonly problems: readonly string[] },
  memory: DecodedMemory,
  where: { readonly api: string; readonly key: string; readonly location: string },
): LoadedSession => {
  if ('meta' in meta && 'state' in memory) {
    return Object.freeze({
      state: memory.state,
      revision: meta.meta.revision,
      createdAt: meta.meta.createdAt,
      updatedAt: meta.meta.updatedAt,
    });
  }
  if ('meta' in meta && 'problems' in memory && memory.kind === 'tokenizer') {
    throw new MemoryDecodeError(where.api, memory.problems, { kind: 'tokenizer' });
  }
  const problems = [
    ...('problems' in meta ? meta.problems : []),
    ...('problems' in memory ? memory.problems : []),
  ];
  throw new SessionCorruptError(where.api, where.key, where.location, problems, {
    cause: 'cause' in memory ? memory.cause : undefined,
  });
};
