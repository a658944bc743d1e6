import { BM25_K1, bm25Idf, bm25Part } from '../../knowledge/retrieval/bm25';
import { searchWords } from '../../knowledge/retrieval/searchWords';
import type { Message } from '../../model/message';
import type { TranscriptEntry } from '../viewTypes';
import { searchableText } from './recallText';

/** One word's postings: the documents that hold it, ascending, and how often each does. */
interface Postings {
  readonly docs: number[];
  readonly counts: number[];
}

/**
 * The documents of one or more index versions, append-only: a version sees its first `size`
 * documents, which never change, so versions share it. Appending to a version that is not the
 * newest copies what it sees first (a fork), so no version ever sees another's documents.
 */
interface IndexStore {
  readonly messages: Message[];
  readonly positions: number[];
  /** Words per document. */
  readonly lengths: number[];
  /** `totals[i]`: the words of documents 0 to i - 1 (so `totals[0] = 0`). */
  readonly totals: number[];
  readonly postings: Map<string, Postings>;
  /** A tool call's id → the document of the assistant message that made it (the first one). */
  readonly calls: Map<string, number>;
  /** How many documents the store holds: the size of its newest version. */
  filled: number;
}

const STORE: unique symbol = /* @__PURE__ */ Symbol('conversation-memory.recallIndex');

/**
 * Messages that left the window, indexed for recall (BM25 with the knowledge retrieval's
 * stemming): what `modelView`'s `recall.source` is turned into, once per source and then
 * extended as messages leave, never rebuilt per call. Immutable: extending an index gives a new
 * one and the old one keeps seeing what it saw (the two share their documents).
 *
 * The agent keeps one per conversation; `modelView` takes one as `recall.source`.
 *
 * @example
 * ```ts
 * const recallable = (index: RecallIndex): number => index.size;
 * ```
 */
export interface RecallIndex {
  /** How many messages it holds (those with no searchable word are not held). */
  readonly size: number;
  /** @internal */
  readonly [STORE]: unknown;
}

/** The documents an index version reads. */
const storeOf = (index: RecallIndex): IndexStore => index[STORE] as IndexStore;

const newStore = (): IndexStore => ({
  messages: [],
  positions: [],
  lengths: [],
  totals: [0],
  postings: new Map(),
  calls: new Map(),
  filled: 0,
});

const versionOf = (store: IndexStore, size: number): RecallIndex =>
  Object.freeze({ size, [STORE]: store });

/** The empty index (a new one each call: an index is extended, never shared by accident). */
export const emptyRecallIndex = (): RecallIndex => versionOf(newStore(), 0);

/** Whether `value` is an index made here. */
export const isRecallIndex = (value: unknown): value is RecallIndex =>
  typeof value === 'object' && value !== null && STORE in value;

/** Adds one document to `store` (its newest version). */
const addDocument = (store: IndexStore, message: Message, position: number): void => {
  const words = searchWords(searchableText(message));
  if (words.length === 0) return;
  const doc = store.filled;
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  for (const [word, count] of counts) {
    let postings = store.postings.get(word);
    if (postings === undefined) {
      postings = { docs: [], counts: [] };
      store.postings.set(word, postings);
    }
    postings.docs.push(doc);
    postings.counts.push(count);
  }
  store.messages.push(message);
  store.positions.push(position);
  store.lengths.push(words.length);
  store.totals.push((store.totals[doc] as number) + words.length);
  for (const call of message.toolCalls ?? []) {
    if (call.id !== undefined && !store.calls.has(call.id)) store.calls.set(call.id, doc);
  }
  store.filled = doc + 1;
};

/**
 * `index` with `entries` added (oldest first). O(words of the new messages) when `index` is the
 * newest version of its documents; a fork (an older version extended) first copies what it sees.
 *
 * @internal
 */
export const extendRecallIndex = (
  index: RecallIndex,
  entries: readonly TranscriptEntry[],
): RecallIndex => {
  if (entries.length === 0) return index;
  let store = storeOf(index);
  if (store.filled !== index.size) {
    const fork = newStore();
    for (let doc = 0; doc < index.size; doc++) {
      addDocument(fork, store.messages[doc] as Message, store.positions[doc] as number);
    }
    store = fork;
  }
  for (const { message, position } of entries) {
    if (position !== null) addDocument(store, message, position);
  }
  return versionOf(store, store.filled);
};

/**
 * The most postings a search walks (of its rarest words; of the rarest word's, its newest when
 * it alone has more): the rest of the query's words are only looked up for the messages those
 * find.
 *
 * @internal
 */
export const WALKED_POSTINGS = 4_096;

