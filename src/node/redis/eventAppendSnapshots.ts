import {
  createMemory,
  type MemoryAction,
  type MemoryConfig,
  type MemoryState,
  memoryReducer,
} from 'conversation-memory';
import { encodeSnapshotJson, readConfigJson } from 'conversation-memory/store-kit';
import type { RedisEventStreams } from './eventStreams';

/**
 * The snapshots an append reaches (versions and envelopes, as script arguments) and the
 * incarnation they were computed on. Only an optimisation: when the state before the batch
 * cannot be rebuilt (a stale version, a corrupt record) or an action cannot be applied, none.
 *
 * @param streams - the store's stream reads
 * @param api - the calling method, for errors
 * @param key - the stream's storage key
 * @param given - the config of the append, if any
 * @param incarnation - the incarnation of the stream the append would create
 * @param append - the expected version and the actions
 * @example
 * ```ts
 * const { incarnation, pairs } = await appendSnapshots(streams, api, 's1', undefined, randomUUID(), checked);
 * ```
 */
export const appendSnapshots = async (
  streams: RedisEventStreams,
  api: string,
  key: string,
  given: MemoryConfig | undefined,
  incarnation: string,
  {
    expectedVersion: before,
    actions,
  }: { readonly expectedVersion: number; readonly actions: readonly MemoryAction[] },
): Promise<{ incarnation: string; pairs: string[] }> => {
  const every = streams.snapshotEvery;
  const none = { incarnation: '', pairs: [] };
  if (Math.floor((before + actions.length) / every) === Math.floor(before / every)) return none;
  try {
    let start: { state: MemoryState; incarnation: string; config: MemoryConfig };
    const head = await streams.head(api, key, before);
    if (head === null) {
      if (before !== 0) return none;
      const config = given ?? createMemory().config;
      start = { state: createMemory(config), incarnation, config };
    } else {
      if (head.version !== before) return none;
      const config = readConfigJson(head.config, streams.at(api, key, 0));
      const loaded = await streams.replay(api, key, head, config, before);
      if (loaded === null) return none;
      start = { state: loaded, incarnation: head.incarnation, config };
    }
    let { state } = start;
    const pairs: string[] = [];
    actions.forEach((action, i) => {
      state = memoryReducer(state, action);
      const version = before + i + 1;
      if (version % every === 0) {
        const at = { stream: key, version, config: start.config };
        pairs.push(String(version), encodeSnapshotJson(state, at));
      }
    });
    return { incarnation: start.incarnation, pairs };
  } catch {
    return none;
  }
};
