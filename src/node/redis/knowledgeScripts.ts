import { redisScript } from './scripts';

/**
 * The check the write scripts share: `seen(key, now, ttl)` returns the stored revision (`0` when
 * there is no record), whether the record is damaged (`true`: not a hash, a revision that is not
 * an integer ≥ 1, or the very version the client read and found not to decode: its revision and
 * `updated_at` are `ARGV[1]` and `ARGV[2]`, `'-'` for a missing `updated_at`), and whether it has
 * expired (more than `ttl` seconds, `''`: no TTL, since its `updated_at`, by the store's clock
 * `now`). A damaged or expired record counts as revision 0; a record without a readable
 * `updated_at` never expires.
 */
const SEEN = `
local function seen(key, now, ttl)
  local kind = redis.call('TYPE', key)['ok']
  if kind == 'none' then return 0, false, false end
  if kind ~= 'hash' then return 0, true, false end
  local f = redis.call('HMGET', key, 'revision', 'updated_at')
  local revision = tonumber(f[1])
  if revision == nil or revision < 1 or revision ~= math.floor(revision) then
    return 0, true, false
  end
  if ARGV[1] ~= '' and f[1] == ARGV[1] and (f[2] or '-') == ARGV[2] then return 0, true, false end
  local at = tonumber(f[2] or '')
  if ttl ~= '' and at ~= nil and tonumber(now) - at > tonumber(ttl) then return 0, false, true end
  return revision, false, false
end
`;

/**
 * Saves a knowledge state atomically. KEYS: the record's hash, the key to move a damaged record
 * to. ARGV: the damaged version's revision and `updated_at` as the client read them (`''` when it
 * found none), the expected revision (`''`: unconditional), the state's JSON, the time (the
 * store's clock), the TTL (`''`: none), the Redis expiry in seconds (`''`: none).
 * Returns `{'conflict', actual}` and writes nothing, or `{'ok', revision}`: the hash is written
 * afresh (an expired record's fields and expiry go with it), with the expiry when one is given.
 *
 * @example
 * ```ts
 * await runScript(connection, KNOWLEDGE_SAVE_SCRIPT, [hash, aside], ['', '', '0', json, now, '', ''], api);
 * ```
 */
export const KNOWLEDGE_SAVE_SCRIPT = redisScript(
  `${SEEN}
local actual, damaged = seen(KEYS[1], ARGV[5], ARGV[6])
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= actual then return {'conflict', actual} end
if damaged then redis.call('RENAME', KEYS[1], KEYS[2]) else redis.call('DEL', KEYS[1]) end
local revision = actual + 1
redis.call('HSET', KEYS[1], 'state', ARGV[4], 'revision', tostring(revision), 'updated_at', ARGV[5])
if ARGV[7] ~= '' then redis.call('EXPIRE', KEYS[1], ARGV[7]) end
return {'ok', revision}
`,
  { writes: true },
);

/**
 * Deletes a knowledge record; a damaged one is moved aside instead. KEYS and the first two ARGV
 * as {@link KNOWLEDGE_SAVE_SCRIPT}, then the time and the TTL. Returns 1 when there was a live
 * (or damaged) record, else 0 (an expired one is removed too).
 *
 * @example
 * ```ts
 * await runScript(connection, KNOWLEDGE_DELETE_SCRIPT, [hash, aside], ['', '', now, ''], api); // 1
 * ```
 */
export const KNOWLEDGE_DELETE_SCRIPT = redisScript(
  `${SEEN}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local actual, damaged, expired = seen(KEYS[1], ARGV[3], ARGV[4])
if damaged then redis.call('RENAME', KEYS[1], KEYS[2]) else redis.call('DEL', KEYS[1]) end
if expired then return 0 end
return 1
`,
  { writes: true },
);

/**
 * Removes a knowledge record that has expired by the store's clock (`sweep`). KEYS: the hash.
 * ARGV: `''`, `''`, the time, the TTL. Returns 1 when it removed the record, else 0 (a record
 * saved again since the sweep found it is live, and stays).
 *
 * @example
 * ```ts
 * await runScript(connection, KNOWLEDGE_SWEEP_SCRIPT, [hash], ['', '', now, '3600'], api); // 1
 * ```
 */
export const KNOWLEDGE_SWEEP_SCRIPT = redisScript(
  `${SEEN}
local actual, damaged, expired = seen(KEYS[1], ARGV[3], ARGV[4])
if not expired then return 0 end
redis.call('DEL', KEYS[1])
return 1
`,
  { writes: true },
);

/**
 * Reads a knowledge record: `{type}` when it is not a hash (`'none'` when absent), else
 * `{'hash', state, revision, updated_at}` (a missing field as nil).
 *
 * @example
 * ```ts
 * await runScript(connection, KNOWLEDGE_READ_SCRIPT, [hash], [], api); // ['hash', '{…}', '3', '1764500000.5']
 * ```
 */
export const KNOWLEDGE_READ_SCRIPT = redisScript(
  `
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'hash' then return {kind} end
local f = redis.call('HMGET', KEYS[1], 'state', 'revision', 'updated_at')
return {kind, f[1], f[2], f[3]}
`,
  { writes: false },
);

/**
 * Reads a knowledge record's revision and `updated_at`, not its state: `{type}` when the key is
 * not a hash, else `{'hash', revision, updated_at}`.
 *
 * @example
 * ```ts
 * await runScript(connection, KNOWLEDGE_STAMP_SCRIPT, [hash], [], api); // ['hash', '3', '1764500000.5']
 * ```
 */
export const KNOWLEDGE_STAMP_SCRIPT = redisScript(
  `
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'hash' then return {kind} end
local f = redis.call('HMGET', KEYS[1], 'revision', 'updated_at')
return {kind, f[1], f[2]}
`,
  { writes: false },
);
