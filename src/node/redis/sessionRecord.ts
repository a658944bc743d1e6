import { Buffer } from 'node:buffer';
import { either as E } from 'fp-ts';
import { fromDict, type MemoryState } from 'conversation-memory';
import { isSessionExpired, sessionKeyOf } from 'conversation-memory/store-kit';

/** Whether a record's id and namespace make its key (`sessionKeyOf`'s rules, `""` refused). */
const makesKey = (id: string, namespace: string | undefined, key: string): boolean => {
  try {
    return sessionKeyOf(id, { namespace }, 'read').key === key;
  } catch {
    return false;
  }
};

/**
 * A session record as read from Redis (the reply of `READ_SCRIPT`), judged with the store's clock:
 * absent, expired (absent to every method), corrupt (`problems` name the field), or live.
 * `token` identifies the stored version (see {@link recordToken}): a save
 * acts only on a record whose token it has decoded, or moves aside one whose token it found
 * corrupt.
 *
 * @example
 * ```ts
 * const record: RedisRecord = { kind: 'absent' };
 * ```
 */
export type RedisRecord =
  | { readonly kind: 'absent' }
  | { readonly kind: 'expired' }
  | {
      readonly kind: 'corrupt';
      readonly problems: readonly string[];
      readonly token: string | undefined;
    }
  | {
      readonly kind: 'live';
      readonly token: string;
      readonly revision: number;
      readonly createdAt: number;
      readonly updatedAt: number;
      readonly id: string;
      readonly namespace: string | undefined;
      /** The memory JSON, when it was read. */
      readonly memory: string | undefined;
    };

/** The timestamps the store writes (`String(seconds)`); the Lua `decimal` accepts the same. */
const DECIMAL = /^-?\d+(?:\.\d+)?(?:e[-+]\d+)?$/;
/** A positive revision of at most 15 digits, as the Lua `probe` accepts. */
const REVISION = /^[1-9]\d{0,14}$/;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : undefined;

const decimal = (value: string | undefined): number | undefined => {
  if (value === undefined || !DECIMAL.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

const shown = (value: string | undefined): string =>
  value === undefined
    ? 'missing'
    : JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

/**
 * The version token of a record, the same string the save script builds: every field but the
 * memory, whose byte length stands in for it (the id's byte length first, so that no id and
 * namespace can make another's token).
 *
 * @example
 * ```ts
 * recordToken('2', '1764500000', '1764500010.5', 1234, 's1', 'u1'); // '2|1764500000|1764500010.5|1234|2|s1|=u1'
 * ```
 */
export const recordToken = (
  revision: string,
  createdAt: string,
  updatedAt: string,
  memoryBytes: number,
  id: string,
  namespace: string | undefined,
): string =>
  `${revision}|${createdAt}|${updatedAt}|${memoryBytes}|${Buffer.byteLength(id, 'utf8')}|${id}|` +
  (namespace === undefined ? '-' : `=${namespace}`);

/**
 * Judges a `READ_SCRIPT` reply for the session `key` (`ns:id` or the bare id): the same
 * structural rules as the scripts, then expiry with the store's clock, then that the record's
 * `session_id` and `namespace` make `key` (a record copied under another key is corrupt).
 *
 * @example
 * ```ts
 * readRedisRecord(['none'], 's1', undefined, Date.now() / 1000); // { kind: 'absent' }
 * ```
 */
export const readRedisRecord = (
  reply: unknown,
  key: string,
  ttl: number | undefined,
  now: number,
): RedisRecord => {
  if (!Array.isArray(reply) || text(reply[0]) === undefined) {
    return {
      kind: 'corrupt',
      problems: ['(record): unreadable reply from Redis'],
      token: undefined,
    };
  }
  const type = text(reply[0]);
  if (type === 'none') return { kind: 'absent' };
  if (type !== 'hash') {
    return {
      kind: 'corrupt',
      problems: [`(record): a Redis ${type ?? 'value'}, not the hash this store writes`],
      token: undefined,
    };
  }
  const [revisionText, createdText, updatedText, id, namespace] = [1, 2, 3, 4, 5].map((i) =>
    text(reply[i]),
  );
  const memoryBytes = typeof reply[6] === 'number' ? reply[6] : Number(text(reply[6]));
  const token =
    revisionText !== undefined &&
    createdText !== undefined &&
    updatedText !== undefined &&
    id !== undefined
      ? recordToken(revisionText, createdText, updatedText, memoryBytes, id, namespace)
      : undefined;
  const createdAt = decimal(createdText);
  const updatedAt = decimal(updatedText);
  const problems: string[] = [];
  if (revisionText === undefined || !REVISION.test(revisionText)) {
    problems.push(`revision: expected a positive integer, got ${shown(revisionText)}`);
  }
  if (createdAt === undefined) {
    problems.push(`created_at: expected Unix seconds, got ${shown(createdText)}`);
  }
  if (updatedAt === undefined) {
    problems.push(`updated_at: expected Unix seconds, got ${shown(updatedText)}`);
  }
  if (id === undefined) problems.push('session_id: missing');
  if (!(memoryBytes > 0)) problems.push('memory: missing');
  if (problems.length > 0) return { kind: 'corrupt', problems, token };
  if (isSessionExpired(updatedAt as number, ttl, now)) return { kind: 'expired' };
  if (!makesKey(id as string, namespace, key)) {
    return {
      kind: 'corrupt',
      problems: [
        `session_id, namespace: ${shown(id)} and ${shown(namespace)} do not make the key ${JSON.stringify(key)}`,
      ],
      token,
    };
  }
  return {
    kind: 'live',
    token: token as string,
    revision: Number(revisionText),
    createdAt: createdAt as number,
    updatedAt: updatedAt as number,
    id: id as string,
    namespace,
    memory: text(reply[7]),
  };
};

/**
 * Decodes a record's memory JSON (`toDict` output) with `fromDict`; problems are named by their
 * path in the record (`memory.messages[3].role: …`).
 *
 * @example
 * ```ts
 * readRedisMemory('{"max_messages": 0}'); // { ok: false, problems: ['memory.max_messages: …'] }
 * ```
 */
export const readRedisMemory = (
  memory: string | undefined,
):
  | { readonly ok: true; readonly state: MemoryState }
  | { readonly ok: false; readonly problems: readonly string[]; readonly cause?: unknown } => {
  if (memory === undefined) return { ok: false, problems: ['memory: missing'] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(memory);
  } catch (cause) {
    return { ok: false, problems: [`memory: not JSON (${(cause as Error).message})`], cause };
  }
  const decoded = fromDict(parsed);
  if (E.isRight(decoded)) return { ok: true, state: decoded.right };
  return {
    ok: false,
    problems: decoded.left.problems.map((problem) =>
      problem.startsWith('(root)') ? `memory${problem.slice(6)}` : `memory.${problem}`,
    ),
    cause: decoded.left,
  };
};
