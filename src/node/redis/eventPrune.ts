import { EventConflictError, type RemovedCount } from 'conversation-memory';
import {
  checkPruneBefore,
  encodeSnapshotJson,
  readConfigJson,
} from 'conversation-memory/store-kit';
import type { RedisConnection } from './connection';
import { PRUNE_SCRIPT } from './eventRetentionScripts';
import type { RedisEventStreams } from './eventStreams';
import { redisStatusReply, redisText } from './reply';
import { runScript } from './scripts';

/** Rounds of a prune whose stream is deleted and created again (or pruned) under it. */
const PRUNE_ROUNDS = 3;

/**
 * Prunes the stream `key` before version `before` (see `EventStore.prune`): reads its head,
 * refuses an absent or expired stream and a `before` past its version (`checkPruneBefore`,
 * nothing changed), computes the state at `before` as `load({ atVersion: before })` does, then
 * runs `PRUNE_SCRIPT`, which writes that state as the snapshot at `before` and removes the
 * actions and snapshots below it in one atomic step, only if the stream is still the incarnation
 * the state was computed on. A stream deleted and created again meanwhile is read again (at most
 * three rounds). Resolves to the number of actions removed (`0` when the stream already starts at
 * or after `before`).
 *
 * @throws MemoryArgumentError (absent stream, `before` past the version); EventCorruptError (a
 *   damaged stream, or one whose actions up to `before` do not replay); EventConflictError (the
 *   stream was deleted and created again during every round)
 * @example
 * ```ts
 * await pruneStream(streams, connection, 'RedisEventStore.prune', 'u1:s1', 1_000); // { removed: 999 }
 * ```
 */
export const pruneStream = async (
  streams: RedisEventStreams,
  connection: RedisConnection,
  api: string,
  key: string,
  before: number,
): Promise<RemovedCount> => {
  for (let round = 0; round < PRUNE_ROUNDS; round++) {
    const head = await streams.head(api, key, before);
    checkPruneBefore(key, before, head?.version ?? 0, api);
    if (head === null) break; // checkPruneBefore refused it
    if (before <= head.first) return Object.freeze({ removed: 0 });
    const config = readConfigJson(head.config, streams.at(api, key, 0));
    const state = await streams.replay(api, key, head, config, before);
    if (state === null) continue; // gone meanwhile: read it again
    const json = encodeSnapshotJson(state, { stream: key, version: before, config });
    const reply = await runScript(
      connection,
      PRUNE_SCRIPT,
      streams.keys(key),
      [head.incarnation, String(before), json, ...streams.expiryArgs()],
      api,
    );
    const { status, rest } = redisStatusReply(reply, api);
    if (status === 'corrupt') throw streams.corrupt(api, key, rest[0]);
    if (status === 'ok') {
      const removed = Number(redisText(rest[0]));
      if (removed > 0) await connection.confirmWrite(streams.keys(key)[0], api);
      return Object.freeze({ removed });
    }
  }
  throw new EventConflictError(
    api,
    key,
    0,
    0,
    `it was deleted and created again during each of ${PRUNE_ROUNDS} attempts to prune it (nothing was pruned; prune it again)`,
  );
};
