import { redisScript } from './scripts';

/**
 * The check both write scripts share: `seen(key)` returns the stored revision (`0` when there
 * is no record) and whether the record is damaged (`true`: not a hash, a revision that is not an
 * integer ≥ 1, or the very version the client read and found not to decode: its revision and
 * `updated_at` are `ARGV[1]` and `ARGV[2]`, `'-'` for a missing `updated_at`). A damaged record counts as revision 0.
 */
const SEEN = `
local function seen(key)
  local kind = redis.call('TYPE', key)['ok']
  if kind == 'none' then return 0, false end
  if kind ~= 'hash' then return 0, true end
  local f = redis.call('HMGET', key, 'revision', 'updated_at')
  local revision = tonumber(f[1])
  if revision == nil or revision < 1 or revision ~= math.floor(revision) then return 0, true end
  if ARGV[1] ~= '' and f[1] == ARGV[1] and (f[2] or '-') == ARGV[2] then return 0, true end
  return revision, false
end
`;

/**
 * Saves a knowledge state atomically. KEYS: the record's hash, the key to move a damaged record
 * to. ARGV: the damaged version's revision and `updated_at` as the client read them (`''` when it
 * found none), the expected revision (`''`: unconditional), the state's JSON, the time.
 * Returns `{'conflict', actual}` and writes nothing, or `{'ok', revision}`.
 *
 * @example
 * ```ts
 * await runScript(connection, KNOWLEDGE_SAVE_SCRIPT, [hash, aside], ['', '', '0', json, now], api);
 * ```
 */
export const KNOWLEDGE_SAVE_SCRIPT = redisScript(
  `${SEEN}
local actual, damaged = seen(KEYS[1])
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= actual then return {'conflict', actual} end
if damaged then redis.call('RENAME', KEYS[1], KEYS[2]) end
local revision = actual + 1
redis.call('HSET', KEYS[1], 'state', ARGV[4], 'revision', tostring(revision), 'updated_at', ARGV[5])
return {'ok', revision}
`,
  { writes: true },
);

/**
 * Deletes a knowledge record; a damaged one is moved aside instead. KEYS and the first two ARGV
 * as {@link KNOWLEDGE_SAVE_SCRIPT}. Returns 1 when there was a record, else 0.
 *
 * @example
 * ```ts
 * await runScript(connection, KNOWLEDGE_DELETE_SCRIPT, [hash, aside], ['', ''], api); // 1
 * ```
 */
export const KNOWLEDGE_DELETE_SCRIPT = redisScript(
  `${SEEN}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local actual, damaged = seen(KEYS[1])
if damaged then redis.call('RENAME', KEYS[1], KEYS[2]) else redis.call('DEL', KEYS[1]) end
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
