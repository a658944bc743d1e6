import type { StreamInfo } from 'conversation-memory';
import { compareCodePoints, namespaceKeys, sessionAddressOf } from 'conversation-memory/store-kit';
import { INFO_SCRIPT } from './eventScripts';
import type { RedisEventStoreParts } from './eventRetention';
import { redisStatusReply, redisText } from './reply';
import { scanRedisKeys } from './scan';
import { runScript } from './scripts';

/**
 * The live streams of `namespace` (`undefined`: all), sorted by `streamId`, for
 * `RedisEventStore.streams`: the meta keys are walked with SCAN on every master and each stream
 * is read with `INFO_SCRIPT` (absent, expired and damaged ones are left out: `load` reports the
 * damaged). A pruned stream has `prunedBefore`, its first version.
 *
 * @example
 * ```ts
 * await listRedisStreams(parts, 'u1', 'RedisEventStore.streams'); // [{ streamId: 't1', id: 't1', namespace: 'u1', version: 3, createdAt: … }]
 * ```
 */
export const listRedisStreams = async (
  { connection, layout, streams }: RedisEventStoreParts,
  namespace: string | undefined,
  api: string,
): Promise<readonly StreamInfo[]> => {
  const inNamespace = namespaceKeys(namespace);
  const found: StreamInfo[] = [];
  const pattern = layout.metaPattern(inNamespace.prefix);
  for await (const batch of scanRedisKeys(connection, pattern, api)) {
    const keys = batch.flatMap((name) => layout.streamKeyOf(name) ?? []);
    const replies = await Promise.all(
      keys.map((key) =>
        runScript(
          connection,
          INFO_SCRIPT,
          streams.keys(key).slice(0, 2),
          streams.expiryArgs(),
          api,
        ),
      ),
    );
    replies.forEach((reply, i) => {
      const { status, rest } = redisStatusReply(reply, api);
      const streamId = inNamespace.idOf(keys[i] as string);
      // Gone meanwhile, expired, or damaged: `load` reports the damaged.
      if (status !== 'ok' || streamId === undefined) return;
      const first = Number(redisText(rest[2]) ?? 1);
      const info = {
        streamId,
        ...sessionAddressOf(keys[i] as string),
        version: Number(redisText(rest[0])),
        createdAt: Number(redisText(rest[1]) ?? Number.NaN),
      };
      found.push(Object.freeze(first > 1 ? { ...info, prunedBefore: first } : info));
    });
  }
  return Object.freeze(found.sort((a, b) => compareCodePoints(a.streamId, b.streamId)));
};
