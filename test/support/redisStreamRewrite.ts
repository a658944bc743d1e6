/**
 * A Lua script that damages a Redis stream by hand: it rewrites the stream (KEYS[1]) with the
 * entry whose id is ARGV[1] holding ARGV[2] as its action (stream entries are immutable, so the
 * stream is read, deleted and written again, every id kept). Returns the number of entries.
 *
 * @example
 * ```ts
 * await admin.eval(REWRITE_STREAM_ENTRY, { keys: [streamKey], arguments: ['2-0', 'garbage'] });
 * ```
 */
export const REWRITE_STREAM_ENTRY = `
local entries = redis.call('XRANGE', KEYS[1], '-', '+')
redis.call('DEL', KEYS[1])
for _, e in ipairs(entries) do
  local json = e[2][2]
  if e[1] == ARGV[1] then json = ARGV[2] end
  redis.call('XADD', KEYS[1], e[1], 'a', json)
end
return #entries
`;
