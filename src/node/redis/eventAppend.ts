import { randomUUID } from 'node:crypto';
import { type AppendResult, createMemory, EventConflictError } from 'conversation-memory';
import {
  type CheckedAppend,
  checkSameConfig,
  encodeActionJson,
  encodeConfigJson,
  readConfigJson,
} from 'conversation-memory/store-kit';
import type { RedisConnection } from './connection';
import { APPEND_SCRIPT } from './eventScripts';
import type { RedisEventStreams } from './eventStreams';
import { appendSnapshots } from './eventAppendSnapshots';
import { redisStatusReply, redisText } from './reply';
import type { RedisEventKeyLayout } from './schema';
import { runScript } from './scripts';
import { redisExpirySeconds } from './sessionExpiry';

/** Rounds of an append whose config check meets a config stored in another spelling. */
const CONFIG_ROUNDS = 3;

/**
 * Runs one append on the server: the append script (the version check, the config written by the
 * creating append, the actions and the snapshots it reaches, all or nothing), again with the
 * stored spelling when the stored config is the same config spelt differently; then waits for
 * the replicas asked for.
 *
 * @param streams - the store's stream reads (for the snapshots the append reaches)
 * @param connection - the store's connection
 * @param layout - the store's keys
 * @param api - the calling method, for errors
 * @param checked - the append, checked
 * @returns the stream's new version
 * @throws EventConflictError at another version; EventCorruptError for a damaged stream;
 *   MemoryArgumentError for another config
 * @example
 * ```ts
 * await appendToStream(streams, connection, layout, 'RedisEventStore.append', checkAppend(id, actions, options, api));
 * ```
 */
export const appendToStream = async (
  streams: RedisEventStreams,
  connection: RedisConnection,
  layout: RedisEventKeyLayout,
  api: string,
  checked: CheckedAppend,
): Promise<AppendResult> => {
  const { key, expectedVersion } = checked;
  const given = checked.config === undefined ? undefined : createMemory(checked.config).config;
  const incarnation = randomUUID();
  const snapshots = await appendSnapshots(streams, api, key, given, incarnation, checked);
  const encoded = checked.actions.map(encodeActionJson);
  let configCheck = given === undefined ? '' : encodeConfigJson(given);
  for (let round = 0; round < CONFIG_ROUNDS; round++) {
    const [now, ttl] = streams.expiryArgs();
    const reply = await runScript(
      connection,
      APPEND_SCRIPT,
      streams.keys(key),
      [
        String(expectedVersion),
        configCheck,
        encodeConfigJson(given ?? createMemory().config),
        now,
        incarnation,
        snapshots.incarnation,
        ttl,
        String(redisExpirySeconds(streams.ttl) ?? ''),
        String(encoded.length),
        ...encoded,
        ...snapshots.pairs,
      ],
      api,
    );
    const { status, rest } = redisStatusReply(reply, api);
    if (status === 'ok') {
      await connection.confirmWrite(layout.stream(key), api);
      return Object.freeze({ version: Number(redisText(rest[0])) });
    }
    if (status === 'conflict') {
      throw new EventConflictError(api, key, expectedVersion, Number(redisText(rest[0])));
    }
    if (status === 'corrupt') throw streams.corrupt(api, key, rest[0]);
    if (status !== 'config' || given === undefined) break;
    // The stored config is spelt differently: compare the decoded ones, then require that text.
    const stored = redisText(rest[0]);
    checkSameConfig(key, readConfigJson(stored, streams.at(api, key, 0)), given, api);
    configCheck = stored ?? '';
  }
  throw new Error(`[conversation-memory] ${api}: unexpected reply from Redis`);
};