/** A recalled message: its document, score, message and position. */
export interface RecallHit {
  readonly doc: number;
  readonly score: number;
  readonly message: Message;
  readonly position: number;
}

/** How many of `docs` are below `size` (they are ascending). */
const visibleCount = (docs: readonly number[], size: number): number => {
  if (docs.length === 0 || (docs[docs.length - 1] as number) < size) return docs.length;
  let low = 0;
  let high = docs.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((docs[mid] as number) < size) low = mid + 1;
    else high = mid;
  }
  return low;
};

/** The first index ≥ `from` (and < `end`) whose doc is ≥ `doc`: galloping, then binary search. */
const advance = (docs: readonly number[], from: number, end: number, doc: number): number => {
  if (from >= end || (docs[from] as number) >= doc) return from;
  let step = 1;
  let low = from;
  let high = from + 1;
  while (high < end && (docs[high] as number) < doc) {
    low = high;
    step *= 2;
    high = Math.min(end, high + step);
  }
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((docs[mid] as number) < doc) low = mid + 1;
    else high = mid;
  }
  return low;
};

/** A query word as the search walks it. */
interface Cursor {
  readonly docs: readonly number[];
  readonly counts: readonly number[];
  readonly end: number;
  readonly idf: number;
  /** The most this word can add to a score: BM25's bound `idf × (k1 + 1)`. */
  readonly bound: number;
  at: number;
}

/** A min-heap of hits by (score, doc): the weakest first, the older of two equal ones first. */
const weaker = (a: RecallHit, b: RecallHit) =>
  a.score < b.score || (a.score === b.score && a.doc < b.doc);

const siftUp = (heap: RecallHit[], i: number) => {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!weaker(heap[i] as RecallHit, heap[parent] as RecallHit)) return;
    [heap[i], heap[parent]] = [heap[parent] as RecallHit, heap[i] as RecallHit];
    i = parent;
  }
};

const siftDown = (heap: RecallHit[], i: number) => {
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let least = i;
    if (left < heap.length && weaker(heap[left] as RecallHit, heap[least] as RecallHit))
      least = left;
    if (right < heap.length && weaker(heap[right] as RecallHit, heap[least] as RecallHit))
      least = right;
    if (least === i) return;
    [heap[i], heap[least]] = [heap[least] as RecallHit, heap[i] as RecallHit];
    i = least;
  }
};

/**
 * The `limit` messages of `index` that score highest for `query` by Okapi BM25 (the knowledge
 * retrieval's parameters, stemming and stop words; the collection is the index's messages), best
 * first, leaving out those `skip` rejects (by position). A message that shares no word with the
 * query is never returned.
 *
 * MaxScore (Turtle and Flood): the query's words are split, by their score bounds, into those
 * that can still lift a message into the best `limit` alone and those that cannot; only the
 * first are walked, the others looked up (by galloping) for the messages they find, and a
 * message whose bound falls below the weakest kept is dropped unscored. The rarest words are
 * walked first, and only as many as hold `walked` postings in all ({@link WALKED_POSTINGS}; the
 * rarest word always, only its newest `walked` when it alone has more): a message that holds
 * none of them but only commoner words (in a large history, words such as "time" or "meeting")
 * is not found, while every message found is scored with all the query's words. Below that budget the result is exactly BM25's best `limit`;
 * above it, the cost is bounded by the budget and the lookups, whatever the index's size.
 *
 * @internal
 */
