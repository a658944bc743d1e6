import { MemoryArgumentError } from 'conversation-memory';

/**
 * The store's key layout in Redis, one place for every name it writes or scans. Every key of one
 * session or stream is `${prefix}{${tag}}${family}`, where `tag` is the storage key (`ns:id` or
 * the id, see `sessionKeyOf`) with `%` and `}` escaped (`%25`, `%7D`):
 * - `${prefix}{${tag}}s`: one hash per session;
 * - `${prefix}{${tag}}corrupt:${time}:${nonce}`: a damaged record moved aside by a save;
 * - and the event store's families (see {@link RedisEventKeyLayout}): `ev`, `evc`, `evs`.
 *
 * The braces are a Redis Cluster hash tag: Redis hashes only the text between the first `{` and
 * the next `}`, so every key of one session (the hash and its aside copies) and of one stream
 * (the stream, its meta and its snapshots) is in one slot, as the Lua scripts that touch several
 * of them at once require, while different sessions spread over the cluster. The tag has no `}`,
 * so the first `}` after the prefix ends it: no id and no namespace can make one record's key
 * equal another's, of the same family or not (the reference's `__meta__` prefix could), even when
 * the session store and the event store share one prefix. A prefix with braces of its own still
 * keeps each session in one slot (a complete tag such as `app{x}:` puts the whole store in one
 * slot); only a prefix whose first `{` is followed at once by `}` is refused (see
 * {@link checkRedisPrefix}).
 *
 * @example
 * ```ts
 * const layout: RedisKeyLayout = redisKeyLayout('app:');
 * layout.session('u1:s1'); // 'app:{u1:s1}s'
 * ```
 */
export interface RedisKeyLayout {
  /** The hash of the session whose key is `key`. */
  readonly session: (key: string) => string;
  /** The session key of a hash name found by SCAN, or `undefined` for a name outside the layout. */
  readonly sessionKeyOf: (name: string) => string | undefined;
  /** A fresh name to move the damaged record of `key` to (in the same slot). */
  readonly aside: (key: string, now: number, nonce: string) => string;
  /** The SCAN pattern of every session hash, or of those whose key starts with `keyStart`. */
  readonly sessionPattern: (keyStart?: string) => string;
  /** The SCAN pattern of every aside record, or of those whose key starts with `keyStart`. */
  readonly asidePattern: (keyStart?: string) => string;
  /** The session key of an aside record's name found by SCAN, or `undefined` for another name. */
  readonly asideKeyOf: (name: string) => string | undefined;
}

/**
 * Escapes a string for a Redis glob pattern (`SCAN … MATCH`): `*`, `?`, `[`, `]` and `\` match
 * only themselves, so an id or a prefix cannot widen the match.
 *
 * @example
 * ```ts
 * escapeRedisGlob('a*b'); // 'a\\*b'
 * ```
 */
export const escapeRedisGlob = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');

/**
 * The hash tag's text for a storage key: `%` → `%25` and `}` → `%7D`, so it has no `}` and two
 * keys never share one. Character by character, so a key's start maps to its tag's start.
 *
 * @example
 * ```ts
 * redisHashTag('a}b'); // 'a%7Db'
 * ```
 */
export const redisHashTag = (key: string): string =>
  key.includes('%') || key.includes('}')
    ? key.replace(/[%}]/g, (c) => (c === '%' ? '%25' : '%7D'))
    : key;

/** Reverses {@link redisHashTag}. */
const keyOfTag = (tag: string): string =>
  tag.includes('%') ? tag.replace(/%(25|7D)/g, (escape) => (escape === '%25' ? '%' : '}')) : tag;

/** A JavaScript string that UTF-8 cannot carry (a lone surrogate) would become U+FFFD in Redis. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Checks a key prefix: a string of well-formed Unicode (a lone surrogate would become U+FFFD in
 * Redis, so two prefixes could be one), whose first `{` is not followed at once by `}`
 * (`app{}:`): Redis Cluster ignores such an empty hash tag and hashes each key whole, and no tag
 * after it counts, so one session's keys would land in different slots. Any other prefix keeps
 * every key of a session in one slot.
 *
 * @returns the prefix
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * checkRedisPrefix('app:', 'RedisSessionStore'); // 'app:'
 * checkRedisPrefix('app{}:', 'RedisSessionStore'); // throws
 * ```
 */
