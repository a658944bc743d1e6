import { redisScript } from './scripts';

/**
 * Lua shared by the event scripts. `head(stream, meta)` returns `'none', 0` (no stream),
 * `'ok', version` or `'corrupt', why`: the stream exists exactly when its meta hash does; its
 * version is the number of entries, and the last entry's id must be `version-0` (so entry `v-0`
 * holds version `v`, and the stream's last generated id is `version-0`: a stream trimmed or edited
 * by hand, even of its last entries, is reported, never appended to).
 * `snapshot(snaps, below, guess)` returns the field and value of the snapshot at the highest
 * version ≤ `below` (trying the field `guess` first: with this store's `snapshotEvery`, the
 * latest one usually is there), or `false, false`.
 * `incarnation(meta)` returns the stream's incarnation, or `false` when it has none.
 */
const COMMON = `
local function head(stream, meta)
  local mt = redis.call('TYPE', meta).ok
  local st = redis.call('TYPE', stream).ok
  if mt ~= 'none' and mt ~= 'hash' then return 'corrupt', 'the config key is a ' .. mt end
  if st ~= 'none' and st ~= 'stream' then return 'corrupt', 'the stream key is a ' .. st end
  if mt == 'none' then
    if st == 'none' then return 'none', 0 end
    return 'corrupt', 'the stream has no config key'
  end
  if st == 'none' then return 'ok', 0 end
  local len = redis.call('XLEN', stream)
  local want = string.format('%d-0', len)
  local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)[1]
  local info = redis.call('XINFO', 'STREAM', stream)
  local generated = 'none'
  for i = 1, #info - 1, 2 do
    if info[i] == 'last-generated-id' then generated = info[i + 1] end
  end
  if last == nil or last[1] ~= want or generated ~= want then
    local got = 'none'
    if last ~= nil then got = last[1] end
    return 'corrupt', 'the stream holds ' .. len .. ' entries but its last entry id is ' .. got ..
      ' and its last generated id ' .. generated .. ', not ' .. want
  end
  return 'ok', len
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
`;

/**
 * The append, in one atomic step. KEYS: stream, meta, snapshots. ARGV: expected version, the
 * config the stored one must equal (`''`: no check), the config to create the stream with, its
 * creation time, its new incarnation, the incarnation the snapshots were computed on, n, the n
 * action JSONs, then pairs (version, snapshot JSON).
 *
 * Replies `{'conflict', version}` when the stream does not hold exactly `expected` actions,
 * `{'config', stored}` when the stored config is not the one given, `{'corrupt', why}`, else
 * writes the meta hash (when the stream is new), XADDs the actions with ids `v-0`, writes the
 * snapshots (only when the stream is still the incarnation they were computed on) and replies
 * `{'ok', version}`. A script runs alone on the server: no other command sees a part of it.
 *
 * @example
 * ```ts
 * await runScript(connection, APPEND_SCRIPT, [stream, meta, snaps], ['0', '', config, now, id, id, '1', json], api);
 * ```
 */
export const APPEND_SCRIPT = redisScript(
  `${COMMON}
local stream, meta, snaps = KEYS[1], KEYS[2], KEYS[3]
local state, version = head(stream, meta)
if state == 'corrupt' then return {'corrupt', version} end
if version ~= tonumber(ARGV[1]) then return {'conflict', string.format('%d', version)} end
if state == 'ok' and ARGV[2] ~= '' then
  local stored = redis.call('HGET', meta, 'config')
  if stored ~= ARGV[2] then return {'config', stored} end
end
if state == 'none' then
  redis.call('DEL', snaps)
  redis.call('HSET', meta, 'config', ARGV[3], 'created_at', ARGV[4], 'incarnation', ARGV[5])
end
local n = tonumber(ARGV[7])
for i = 1, n do
  redis.call('XADD', stream, string.format('%d-0', version + i), 'a', ARGV[7 + i])
end
local st = redis.call('TYPE', snaps).ok
if #ARGV > 7 + n and (st == 'none' or st == 'hash') and incarnation(meta) == ARGV[6] then
  for j = 8 + n, #ARGV - 1, 2 do redis.call('HSET', snaps, ARGV[j], ARGV[j + 1]) end
end
return {'ok', string.format('%d', version + n)}
`,
  { writes: true },
);

