import { EVENT_LUA_COMMON } from './eventScripts';
import { redisScript } from './scripts';

/**
 * Deletes a stream's three keys at once. KEYS: stream, meta, snapshots. ARGV: the time, the TTL
 * (`''`: none, so that an expired stream counts as there, as `deleteNamespace` counts it).
 * Replies 1 when there was a stream (or a part of one) that had not expired, else 0.
 *
 * @example
 * ```ts
 * await runScript(connection, DELETE_EVENTS_SCRIPT, [stream, meta, snaps], [now, ''], api); // 1
 * ```
 */
export const DELETE_EVENTS_SCRIPT = redisScript(
  `${EVENT_LUA_COMMON}
local found = redis.call('EXISTS', KEYS[1], KEYS[2])
if found > 0 and redis.call('TYPE', KEYS[2]).ok == 'hash' and expired(KEYS[2], ARGV[1], ARGV[2]) then
  found = 0
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if found > 0 then return 1 end
return 0
`,
  { writes: true },
);

/**
 * Removes a stream that has expired by the store's clock (`sweep`), its three keys at once.
 * KEYS: stream, meta, snapshots. ARGV: the time, the TTL. Replies 1 when it removed the stream,
 * else 0 (a stream appended to since the sweep found it is live, and stays).
 *
 * @example
 * ```ts
 * await runScript(connection, SWEEP_EVENTS_SCRIPT, [stream, meta, snaps], [now, '3600'], api); // 1
 * ```
 */
export const SWEEP_EVENTS_SCRIPT = redisScript(
  `${EVENT_LUA_COMMON}
if redis.call('TYPE', KEYS[2]).ok ~= 'hash' or not expired(KEYS[2], ARGV[1], ARGV[2]) then
  return 0
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
`,
  { writes: true },
);

/**
 * Prunes a stream, in one atomic step. KEYS: stream, meta, snapshots. ARGV: the incarnation the
 * snapshot was computed on, `before`, the snapshot's JSON (the state at `before`), the time, the
 * TTL.
 *
 * Replies `{'gone'}` when the stream is not that incarnation any more (deleted and created again,
 * or expired: the snapshot is of another stream, and nothing is written), `{'corrupt', why}` (a
 * damaged stream, or a snapshots key that is not a hash: nothing is written), `{'ok', '0'}` when
 * the stream already starts at or after `before`, else `{'ok', removed}` after, in this order:
 * the snapshot at `before` is written; the entries below `before-0` are trimmed (`XTRIM MINID`,
 * Redis 6.2 or later) and the snapshots below `before` deleted; the meta field `first` is set to
 * `before`. Every check comes before the first write, and no write can fail after it, so the
 * stream is whole or pruned, never cut without its snapshot. `updated_at` is left as it was (a
 * prune does not make a stream live longer); the snapshots key gets the stream's Redis expiry.
 *
 * @example
 * ```ts
 * await runScript(connection, PRUNE_SCRIPT, [stream, meta, snaps], [incarnation, '100', json, now, ''], api); // ['ok', '99']
 * ```
 */
export const PRUNE_SCRIPT = redisScript(
  `${EVENT_LUA_COMMON}
local stream, meta, snaps = KEYS[1], KEYS[2], KEYS[3]
local state, version, first = head(stream, meta, ARGV[4], ARGV[5])
if state == 'corrupt' then return {'corrupt', version} end
if state ~= 'ok' or incarnation(meta) ~= ARGV[1] then return {'gone'} end
local before = tonumber(ARGV[2])
if before > version then return {'gone'} end
if before <= first then return {'ok', '0'} end
local st = redis.call('TYPE', snaps).ok
if st ~= 'none' and st ~= 'hash' then return {'corrupt', 'the snapshots key is a ' .. st} end
redis.call('HSET', snaps, ARGV[2], ARGV[3])
redis.call('XTRIM', stream, 'MINID', ARGV[2] .. '-0')
for _, field in ipairs(redis.call('HKEYS', snaps)) do
  local v = tonumber(field)
  if v ~= nil and v < before then redis.call('HDEL', snaps, field) end
end
redis.call('HSET', meta, 'first', ARGV[2])
local ms = redis.call('PTTL', meta)
if ms > 0 then
  local at = deadline(ms)
  for _, key in ipairs(KEYS) do redis.call('PEXPIREAT', key, at) end
end
return {'ok', string.format('%d', before - first)}
`,
  { writes: true },
);
