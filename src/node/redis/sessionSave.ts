import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { SessionConflictError } from 'conversation-memory';
import { checkExpectedRevision, type SessionKey } from 'conversation-memory/store-kit';
import type { RedisConnection } from './connection';
import { redisExpirySeconds } from './sessionExpiry';
import type { RedisKeyLayout } from './schema';
import { readRedisMemory, readRedisRecord, recordToken } from './sessionRecord';
import { READ_SCRIPT, runScript, SAVE_SCRIPT } from './scripts';
import type { VerifiedTokens } from './sessionVerifiedTokens';

/**
 * What one save needs from its store.
 *
 * @example
 * ```ts
 * const context: RedisSaveContext = { connection, layout, ttl: 3600, now: () => Date.now() / 1000, verified };
 * ```
 */
export interface RedisSaveContext {
  readonly connection: RedisConnection;
  readonly layout: RedisKeyLayout;
  readonly ttl: number | undefined;
  readonly now: () => number;
  readonly verified: VerifiedTokens;
}

/** Rounds of check-and-retry before a save that keeps being overtaken gives up. */
const MAX_ROUNDS = 10;

const replyText = (reply: unknown, index: number): string => {
  const value: unknown = Array.isArray(reply) ? reply[index] : undefined;
  return typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString() : '';
};

/**
 * Saves a memory JSON under `where`, atomically on the server (`SAVE_SCRIPT`): the revision check
 * and the write are one step, so of concurrent savers with the same expected revision exactly one
 * wins, on any number of connections and processes. Before the script acts on a live record, this
 * store must have decoded that very version (a load or save by this store usually has; otherwise
 * the script asks, and the record is read and decoded here): a record that does not decode is
 * moved aside by the same script that writes, never overwritten. With `minReplicas`, the save
 * resolves only once that many replicas hold the write.
 *
 * @returns the new revision
 * @throws SessionConflictError when `expected` is stale (nothing is written)
 * @example
 * ```ts
 * await saveRedisRecord(context, sessionKeyOf('s1'), memoryJson, 0, 'RedisSessionStore.save'); // 1
 * ```
 */
export const saveRedisRecord = async (
  context: RedisSaveContext,
  where: SessionKey,
  memory: string,
  expected: number | undefined,
  api: string,
): Promise<number> => {
  const { connection, layout, ttl, verified } = context;
  const hash = layout.session(where.key);
  const expiry = redisExpirySeconds(ttl);
  const memoryBytes = Buffer.byteLength(memory, 'utf8');
  let trusted = verified.get(hash) ?? '';
  let damaged = '';
  let seen = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = context.now();
    const reply = await runScript(
      connection,
      SAVE_SCRIPT,
      [hash, layout.aside(where.key, now, randomUUID().slice(0, 8))],
      [
        expected === undefined ? '' : String(expected),
        String(now),
        ttl === undefined ? '' : String(ttl),
        trusted,
        damaged,
        memory,
        where.id,
        where.namespace ?? '',
        expiry === undefined ? '' : String(expiry),
      ],
      api,
    );
    const status = replyText(reply, 0);
    if (status === 'ok') {
      const revision = replyText(reply, 1);
      const created = replyText(reply, 2);
      const token = recordToken(
        revision,
        created,
        String(now),
        memoryBytes,
        where.id,
        where.namespace,
      );
      verified.set(hash, token);
      await connection.confirmWrite(hash, api);
      return Number(revision);
    }
    // The script replies `conflict` only to a conditional save whose revision is stale.
    if (status === 'conflict') {
      checkExpectedRevision(where.key, expected, Number(replyText(reply, 1)), api);
    }
    if (status !== 'check')
      throw new Error(`[conversation-memory] ${api}: unexpected reply from Redis`);
    const record = readRedisRecord(
      await runScript(connection, READ_SCRIPT, [hash], ['1'], api),
      where.key,
      ttl,
      context.now(),
    );
    if (record.kind === 'live') {
      seen = record.revision;
      if (readRedisMemory(record.memory).ok) {
        // A conditional save that is already stale need not ask the script again.
        checkExpectedRevision(where.key, expected, record.revision, api);
        trusted = record.token;
        verified.set(hash, record.token);
      } else {
        damaged = record.token;
      }
    } else if (record.kind === 'corrupt' && record.token !== undefined) {
      damaged = record.token;
    }
    // Absent or expired now: the record changed since the script looked; try again.
  }
  // Overtaken again and again by other writers (only an unconditional save can get here).
  throw new SessionConflictError(api, where.key, expected ?? seen, seen + 1);
};
