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
  /** Tool call id → its call's `name {arguments}` and the call message's position. */
  readonly calls: Map<string, { readonly key: string; readonly position: number }>;
  /** The newest user message's position (the newest turn starts there), or -1. */
  lastUser: number;
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
  `${config.embedder}|${config.pruneThreshold}|${config.pinSystem}`;

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
  lastUser: -1,
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

/** A message's call key (see `IndexEntry.callKey`) and, for a tool result, its call's position. */
const callOf = (
  index: RedundancyIndex,
  message: Message,
  position: number,
): { key: string | undefined; head: number } => {
  if (message.role === 'tool') {
    const call = message.toolCallId === undefined ? undefined : index.calls.get(message.toolCallId);
    return call === undefined
      ? { key: undefined, head: -1 }
      : { key: call.key, head: call.position };
  }
  const calls = message.toolCalls;
  if (calls === undefined || calls.length === 0) return { key: undefined, head: position };
  const keys: string[] = [];
  for (const call of calls) {
    const key = `${call.name} ${canonicalJson(call.parameters)}`;
    keys.push(key);
    if (call.id !== undefined) index.calls.set(call.id, { key, position });
  }
  return { key: keys.sort().join('\n'), head: position };
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
  const call = callOf(index, message, position);
  const entry: IndexEntry = {
    position,
    message,
    sketch,
    // Salted by role and call: messages that can never be twins ("OK" from two different calls)
    // never share a bucket.
    keys: bandKeysOf(sketch, index.layout, `${message.role}\u0000${call.key ?? ''}`),
    callKey: call.key,
    head: call.head,
  };
  if (message.role === 'user') index.lastUser = position;
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
      const older = index.entries.get(other) as IndexEntry;
      // A unit is planned from its first message: a tool result queues its call.
      if (isTwin(older, entry, index.threshold) && older.head >= 0) queue(index, older.head);
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
    // Only while the id still names this call (ids may repeat across turns).
    if (call.id !== undefined && index.calls.get(call.id)?.position === position) {
      index.calls.delete(call.id);
    }
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
