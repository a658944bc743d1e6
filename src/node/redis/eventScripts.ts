import { redisScript } from './scripts';

/**
 * Lua shared by the event scripts (exported for the retention scripts, `eventRetentionScripts.ts`).
 *
 * `expired(meta, now, ttl)`: whether the stream of the meta hash `meta` has expired, more than
 * `ttl` seconds (`''`: no TTL) after its last append (`updated_at`, by the store's clock `now`);
 * a stream without `updated_at` (written before streams expired) never does.
 *
 * `head(stream, meta, now, ttl)` returns `'none', 0, 1` (no stream), `'expired', 0, 1`,
 * `'ok', version, first` or `'corrupt', why`: the stream exists exactly when its meta hash does;
 * `first` is its first version (the meta field `first`, 1 when absent: `prune` raises it), and
 * the entries are versions `first` to `version`: their number is `version - first + 1`, the last
 * entry's id must be `version-0` and so must the last generated one (so entry `v-0` holds version
 * `v`: a stream trimmed or edited by hand, even of its last entries, is reported, never appended
 * to), and a pruned stream's first entry must be `first-0`.
 *
 * `snapshot(snaps, below, guess)` returns the field and value of the snapshot at the highest
 * version ≤ `below` (trying the field `guess` first: with this store's `snapshotEvery`, the
 * latest one usually is there), or `false, false`.
 * `incarnation(meta)` returns the stream's incarnation, or `false` when it has none.
 * `live(meta, incarnation, now, ttl)`: whether the stream is still that incarnation, unexpired.
 * `deadline(ms)`: the server's time `ms` milliseconds from now, for `PEXPIREAT`: one deadline for
 * every key of a stream, so that Redis (which judges a script's keys at the script's start time)
 * never lets a script see some of them expired and not the others.
 */
export const EVENT_LUA_COMMON = `
local function expired(meta, now, ttl)
  if ttl == '' then return false end
  local at = tonumber(redis.call('HGET', meta, 'updated_at') or '')
  return at ~= nil and tonumber(now) - at > tonumber(ttl)
end
local function head(stream, meta, now, ttl)
  local mt = redis.call('TYPE', meta).ok
  local st = redis.call('TYPE', stream).ok
  if mt ~= 'none' and mt ~= 'hash' then return 'corrupt', 'the config key is a ' .. mt end
  if st ~= 'none' and st ~= 'stream' then return 'corrupt', 'the stream key is a ' .. st end
  if mt == 'none' then
    if st == 'none' then return 'none', 0, 1 end
    return 'corrupt', 'the stream has no config key'
  end
  if expired(meta, now, ttl) then return 'expired', 0, 1 end
  local firstText = redis.call('HGET', meta, 'first') or '1'
  local first = tonumber(firstText)
  if not string.match(firstText, '^[1-9]%d*$') or first == nil or first > 2^53 then
    return 'corrupt', 'its first version ' .. firstText .. ' is not a version'
  end
  if st == 'none' then
    if first == 1 then return 'ok', 0, 1 end
    return 'corrupt', 'it was pruned before version ' .. firstText .. ' but holds no entries'
  end
  local len = redis.call('XLEN', stream)
  local version = first - 1 + len
  local want = string.format('%d-0', version)
  local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)[1]
  local info = redis.call('XINFO', 'STREAM', stream)
  local generated = 'none'
  for i = 1, #info - 1, 2 do
    if info[i] == 'last-generated-id' then generated = info[i + 1] end
  end
  if last == nil or last[1] ~= want or generated ~= want then
    local got = 'none'
    if last ~= nil then got = last[1] end
    return 'corrupt', 'the stream holds ' .. len .. ' entries from version ' .. firstText ..
      ' but its last entry id is ' .. got .. ' and its last generated id ' .. generated ..
      ', not ' .. want
  end
  if first > 1 then
    local lowest = redis.call('XRANGE', stream, '-', '+', 'COUNT', 1)[1]
    if lowest[1] ~= firstText .. '-0' then
      return 'corrupt', 'it was pruned before version ' .. firstText ..
        ' but its first entry id is ' .. lowest[1]
    end
  end
  return 'ok', version, first
end
local function snapshot(snaps, below, guess)
  if redis.call('TYPE', snaps).ok ~= 'hash' or below < 1 then return false, false end
  if guess >= 1 and guess <= below then
    local field = string.format('%d', guess)
    local value = redis.call('HGET', snaps, field)
    if value then return field, value end
  end
  local best = nil
  for _, field in ipairs(redis.call('HKEYS', snaps)) do
    local v = tonumber(field)
    if v and v >= 1 and v <= below and (best == nil or v > tonumber(best)) then best = field end
  end
  if best == nil then return false, false end
  return best, redis.call('HGET', snaps, best)
end
local function incarnation(meta)
  if redis.call('TYPE', meta).ok ~= 'hash' then return false end
  return redis.call('HGET', meta, 'incarnation') or false
end
local function live(meta, id, now, ttl)
  return incarnation(meta) == id and not expired(meta, now, ttl)
end
local function deadline(ms)
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + ms
end
`;
const COMMON = EVENT_LUA_COMMON;