/**
 * A consistent view of a stream's head. KEYS: stream, meta, snapshots. ARGV: the version wanted
 * (`''`: the latest), the store's `snapshotEvery` (where the latest snapshot usually is). Replies `{'none'}`, `{'corrupt', why}` or
 * `{'ok', version, config, created_at, incarnation, snapshot version, snapshot}` (missing ones
 * nil), the snapshot at or below the wanted version (or the stream's, if lower).
 *
 * @example
 * ```ts
 * await runScript(connection, HEAD_SCRIPT, [stream, meta, snaps], ['', '256'], api);
 * ```
 */
export const HEAD_SCRIPT = redisScript(
  `${COMMON}
local state, version = head(KEYS[1], KEYS[2])
if state ~= 'ok' then return {state, version} end
local f = redis.call('HMGET', KEYS[2], 'config', 'created_at', 'incarnation')
local below = version
if ARGV[1] ~= '' and tonumber(ARGV[1]) < below then below = tonumber(ARGV[1]) end
local every = tonumber(ARGV[2])
local sv, sj = snapshot(KEYS[3], below, below - (below % every))
return {'ok', string.format('%d', version), f[1] or false, f[2] or false, f[3] or false, sv, sj}
`,
  { writes: false },
);

/**
 * The next snapshot down, after one that did not decode. KEYS: meta, snapshots. ARGV: the
 * incarnation, the highest version wanted. Replies `{'gone'}` (the stream was deleted or
 * re-created) or `{'ok', version, snapshot}` (nil, nil: none).
 *
 * @example
 * ```ts
 * await runScript(connection, SNAPSHOT_SCRIPT, [meta, snaps], [incarnation, '255'], api);
 * ```
 */
export const SNAPSHOT_SCRIPT = redisScript(
  `${COMMON}
if incarnation(KEYS[1]) ~= ARGV[1] then return {'gone'} end
local sv, sj = snapshot(KEYS[2], tonumber(ARGV[2]), 0)
return {'ok', sv, sj}
`,
  { writes: false },
);

/**
 * One page of a stream's actions. KEYS: stream, meta. ARGV: the incarnation, from, to, count.
 * Replies `{'gone'}` (deleted or re-created since the read began), or `{'ok', id, json, id,
 * json, …}` from `XRANGE stream from-0 to-0 COUNT count` (an entry without the field `a`: nil).
 *
 * @example
 * ```ts
 * await runScript(connection, PAGE_SCRIPT, [stream, meta], [incarnation, '1', '512', '512'], api);
 * ```
 */
export const PAGE_SCRIPT = redisScript(
  `${COMMON}
if incarnation(KEYS[2]) ~= ARGV[1] then return {'gone'} end
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
 * A stream's entry for `streams()`. KEYS: stream, meta. Replies `{'none'}`, `{'corrupt', why}`
 * or `{'ok', version, created_at}`.
 *
 * @example
 * ```ts
 * await runScript(connection, INFO_SCRIPT, [stream, meta], [], api);
 * ```
 */
export const INFO_SCRIPT = redisScript(
  `${COMMON}
local state, version = head(KEYS[1], KEYS[2])
if state ~= 'ok' then return {state, version} end
return {'ok', string.format('%d', version), redis.call('HGET', KEYS[2], 'created_at') or false}
`,
  { writes: false },
);

/**
 * Deletes a stream's three keys at once. KEYS: stream, meta, snapshots. Replies 1 when there was
 * a stream (or a part of one), else 0.
 *
 * @example
 * ```ts
 * await runScript(connection, DELETE_EVENTS_SCRIPT, [stream, meta, snaps], [], api); // 1
 * ```
 */
export const DELETE_EVENTS_SCRIPT = redisScript(
  `
local found = redis.call('EXISTS', KEYS[1], KEYS[2])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if found > 0 then return 1 end
return 0
`,
  { writes: true },
);