export const searchRecallIndex = (
  index: RecallIndex,
  query: string,
  limit: number,
  skip: (position: number) => boolean,
  walked = WALKED_POSTINGS,
): RecallHit[] => {
  const store = storeOf(index);
  const size = index.size;
  if (size === 0 || limit <= 0) return [];
  const average = (store.totals[size] as number) / size;
  const cursors: Cursor[] = [];
  for (const word of new Set(searchWords(query))) {
    const postings = store.postings.get(word);
    if (postings === undefined) continue;
    const end = visibleCount(postings.docs, size);
    if (end === 0) continue;
    const idf = bm25Idf(size, end);
    cursors.push({ ...postings, end, idf, bound: idf * (BM25_K1 + 1), at: 0 });
  }
  if (cursors.length === 0) return [];
  cursors.sort((a, b) => a.bound - b.bound);
  /** `below[i]`: the sum of the bounds of cursors 0 to i - 1. */
  const below = [0];
  for (const cursor of cursors) below.push((below[below.length - 1] as number) + cursor.bound);
  const heap: RecallHit[] = [];
  let threshold = 0;
  /**
   * Cursors below `essential` cannot lift a message past `threshold` by themselves, or are the
   * commonest words past the postings budget: they only add to what the others find.
   */
  let essential = cursors.length - 1;
  let postings = (cursors[essential] as Cursor).end;
  while (essential > 0 && postings + (cursors[essential - 1] as Cursor).end <= walked) {
    essential--;
    postings += (cursors[essential] as Cursor).end;
  }
  // The rarest word alone past the budget: only its newest `walked` postings are walked.
  const rarest = cursors[cursors.length - 1] as Cursor;
  if (rarest.end > walked) rarest.at = rarest.end - Math.max(walked, 1);
  const contribution = (cursor: Cursor, doc: number): number =>
    bm25Part(cursor.idf, cursor.counts[cursor.at] as number, store.lengths[doc] as number, average);
  for (;;) {
    let doc = Infinity;
    for (let t = essential; t < cursors.length; t++) {
      const cursor = cursors[t] as Cursor;
      if (cursor.at < cursor.end) doc = Math.min(doc, cursor.docs[cursor.at] as number);
    }
    if (doc === Infinity) break;
    let score = 0;
    for (let t = essential; t < cursors.length; t++) {
      const cursor = cursors[t] as Cursor;
      if (cursor.at < cursor.end && cursor.docs[cursor.at] === doc) {
        score += contribution(cursor, doc);
        cursor.at++;
      }
    }
    for (let t = essential - 1; t >= 0; t--) {
      if (heap.length === limit && score + (below[t + 1] as number) < threshold) break;
      const cursor = cursors[t] as Cursor;
      cursor.at = advance(cursor.docs, cursor.at, cursor.end, doc);
      if (cursor.at < cursor.end && cursor.docs[cursor.at] === doc) {
        score += contribution(cursor, doc);
      }
    }
    // Documents come in ascending order: one that equals the weakest kept is newer, so stronger.
    if (heap.length === limit && score < threshold) continue;
    const position = store.positions[doc] as number;
    if (skip(position)) continue;
    const hit: RecallHit = { doc, score, message: store.messages[doc] as Message, position };
    if (heap.length < limit) {
      heap.push(hit);
      siftUp(heap, heap.length - 1);
    } else {
      heap[0] = hit;
      siftDown(heap, 0);
    }
    if (heap.length === limit) {
      threshold = (heap[0] as RecallHit).score;
      while (essential < cursors.length && (below[essential + 1] as number) < threshold) {
        essential++;
      }
    }
  }
  return heap.sort((a, b) => (weaker(a, b) ? 1 : weaker(b, a) ? -1 : 0));
};

/** The searches made on each store's versions, newest last (at most {@link REMEMBERED}). */
const searches = /* @__PURE__ */ new WeakMap<IndexStore, Map<string, readonly RecallHit[]>>();
const REMEMBERED = 32;

/**
 * {@link searchRecallIndex} remembered: the same version, query and limit give the same hits
 * without a search (an agent's model calls for one question, a UI drawn again): the same array,
 * when `skip` rejects none of them. When it rejects some of a full list, the search runs again
 * with it. Pure, like the search: a version's hits depend on its documents only.
 *
 * @internal
 */
export const rememberedSearch = (
  index: RecallIndex,
  query: string,
  limit: number,
  skip: (position: number) => boolean,
): readonly RecallHit[] => {
  const store = storeOf(index);
  let seen = searches.get(store);
  if (seen === undefined) {
    seen = new Map();
    searches.set(store, seen);
  }
  const key = `${index.size}\u0000${limit}\u0000${query}`;
  let hits = seen.get(key);
  if (hits === undefined) {
    hits = searchRecallIndex(index, query, limit, () => false);
    if (seen.size >= REMEMBERED) seen.delete(seen.keys().next().value as string);
    seen.set(key, hits);
  }
  if (!hits.some((hit) => skip(hit.position))) return hits;
  if (hits.length === limit) return searchRecallIndex(index, query, limit, skip);
  return hits.filter((hit) => !skip(hit.position));
};

/**
 * The assistant message (and its position) whose call `toolCallId` a recalled tool result
 * answers, when the index holds it.
 *
 * @internal
 */
export const recalledCall = (
  index: RecallIndex,
  toolCallId: string | undefined,
): { readonly message: Message; readonly position: number } | undefined => {
  if (toolCallId === undefined) return undefined;
  const store = storeOf(index);
  const doc = store.calls.get(toolCallId);
  if (doc === undefined || doc >= index.size) return undefined;
  return { message: store.messages[doc] as Message, position: store.positions[doc] as number };
};

/**
 * The message and position of document `doc` of `index` (`0 ≤ doc < index.size`).
 *
 * @internal
 */
export const documentAt = (
  index: RecallIndex,
  doc: number,
): { readonly message: Message; readonly position: number } => {
  const store = storeOf(index);
  return { message: store.messages[doc] as Message, position: store.positions[doc] as number };
};
