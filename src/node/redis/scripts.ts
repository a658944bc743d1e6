import { createHash } from 'node:crypto';
import { StoreUnavailableError } from 'conversation-memory';
import type { RedisConnection } from './connection';

/**
 * A Lua script the store runs with `EVALSHA` (falling back to `EVAL` when the server does not
 * have it cached, e.g. after a restart or `SCRIPT FLUSH`). Each runs atomically on the server,
 * and touches only the keys it is given (`KEYS`), all in one Redis Cluster slot. `writes`: it
 * may change them (a failure after sending it leaves the outcome unknown).
 *
 * @example
 * ```ts
 * const script: RedisScript = SAVE_SCRIPT;
 * script.sha; // the SHA-1 of script.source
 * ```
 */
export interface RedisScript {
  readonly source: string;
  readonly sha: string;
  readonly writes: boolean;
}

/**
 * A script from its Lua source, with its SHA-1 computed once; `writes` unless it only reads.
 *
 * @example
 * ```ts
 * const PING_SCRIPT = redisScript("return redis.call('PING')", { writes: false });
 * ```
 */
export const redisScript = (source: string, { writes }: { writes: boolean }): RedisScript =>
  Object.freeze({ source, sha: createHash('sha1').update(source).digest('hex'), writes });

const writing = (source: string) => redisScript(source, { writes: true });
const reading = (source: string) => redisScript(source, { writes: false });

/**
 * The structural check shared by the scripts, kept equal to `sessionRecord.ts` (which adds what Lua
 * cannot check: the memory decodes, the id fields match the key). `probe(key)` returns `'none'`,
 * `'corrupt'` (not a hash, or a field the store never writes that way), or `'hash', fields, len`
 * with fields = {revision, created_at, updated_at, session_id, namespace} and len = the memory's
 * byte length. `token(f, len)` is the record's version token, as `recordToken` builds it.
 */
const PROBE = `
local function decimal(s)
  if type(s) ~= 'string' then return nil end
  if not (string.match(s, '^%-?%d+$') or string.match(s, '^%-?%d+%.%d+$')
      or string.match(s, '^%-?%d+e[-+]%d+$') or string.match(s, '^%-?%d+%.%d+e[-+]%d+$')) then
    return nil
  end
  local n = tonumber(s)
  if n == nil or n ~= n or n == math.huge or n == -math.huge then return nil end
  return n
end
local function probe(key)
  local t = redis.call('TYPE', key).ok
  if t == 'none' then return 'none' end
  if t ~= 'hash' then return 'corrupt' end
  local f = redis.call('HMGET', key, 'revision', 'created_at', 'updated_at', 'session_id',
    'namespace')
  local len = redis.call('HSTRLEN', key, 'memory')
  if type(f[1]) ~= 'string' or #f[1] > 15 or not string.match(f[1], '^[1-9]%d*$') then
    return 'corrupt'
  end
  if decimal(f[2]) == nil or decimal(f[3]) == nil or type(f[4]) ~= 'string' or len == 0 then
    return 'corrupt'
  end
  return 'hash', f, len
end
local function token(f, len)
  local ns = '-'
  if f[5] then ns = '=' .. f[5] end
  return f[1] .. '|' .. f[2] .. '|' .. f[3] .. '|' .. len .. '|' .. #f[4] .. '|' .. f[4] .. '|' .. ns
end
local function expired(f, now, ttl)
  return ttl ~= '' and tonumber(now) - decimal(f[3]) > tonumber(ttl)
end
`;

/**
 * The conditional write, in one atomic step. KEYS: the session hash, a fresh aside name. ARGV:
 * expected revision (`''`: unconditional), now, ttl (`''`: none), the token of a record the
 * client has verified, the token of a record the client found corrupt, memory JSON, session id,
 * namespace (`''`: none), expire seconds (`''`: none).
 *
 * A live record the client has not verified (decoded) is never acted on: the reply is
 * `{'check', token}` and the client reads and decodes it first. A corrupt record counts as absent
 * and, when the write goes ahead, is renamed to the aside name rather than overwritten. A stale
 * expected revision replies `{'conflict', actual}` and changes nothing. Otherwise the hash is
 * replaced and `{'ok', revision, created_at}` returned.
 *
 * @example
 * ```ts
 * await runScript(connection, SAVE_SCRIPT, [hash, aside], ['0', now, '', '', '', memory, 's1', '', ''], api);
 * ```
 */
