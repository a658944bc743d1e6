import { isConversationMemoryError } from 'conversation-memory';
import { describeValue, sessionKeyOf, type SessionKey } from 'conversation-memory/store-kit';

/**
 * A session file's envelope, read and checked: the reference's keys (`session_id`, `namespace`,
 * `created_at`, `updated_at`, `memory`) plus our `revision` (1 when absent: a file written by the
 * reference). The memory is still raw JSON; `fromDict` decodes it.
 *
 * @example
 * ```ts
 * const read = readSessionRecord('{"session_id": "s1", "namespace": null, "created_at": 1, "updated_at": 2, "memory": {}}');
 * if (read.ok) read.record.revision; // 1
 * ```
 */
export interface SessionRecord {
  readonly where: SessionKey;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly revision: number;
  readonly memory: unknown;
}

/**
 * What {@link readSessionRecord} found: a record, or the problems that make the file corrupt,
 * each naming the path inside the file (`created_at: …`).
 *
 * @example
 * ```ts
 * const read: RecordRead = { ok: false, problems: ['(root): not JSON: Unexpected end of JSON input'] };
 * ```
 */
export type RecordRead =
  | { readonly ok: true; readonly record: SessionRecord }
  | { readonly ok: false; readonly problems: readonly string[]; readonly cause?: unknown };

/**
 * A value from the file, for a problem: shortened and escaped, containers by kind only (a file's
 * value may be nested 100,000 levels deep, which printing it would overflow the stack on).
 */
const show = (value: unknown): string => (value === undefined ? 'nothing' : describeValue(value));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (object: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(object, key) ? object[key] : undefined;

const timestamp = (data: Record<string, unknown>, key: string, problems: string[]): number => {
  const value = own(data, key);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  problems.push(`${key}: expected Unix seconds (a finite number), got ${show(value)}`);
  return 0;
};

/** The key the file names, checked with the reference's id rules (a `""` namespace is none). */
const keyOf = (data: Record<string, unknown>, problems: string[]): SessionKey | undefined => {
  const id = own(data, 'session_id');
  const namespace = own(data, 'namespace');
  try {
    return sessionKeyOf(id, { namespace: namespace === '' ? undefined : namespace }, 'read');
  } catch (error) {
    const field = (error as { field?: unknown }).field === 'namespace' ? 'namespace' : 'session_id';
    const detail = isConversationMemoryError(error) ? error.detail : String(error);
    problems.push(`${field}: ${detail}`);
    return undefined;
  }
};

/**
 * Parses a session file's text and checks its envelope (not the memory: decode `record.memory`
 * with `fromDict`). Never throws: a truncated, foreign or damaged file gives `ok: false` with
 * every problem found.
 *
 * @example
 * ```ts
 * readSessionRecord('{"session_id": "s1"'); // { ok: false, problems: ['(root): not JSON: …'] }
 * ```
 */
export const readSessionRecord = (text: string): RecordRead => {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [`(root): not JSON (truncated?): ${reason}`], cause: error };
  }
  if (!isObject(data)) {
    return {
      ok: false,
      problems: [`(root): expected a session object with session_id and memory, got ${show(data)}`],
    };
  }
  const problems: string[] = [];
  const where = keyOf(data, problems);
  const createdAt = timestamp(data, 'created_at', problems);
  const updatedAt = timestamp(data, 'updated_at', problems);
  const rawRevision = own(data, 'revision');
  const revision = rawRevision === undefined ? 1 : rawRevision;
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 1) {
    problems.push(`revision: expected an integer ≥ 1, got ${show(rawRevision)}`);
  }
  if (!Object.hasOwn(data, 'memory')) problems.push('memory: missing');
  if (problems.length > 0 || where === undefined) return { ok: false, problems };
  return {
    ok: true,
    record: { where, createdAt, updatedAt, revision: revision as number, memory: data['memory'] },
  };
};

/**
 * Writes a session file's text: the reference's keys in its order, then `revision` (which the
 * reference ignores). `memoryJson` is `JSON.stringify(toDict(state))`, made before the lock is
 * taken.
 *
 * @example
 * ```ts
 * writeSessionRecord({ id: 's1', namespace: undefined, key: 's1' }, 1764500000, 1764500000, 1, '{"max_messages":20}');
 * // '{"session_id":"s1","namespace":null,"created_at":1764500000,"updated_at":1764500000,"memory":{"max_messages":20},"revision":1}'
 * ```
 */
export const writeSessionRecord = (
  where: SessionKey,
  createdAt: number,
  updatedAt: number,
  revision: number,
  memoryJson: string,
): string =>
  `{"session_id":${JSON.stringify(where.id)},"namespace":${JSON.stringify(where.namespace ?? null)},` +
  `"created_at":${JSON.stringify(createdAt)},"updated_at":${JSON.stringify(updatedAt)},` +
  `"memory":${memoryJson},"revision":${revision}}`;
