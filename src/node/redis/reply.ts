import { Buffer } from 'node:buffer';

/**
 * A bulk-string reply as text (a client that maps replies to Buffers gives Buffers), else
 * `undefined` (nil, an integer, an array).
 *
 * @example
 * ```ts
 * redisText(Buffer.from('ok')); // 'ok'
 * redisText(null); // undefined
 * ```
 */
export const redisText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : undefined;

/**
 * A reply that must be an array whose first element is a status word (`'ok'`, `'conflict'`, …),
 * as the store's scripts return them.
 *
 * @throws Error (`unexpected reply from Redis`) for anything else
 * @example
 * ```ts
 * redisStatusReply(['ok', '3'], 'RedisEventStore.append'); // { status: 'ok', rest: ['3'] }
 * ```
 */
export const redisStatusReply = (
  reply: unknown,
  api: string,
): { status: string; rest: readonly unknown[] } => {
  const status = Array.isArray(reply) ? redisText(reply[0]) : undefined;
  if (status === undefined) {
    throw new Error(`[conversation-memory] ${api}: unexpected reply from Redis`);
  }
  return { status, rest: (reply as unknown[]).slice(1) };
};