/**
 * The append, in one atomic step. KEYS: stream, meta, snapshots. ARGV: expected version, the
 * config the stored one must equal (`''`: no check), the config to create the stream with, the
 * time (the store's clock: the creation time of a new stream, and `updated_at`), its new
 * incarnation, the incarnation the snapshots were computed on, the TTL (`''`: none), the Redis
 * expiry in seconds (`''`: none), n, the n action JSONs, then pairs (version, snapshot JSON).
 *
 * Replies `{'conflict', version}` when the stream does not hold exactly `expected` actions (an
 * expired stream holds none), `{'config', stored}` when the stored config is not the one given,
 * `{'corrupt', why}`, else: a new stream (or one that has expired, whose keys go first: the new
 * one has nothing of it) gets its meta hash; `updated_at` is set; the actions are XADDed with ids
 * `v-0`; the snapshots are written (only when the stream is still the incarnation they were
 * computed on); every key of the stream gets the one Redis expiry (or none); `{'ok', version}`.
 * A script runs alone on the server: no other command sees a part of it.
 *
 * @example
 * ```ts
 * await runScript(connection, APPEND_SCRIPT, [stream, meta, snaps], ['0', '', config, now, id, id, '', '', '1', json], api);
 * ```
 */
export const APPEND_SCRIPT = redisScript(
  `${COMMON}
local stream, meta, snaps = KEYS[1], KEYS[2], KEYS[3]
local state, version = head(stream, meta, ARGV[4], ARGV[7])
if state == 'corrupt' then return {'corrupt', version} end
if version ~= tonumber(ARGV[1]) then return {'conflict', string.format('%d', version)} end
if state == 'ok' and ARGV[2] ~= '' then
  local stored = redis.call('HGET', meta, 'config')
  if stored ~= ARGV[2] then return {'config', stored} end
end
if state ~= 'ok' then
  redis.call('DEL', stream, meta, snaps)
  redis.call('HSET', meta, 'config', ARGV[3], 'created_at', ARGV[4], 'incarnation', ARGV[5])
end
redis.call('HSET', meta, 'updated_at', ARGV[4])
local n = tonumber(ARGV[9])
for i = 1, n do
  redis.call('XADD', stream, string.format('%d-0', version + i), 'a', ARGV[9 + i])
end
local st = redis.call('TYPE', snaps).ok
if #ARGV > 9 + n and (st == 'none' or st == 'hash') and incarnation(meta) == ARGV[6] then
  for j = 10 + n, #ARGV - 1, 2 do redis.call('HSET', snaps, ARGV[j], ARGV[j + 1]) end
end
if ARGV[8] ~= '' then
  local at = deadline(tonumber(ARGV[8]) * 1000)
  for _, key in ipairs(KEYS) do redis.call('PEXPIREAT', key, at) end
else
  for _, key in ipairs(KEYS) do redis.call('PERSIST', key) end
end
return {'ok', string.format('%d', version + n)}
`,
  { writes: true },
);