export const checkRedisPrefix = (prefix: unknown, api: string): string => {
  if (typeof prefix !== 'string' || LONE_SURROGATE.test(prefix)) {
    throw new MemoryArgumentError(
      api,
      `options.prefix must be a string of well-formed Unicode, received ${typeof prefix === 'string' ? 'a string with a lone surrogate' : prefix === null ? 'null' : typeof prefix}`,
    );
  }
  const open = prefix.indexOf('{');
  if (open >= 0 && prefix[open + 1] === '}') {
    throw new MemoryArgumentError(
      api,
      `options.prefix must not have "{}" at its first "{" (received a prefix with "{}" at index ${open}): Redis Cluster would hash each key whole, putting one session's keys on different nodes`,
    );
  }
  return prefix;
};

/** The family of `name` under `prefix`: the tag's key when `name` is `${prefix}{tag}${family}`. */
const keyIn = (prefix: string, family: string, name: string): string | undefined => {
  const start = `${prefix}{`;
  const end = `}${family}`;
  if (!name.startsWith(start) || !name.endsWith(end)) return undefined;
  const tag = name.slice(start.length, name.length - end.length);
  return tag === '' || tag.includes('}') ? undefined : keyOfTag(tag);
};

/**
 * The storage key and the family of a name `${prefix}{tag}${family}` (the family is what follows
 * the tag's `}`), or `undefined` for a name outside the prefix.
 */
const tagOf = (prefix: string, name: string): { key: string; family: string } | undefined => {
  const start = `${prefix}{`;
  if (!name.startsWith(start)) return undefined;
  const end = name.indexOf('}', start.length);
  if (end <= start.length) return undefined;
  return { key: keyOfTag(name.slice(start.length, end)), family: name.slice(end + 1) };
};

/** `${prefix}{tag of key}`: the start every key of one session or stream shares. */
const tagged = (prefix: string, key: string): string => `${prefix}{${redisHashTag(key)}}`;

/** The pattern of a family's keys whose storage key starts with `keyStart`. */
const familyPattern = (prefix: string, family: string, keyStart: string): string =>
  `${escapeRedisGlob(`${prefix}{${redisHashTag(keyStart)}`)}*${escapeRedisGlob(`}${family}`)}`;

/**
 * The key layout under `prefix` (see {@link RedisKeyLayout}).
 *
 * @example
 * ```ts
 * redisKeyLayout('p:').sessionPattern('u1:'); // 'p:{u1:*}s'
 * ```
 */
