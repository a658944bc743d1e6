import { MemoryArgumentError } from '../errors/memoryErrors';

/**
 * A persistent list: what an event log keeps its actions and snapshots in. Plain frozen data (it
 * survives `JSON.parse(JSON.stringify(v))`), shared between the logs made from one another, never
 * changed once made. The items are the first `size` of: the leaves of `root` (a trie of arrays of
 * 32, left to right), then `tail` (the last 1 to 32 items; empty when `size` is 0).
 *
 * Adding an item copies the tail (at most 31 pointers) and, once every 32 adds, the path from the
 * root to the new leaf (32 pointers per level, at most 6 levels): O(1) amortized, whatever the
 * list's length. Reading item `i` walks at most 6 levels; taking the first `n` items copies one
 * leaf and one path, sharing the rest. Its shape depends only on `size` (the trie is as low as
 * the items allow), so two lists of the same items are deep-equal however they were built.
 *
 * @example
 * ```ts
 * const list: LogVector<MemoryAction> = log.actions;
 * list.size === log.length; // true
 * ```
 */
export interface LogVector<T> {
  /** How many items the list holds. */
  readonly size: number;
  /** The root's level: 5 when every leaf hangs from `root`, 5 more per level above. */
  readonly shift: number;
  /** The trie's nodes: arrays of up to 32 children, down to leaves of 32 items. */
  readonly root: readonly unknown[];
  /** The last items (1 to 32 when `size` > 0). */
  readonly tail: readonly T[];
}

const BITS = 5;
const WIDTH = 32;
const MASK = WIDTH - 1;
/** The highest root level: a trie of 2^30 items (about a billion), past any log in memory. */
const MAX_SHIFT = 25;

type Node = readonly unknown[];

const EMPTY_NODE: Node = /* @__PURE__ */ Object.freeze([]);

/**
 * The empty list.
 *
 * @internal
 */
export const EMPTY_VECTOR: LogVector<never> = /* @__PURE__ */ Object.freeze({
  size: 0,
  shift: BITS,
  root: EMPTY_NODE,
  tail: EMPTY_NODE as readonly never[],
});

/** Where the tail starts: the number of items in the trie. */
const tailOffset = (size: number): number =>
  size === 0 ? 0 : Math.floor((size - 1) / WIDTH) * WIDTH;

/** How many items a trie whose root is at level `shift` can hold. */
const capacity = (shift: number): number => 2 ** (shift + BITS);

const damaged = (api: string): MemoryArgumentError =>
  new MemoryArgumentError(
    api,
    'log is damaged: its list of actions or snapshots does not have the shape of an event log',
  );

const vector = <T>(size: number, shift: number, root: Node, tail: readonly T[]): LogVector<T> =>
  Object.freeze({ size, shift, root, tail });

/** A chain of one-child nodes from level `shift` down to `leaf`. */
const newPath = (shift: number, leaf: Node): Node =>
  shift === 0 ? leaf : Object.freeze([newPath(shift - BITS, leaf)]);

/** `node` (at level `shift` ≥ 5) with `leaf` added as the leaf of trie items `at..at + 31`. */
const pushLeaf = (node: Node, shift: number, at: number, leaf: Node): Node => {
  const i = (at >>> shift) & MASK;
  const copy = node.slice();
  copy[i] =
    i < node.length
      ? pushLeaf(node[i] as Node, shift - BITS, at, leaf)
      : newPath(shift - BITS, leaf);
  return Object.freeze(copy);
};

/**
 * The list with `item` added at its end. The given list is unchanged.
 *
 * @throws MemoryArgumentError (`api`) past 2^30 items
 * @internal
 */
export const vectorPush = <T>(list: LogVector<T>, item: T, api: string): LogVector<T> => {
  const { size, shift, root, tail } = list;
  if (tail.length < WIDTH) return vector(size + 1, shift, root, Object.freeze(tail.concat([item])));
  // The tail is full: it becomes the trie's next leaf, and the new item starts a new tail.
  const at = tailOffset(size);
  const next = Object.freeze([item]);
  if (at < capacity(shift)) return vector(size + 1, shift, pushLeaf(root, shift, at, tail), next);
  if (shift >= MAX_SHIFT) {
    throw new MemoryArgumentError(api, `an event log holds at most ${capacity(MAX_SHIFT)} items`);
  }
  const grown = Object.freeze([root, newPath(shift, tail)]);
  return vector(size + 1, shift + BITS, grown, next);
};

/** The leaf holding trie item `i`. */
const leafOf = (list: LogVector<unknown>, i: number, api: string): Node => {
  let node: unknown = list.root;
  for (let shift = list.shift; shift > 0; shift -= BITS) {
    node = (node as Node)[(i >>> shift) & MASK];
    if (!Array.isArray(node)) throw damaged(api);
  }
  return node as Node;
};