/**
 * A consistent view of a stream's head. KEYS: stream, meta, snapshots. ARGV: the version wanted
 * (`''`: the latest), the store's `snapshotEvery` (where the latest snapshot usually is), the
 * time and the TTL. Replies `{'none'}` (absent or expired), `{'corrupt', why}` or `{'ok',
 * version, config, created_at, incarnation, snapshot version, snapshot, first version}` (missing
 * ones nil), the snapshot at or below the wanted version (or the stream's, if lower).
 *
 * @example
 * ```ts
 * await runScript(connection, HEAD_SCRIPT, [stream, meta, snaps], ['', '256', now, ''], api);
 * ```
 */
export const HEAD_SCRIPT = redisScript(
  `${COMMON}
local state, version, first = head(KEYS[1], KEYS[2], ARGV[3], ARGV[4])
if state == 'expired' then return {'none'} end
if state ~= 'ok' then return {state, version} end
local f = redis.call('HMGET', KEYS[2], 'config', 'created_at', 'incarnation')
local below = version
if ARGV[1] ~= '' and tonumber(ARGV[1]) < below then below = tonumber(ARGV[1]) end
local every = tonumber(ARGV[2])
local sv, sj = snapshot(KEYS[3], below, below - (below % every))
return {'ok', string.format('%d', version), f[1] or false, f[2] or false, f[3] or false, sv, sj,
  string.format('%d', first)}
`,
  { writes: false },
);

/**
 * The next snapshot down, after one that did not decode. KEYS: meta, snapshots. ARGV: the
 * incarnation, the highest version wanted, the time, the TTL. Replies `{'gone'}` (the stream was
 * deleted, re-created or expired) or `{'ok', version, snapshot}` (nil, nil: none).
 *
 * @example
 * ```ts
 * await runScript(connection, SNAPSHOT_SCRIPT, [meta, snaps], [incarnation, '255', now, ''], api);
 * ```
 */
export const SNAPSHOT_SCRIPT = redisScript(
  `${COMMON}
if not live(KEYS[1], ARGV[1], ARGV[3], ARGV[4]) then return {'gone'} end
local sv, sj = snapshot(KEYS[2], tonumber(ARGV[2]), 0)
return {'ok', sv, sj}
`,
  { writes: false },
);

/**
 * One page of a stream's actions. KEYS: stream, meta. ARGV: the incarnation, from, to, count, the
 * time, the TTL. Replies `{'gone'}` (deleted, re-created or expired since the read began),
 * `{'pruned', first}` (pruned past `from` since then), or `{'ok', id, json, id, json, …}` from
 * `XRANGE stream from-0 to-0 COUNT count` (an entry without the field `a`: nil).
 *
 * @example
 * ```ts
 * await runScript(connection, PAGE_SCRIPT, [stream, meta], [incarnation, '1', '512', '512', now, ''], api);
 * ```
 */
export const PAGE_SCRIPT = redisScript(
  `${COMMON}
if not live(KEYS[2], ARGV[1], ARGV[5], ARGV[6]) then return {'gone'} end
local first = redis.call('HGET', KEYS[2], 'first') or '1'
if tonumber(ARGV[2]) < (tonumber(first) or 1) then return {'pruned', first} end
local out = {'ok'}
local entries = redis.call('XRANGE', KEYS[1], ARGV[2] .. '-0', ARGV[3] .. '-0', 'COUNT', ARGV[4])
for _, entry in ipairs(entries) do
  local json = false
  local fields = entry[2]
  for i = 1, #fields - 1, 2 do
    if fields[i] == 'a' then json = fields[i + 1] end
  end
  out[#out + 1] = entry[1]
  out[#out + 1] = json
end
return out
`,
  { writes: false },
);

/**
 * A stream's entry for `streams()`. KEYS: stream, meta. ARGV: the time, the TTL. Replies
 * `{'none'}` (absent or expired), `{'corrupt', why}` or `{'ok', version, created_at, first}`.
 *
 * @example
 * ```ts
 * await runScript(connection, INFO_SCRIPT, [stream, meta], [now, ''], api);
 * ```
 */
export const INFO_SCRIPT = redisScript(
  `${COMMON}
local state, version, first = head(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
if state == 'expired' then return {'none'} end
if state ~= 'ok' then return {state, version} end
return {'ok', string.format('%d', version), redis.call('HGET', KEYS[2], 'created_at') or false,
  string.format('%d', first)}
`,
  { writes: false },
);