export const redisKeyLayout = (prefix: string): RedisKeyLayout => ({
  session: (key) => `${tagged(prefix, key)}s`,
  sessionKeyOf: (name) => keyIn(prefix, 's', name),
  aside: (key, now, nonce) => `${tagged(prefix, key)}corrupt:${now}:${nonce}`,
  sessionPattern: (keyStart = '') => familyPattern(prefix, 's', keyStart),
  asidePattern: (keyStart = '') =>
    `${escapeRedisGlob(`${prefix}{${redisHashTag(keyStart)}`)}*}corrupt:*`,
  asideKeyOf: (name) => {
    const found = tagOf(prefix, name);
    return found?.family.startsWith('corrupt:') === true ? found.key : undefined;
  },
});

/**
 * The event store's keys under `prefix`, for the stream whose key is `key` (`ns:id` or the id),
 * all in one Redis Cluster slot (see {@link RedisKeyLayout}):
 * - `${prefix}{${tag}}ev`: the Redis Stream of its actions (entry `v-0` holds version `v`);
 * - `${prefix}{${tag}}evc`: a hash with its config, creation time and incarnation (a random id
 *   written by the append that creates it: the stream exists exactly when this key does);
 * - `${prefix}{${tag}}evs`: a hash of snapshots, field = version, value = the state's envelope.
 *
 * @example
 * ```ts
 * const events: RedisEventKeyLayout = redisEventKeyLayout('app:');
 * events.stream('u1:t1'); // 'app:{u1:t1}ev'
 * ```
 */
export interface RedisEventKeyLayout {
  readonly stream: (key: string) => string;
  readonly meta: (key: string) => string;
  readonly snapshots: (key: string) => string;
  /** The stream key of a meta key found by SCAN, or `undefined` outside the layout. */
  readonly streamKeyOf: (metaName: string) => string | undefined;
  /** The SCAN pattern of every meta key, or of those whose stream key starts with `keyStart`. */
  readonly metaPattern: (keyStart?: string) => string;
  /** The SCAN pattern of every key of the streams whose key starts with `keyStart` (`ev*`). */
  readonly anyPattern: (keyStart: string) => string;
  /** The stream key of any of a stream's keys (`ev`, `evc`, `evs`), or `undefined`. */
  readonly streamKeyOfAny: (name: string) => string | undefined;
}

/**
 * The event store's key layout under `prefix` (see {@link RedisEventKeyLayout}).
 *
 * @example
 * ```ts
 * redisEventKeyLayout('p:').metaPattern('u1:'); // 'p:{u1:*}evc'
 * ```
 */
export const redisEventKeyLayout = (prefix: string): RedisEventKeyLayout => ({
  stream: (key) => `${tagged(prefix, key)}ev`,
  meta: (key) => `${tagged(prefix, key)}evc`,
  snapshots: (key) => `${tagged(prefix, key)}evs`,
  streamKeyOf: (name) => keyIn(prefix, 'evc', name),
  metaPattern: (keyStart = '') => familyPattern(prefix, 'evc', keyStart),
  anyPattern: (keyStart) => `${familyPattern(prefix, 'ev', keyStart)}*`,
  streamKeyOfAny: (name) => {
    const found = tagOf(prefix, name);
    return found !== undefined && STREAM_FAMILIES.has(found.family) ? found.key : undefined;
  },
});

/** The families of a stream's keys. */
const STREAM_FAMILIES = new Set(['ev', 'evc', 'evs']);

/**
 * The knowledge store's keys under `prefix`, for the record whose key is `key` (`ns:id` or the
 * id), in one Redis Cluster slot (see {@link RedisKeyLayout}): `${prefix}{${tag}}k`, the record's
 * hash, and `${prefix}{${tag}}kcorrupt:${time}:${nonce}`, a damaged record moved aside.
 *
 * @example
 * ```ts
 * const knowledge: RedisKnowledgeKeyLayout = redisKnowledgeKeyLayout('app:');
 * knowledge.record('u1:k1'); // 'app:{u1:k1}k'
 * ```
 */
export interface RedisKnowledgeKeyLayout {
  readonly record: (key: string) => string;
  readonly aside: (key: string, nonce: string) => string;
  /** The record key of a hash name found by SCAN, or `undefined` outside the layout. */
  readonly recordKeyOf: (name: string) => string | undefined;
  /** The record key of an aside name found by SCAN, or `undefined` for another name. */
  readonly asideKeyOf: (name: string) => string | undefined;
  /** The SCAN pattern of the records whose key starts with `keyStart`. */
  readonly recordPattern: (keyStart?: string) => string;
  /** The SCAN pattern of the records and aside copies whose key starts with `keyStart`. */
  readonly anyPattern: (keyStart: string) => string;
  /** The SCAN pattern of every aside copy. */
  readonly asidePattern: () => string;
}

/**
 * The knowledge store's key layout under `prefix` (see {@link RedisKnowledgeKeyLayout}).
 *
 * @example
 * ```ts
 * redisKnowledgeKeyLayout('p:').recordPattern('u1:'); // 'p:{u1:*}k'
 * ```
 */
export const redisKnowledgeKeyLayout = (prefix: string): RedisKnowledgeKeyLayout => ({
  record: (key) => `${tagged(prefix, key)}k`,
  aside: (key, nonce) => `${tagged(prefix, key)}kcorrupt:${Date.now()}:${nonce}`,
  recordKeyOf: (name) => keyIn(prefix, 'k', name),
  asideKeyOf: (name) => {
    const found = tagOf(prefix, name);
    return found?.family.startsWith('kcorrupt:') === true ? found.key : undefined;
  },
  recordPattern: (keyStart = '') => familyPattern(prefix, 'k', keyStart),
  anyPattern: (keyStart) => `${familyPattern(prefix, 'k', keyStart)}*`,
  asidePattern: () => `${escapeRedisGlob(`${prefix}{`)}*}kcorrupt:*`,
});