/**
 * Item `i` (0 ≤ `i` < `size`, checked by the caller).
 *
 * @throws MemoryArgumentError (`api`) when the list's nodes are not arrays (a hand-made log)
 * @internal
 */
export const vectorAt = <T>(list: LogVector<T>, i: number, api: string): T => {
  const offset = tailOffset(list.size);
  if (i >= offset) return list.tail[i - offset] as T;
  return leafOf(list, i, api)[i & MASK] as T;
};

/**
 * Calls `visit` with items `from..to - 1` in order, one leaf at a time: O(to − from + 6).
 *
 * @internal
 */
export const vectorForEach = <T>(
  list: LogVector<T>,
  from: number,
  to: number,
  visit: (item: T, index: number) => void,
  api: string,
): void => {
  const offset = tailOffset(list.size);
  let i = from;
  while (i < to) {
    const inTail = i >= offset;
    const leaf = inTail ? list.tail : leafOf(list, i, api);
    const base = inTail ? offset : i - (i & MASK);
    const end = Math.min(to, base + leaf.length);
    if (end <= i) throw damaged(api);
    for (; i < end; i++) visit(leaf[i - base] as T, i);
  }
};

/**
 * The items as one new array.
 *
 * @internal
 */
export const vectorToArray = <T>(list: LogVector<T>, api: string): T[] => {
  const out: T[] = [];
  vectorForEach(list, 0, list.size, (item) => out.push(item), api);
  return out;
};

/** `node` (at level `shift`) keeping its first `count` items (a multiple of 32, > 0). */
const trim = (node: Node, shift: number, count: number, api: string): Node => {
  if (shift === 0) return node;
  const perChild = 2 ** shift;
  const children = Math.ceil(count / perChild);
  const child = node[children - 1];
  if (!Array.isArray(child)) throw damaged(api);
  const last = trim(child, shift - BITS, count - (children - 1) * perChild, api);
  if (children === node.length && last === child) return node;
  const copy = node.slice(0, children);
  copy[children - 1] = last;
  return Object.freeze(copy);
};

/**
 * The list of the first `n` items (0 ≤ `n` ≤ `size`): it shares every full leaf before `n`, and
 * copies one leaf and one path.
 *
 * @internal
 */
export const vectorTake = <T>(list: LogVector<T>, n: number, api: string): LogVector<T> => {
  if (n >= list.size) return list;
  if (n === 0) return EMPTY_VECTOR;
  const offset = tailOffset(n);
  const from = tailOffset(list.size);
  const leaf = offset >= from ? list.tail : leafOf(list, offset, api);
  const tail = Object.freeze(leaf.slice(0, n - offset) as T[]);
  if (offset === 0) return vector(n, BITS, EMPTY_NODE, tail);
  let root = trim(list.root, list.shift, offset, api);
  let shift = list.shift;
  // As low as the items allow: a root whose items all fit in its first child is that child.
  while (shift > BITS && offset <= 2 ** shift) {
    root = root[0] as Node;
    shift -= BITS;
  }
  return vector(n, shift, root, tail);
};

/**
 * A list of `items`, in one pass (the same list as adding them one by one).
 *
 * @internal
 */
export const vectorFromArray = <T>(items: readonly T[]): LogVector<T> => {
  const size = items.length;
  if (size === 0) return EMPTY_VECTOR;
  const offset = tailOffset(size);
  let level: Node[] = [];
  for (let i = 0; i < offset; i += WIDTH) level.push(Object.freeze(items.slice(i, i + WIDTH)));
  let shift = BITS;
  while (level.length > WIDTH) {
    const above: Node[] = [];
    for (let i = 0; i < level.length; i += WIDTH)
      above.push(Object.freeze(level.slice(i, i + WIDTH)));
    level = above;
    shift += BITS;
  }
  return vector(size, shift, Object.freeze(level), Object.freeze(items.slice(offset)));
};

/**
 * Reads a list's four fields once each and checks that they fit together (O(1): the nodes are
 * checked as they are walked). Returns a list of those values, or what is wrong with it.
 *
 * @internal
 */
export const vectorOf = (value: unknown): LogVector<unknown> | string => {
  if (typeof value !== 'object' || value === null) return 'is not a list';
  const { size, shift, root, tail } = value as Partial<Record<keyof LogVector<unknown>, unknown>>;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    return 'has no size';
  }
  if (
    typeof shift !== 'number' ||
    !Number.isInteger(shift) ||
    shift < BITS ||
    shift > MAX_SHIFT ||
    shift % BITS !== 0
  ) {
    return 'has no level';
  }
  if (!Array.isArray(root) || !Array.isArray(tail)) return 'has no nodes';
  const offset = tailOffset(size);
  if (
    offset > capacity(shift) ||
    (root as Node).length !== Math.ceil(offset / 2 ** shift) ||
    (tail as Node).length !== size - offset
  ) {
    return 'has nodes that do not hold its size';
  }
  return Object.freeze({ size, shift, root: root as Node, tail: tail as Node });
};
