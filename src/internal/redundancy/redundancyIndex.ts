import type { MemoryConfig } from '../../model/config';
import type { Message } from '../../model/message';
import { canonicalJson } from '../../similarity/embeddingText';
import { bandKeysOf, bandLayout, sketchOf } from '../../similarity/sketch';
import { heapPush } from './minHeap';
import { type IndexEntry, isTwin } from './twins';

/**
 * The redundancy index of one window: every message's sketch in locality-sensitive buckets, and
 * the positions that some newer message may make redundant, in a min-heap (oldest first).
 *
 * Invariant: every message that has a twin in the window is in the heap (it was pushed when its
 * newest twin entered); the heap may also hold positions that left or lost their twin, which the
 * planner drops when it meets them. What the planner removes is decided from the buckets alone,
 * so an index carried from state to state and one built fresh give the same plans.
 *
 * @internal
 */
export interface RedundancyIndex {
  /** The config fields the index depends on (`embedder|threshold`). */
  readonly signature: string;
  readonly embedder: string;
  readonly threshold: number;
  readonly layout: { readonly bands: number; readonly rows: number };
  readonly entries: Map<number, IndexEntry>;
  /** Bucket key → the positions in it, rising (each add appends the newest). */
  readonly buckets: Map<number, number[]>;
  /** Tool call id → its call's `name {arguments}`, for the results that follow. */
  readonly calls: Map<string, string>;
  readonly heap: number[];
  readonly queued: Set<number>;
}

/** The index of each window, keyed by the state's (frozen) message list. */
const indexes = /* @__PURE__ */ new WeakMap<readonly Message[], RedundancyIndex>();

/**
 * The config signature an index is valid for.
 *
 * @internal
 */
export const signatureOf = (config: MemoryConfig): string =>
  `${config.embedder}|${config.pruneThreshold}`;

/**
 * An empty index for `config`.
 *
 * @internal
 */
export const emptyIndex = (config: MemoryConfig): RedundancyIndex => ({
  signature: signatureOf(config),
  embedder: config.embedder,
  threshold: config.pruneThreshold,
  layout: bandLayout(config.pruneThreshold),
  entries: new Map(),
  buckets: new Map(),
  calls: new Map(),
  heap: [],
  queued: new Set(),
});

/**
 * Takes the index kept for a window (it then belongs to the caller, who keeps it for the next
 * window), or `undefined` when there is none or it was made for another config.
 *
 * @internal
 */
export const takeIndex = (
  messages: readonly Message[],
  config: MemoryConfig,
): RedundancyIndex | undefined => {
  const index = indexes.get(messages);
  if (index === undefined) return undefined;
  indexes.delete(messages);
  return index.signature === signatureOf(config) ? index : undefined;
};

/**
 * Keeps `index` for the window `messages` (an empty window keeps none: empty lists are shared).
 *
 * @internal
 */
export const keepIndex = (messages: readonly Message[], index: RedundancyIndex): void => {
  if (messages.length > 0) indexes.set(messages, index);
};

/**
 * Queues a position for the planner (once).
 *
 * @internal
 */
export const queue = (index: RedundancyIndex, position: number): void => {
  if (index.queued.has(position)) return;
  index.queued.add(position);
  heapPush(index.heap, position);
};

const callKeyOf = (index: RedundancyIndex, message: Message): string | undefined => {
  if (message.role === 'tool') {
    return message.toolCallId === undefined ? undefined : index.calls.get(message.toolCallId);
  }
  const calls = message.toolCalls;
  if (calls === undefined || calls.length === 0) return undefined;
  const keys: string[] = [];
  for (const call of calls) {
    const key = `${call.name} ${canonicalJson(call.parameters)}`;
    keys.push(key);
    if (call.id !== undefined) index.calls.set(call.id, key);
  }
  return keys.sort().join('\n');
};

/**
 * Enters the message at `position` (newer than every entry): its sketch (computed once per
 * message object), its buckets, and the older entries it makes redundant, queued.
 *
 * @throws EmbedderError when a registered embedder fails on the message
 * @internal
 */
export const insertEntry = (
  index: RedundancyIndex,
  position: number,
  message: Message,
  api: string,
): void => {
  const sketch = sketchOf(index.embedder, message, api);
  const entry: IndexEntry = {
    position,
    message,
    sketch,
    keys: bandKeysOf(sketch, index.layout),
    callKey: callKeyOf(index, message),
  };
  let seen: Set<number> | undefined;
  for (const key of entry.keys) {
    const bucket = index.buckets.get(key);
    if (bucket === undefined) {
      // Most keys are new: one small array each, no set.
      index.buckets.set(key, [position]);
      continue;
    }
    for (const other of bucket) {
      if (seen?.has(other) === true) continue;
      (seen ??= new Set()).add(other);
      if (isTwin(index.entries.get(other) as IndexEntry, entry, index.threshold)) {
        queue(index, other);
      }
    }
    bucket.push(position);
  }
  index.entries.set(position, entry);
};

/**
 * Forgets the message at `position` (it left the window).
 *
 * @internal
 */
export const removeEntry = (index: RedundancyIndex, position: number): void => {
  const entry = index.entries.get(position);
  if (entry === undefined) return;
  for (const key of entry.keys) {
    const bucket = index.buckets.get(key);
    if (bucket === undefined) continue;
    if (bucket.length === 1) index.buckets.delete(key);
    else bucket.splice(bucket.indexOf(position), 1);
  }
  for (const call of entry.message.role === 'assistant' ? (entry.message.toolCalls ?? []) : []) {
    if (call.id !== undefined) index.calls.delete(call.id);
  }
  index.entries.delete(position);
};

/**
 * The newest entry that makes `entry` redundant and that `usable` accepts, or `undefined`.
 *
 * @internal
 */
export const newestTwin = (
  index: RedundancyIndex,
  entry: IndexEntry,
  usable: (position: number) => boolean,
): IndexEntry | undefined => {
  let best: IndexEntry | undefined;
  for (const key of entry.keys) {
    const bucket = index.buckets.get(key);
    if (bucket === undefined) continue;
    // Newest first: the first twin found in a bucket is its newest.
    for (let k = bucket.length - 1; k >= 0; k--) {
      const position = bucket[k] as number;
      if (position <= entry.position || (best !== undefined && position <= best.position)) break;
      const other = index.entries.get(position) as IndexEntry;
      if (usable(position) && isTwin(entry, other, index.threshold)) {
        best = other;
        break;
      }
    }
  }
  return best;
};