export const SAVE_SCRIPT = writing(`${PROBE}
local key = KEYS[1]
local state, f, len = probe(key)
local current, created, aside = 0, ARGV[2], false
if state == 'corrupt' then
  aside = true
elseif state == 'hash' and not expired(f, ARGV[2], ARGV[3]) then
  local version = token(f, len)
  if version == ARGV[5] then
    aside = true
  elseif version ~= ARGV[4] then
    return {'check', version}
  else
    current = tonumber(f[1])
    created = f[2]
  end
end
if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= current then
  return {'conflict', string.format('%.0f', current)}
end
if aside then redis.call('RENAME', key, KEYS[2]) else redis.call('DEL', key) end
local revision = string.format('%.0f', current + 1)
redis.call('HSET', key, 'memory', ARGV[6], 'revision', revision, 'created_at', created,
  'updated_at', ARGV[2], 'session_id', ARGV[7])
if ARGV[8] ~= '' then redis.call('HSET', key, 'namespace', ARGV[8]) end
if ARGV[9] ~= '' then redis.call('EXPIRE', key, ARGV[9]) end
return {'ok', revision, created}
`);

/**
 * Reads a record in one step. KEYS: the hash. ARGV: `'1'` to include the memory. Replies
 * `{type}` for anything but a hash, else `{type, revision, created_at, updated_at, session_id,
 * namespace, memory byte length, memory or nil}` (missing fields as nil).
 *
 * @example
 * ```ts
 * await runScript(connection, READ_SCRIPT, [hash], ['1'], api); // ['hash', '1', …]
 * ```
 */
export const READ_SCRIPT = reading(`
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= 'hash' then return {t} end
local f = redis.call('HMGET', KEYS[1], 'revision', 'created_at', 'updated_at', 'session_id',
  'namespace')
local len = redis.call('HSTRLEN', KEYS[1], 'memory')
local memory = false
if ARGV[1] == '1' then memory = redis.call('HGET', KEYS[1], 'memory') end
return {t, f[1], f[2], f[3], f[4], f[5], len, memory}
`);

/**
 * Deletes a record (a corrupt one too) and tells whether it was there and not expired
 * (`1`/`0`). KEYS: the hash. ARGV: now, ttl (`''`: none).
 *
 * @example
 * ```ts
 * await runScript(connection, DELETE_SCRIPT, [hash], [now, ''], api); // 1
 * ```
 */
export const DELETE_SCRIPT = writing(`${PROBE}
local state, f = probe(KEYS[1])
if state == 'none' then return 0 end
local live = 1
if state == 'hash' and expired(f, ARGV[1], ARGV[2]) then live = 0 end
redis.call('DEL', KEYS[1])
return live
`);

/**
 * Removes a session that has expired by the store's clock (`sweep`), in one step: the same probe
 * and expiry rule as {@link DELETE_SCRIPT}, so a record saved again meanwhile is left alone.
 * KEYS: the hash. ARGV: now, ttl. Replies 1 when it removed the record, else 0.
 *
 * @example
 * ```ts
 * await runScript(connection, SWEEP_SCRIPT, [hash], [now, '3600'], api); // 1
 * ```
 */
export const SWEEP_SCRIPT = writing(`${PROBE}
local state, f = probe(KEYS[1])
if state ~= 'hash' or not expired(f, ARGV[1], ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
return 1
`);

/** Whether the server did not have the script cached (its reply, as `redisFailure` wraps it). */
const isNoScript = (error: unknown): boolean => {
  const reply = error instanceof StoreUnavailableError ? error.cause : error;
  return reply instanceof Error && reply.message.startsWith('NOSCRIPT');
};

/**
 * Runs a script by its SHA-1, sending the source only when the server does not have it; on a
 * cluster, on the master of its first key's slot (the slot of all its keys).
 *
 * @example
 * ```ts
 * const reply = await runScript(connection, READ_SCRIPT, ['app:s:s1'], ['0'], 'RedisSessionStore.exists');
 * ```
 */
export const runScript = async (
  connection: RedisConnection,
  { source, sha, writes }: RedisScript,
  keys: readonly string[],
  args: readonly string[],
  api: string,
): Promise<unknown> => {
  const rest = [String(keys.length), ...keys, ...args];
  const route = { key: keys[0], writes };
  try {
    return await connection.send(['EVALSHA', sha, ...rest], api, route);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return connection.send(['EVAL', source, ...rest], api, route);
  }
};
