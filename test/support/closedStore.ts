import { expect } from 'vitest';

/**
 * What the closed-store tests (test/stores/closedStores.test.ts, test/node/closedNodeStores.test.ts)
 * need to call every public method of a closed store with arguments that record any look at them.
 */

/**
 * Closes a store twice (the second `close()` resolves too).
 *
 * @example
 * ```ts
 * await closeTwice(store);
 * ```
 */
export const closeTwice = async (store: object): Promise<void> => {
  const { close } = store as { close: () => Promise<void> };
  await close.call(store);
  await expect(close.call(store)).resolves.toBeUndefined();
};

/**
 * Every public method of a store but `close` (which may be called again), from its prototype.
 *
 * @example
 * ```ts
 * methodsOf(new InMemorySessionStore()); // ['save', 'load', 'list', 'delete', 'exists', 'branch', 'search']
 * ```
 */
export const methodsOf = (store: object): string[] =>
  Object.entries(Object.getOwnPropertyDescriptors(Object.getPrototypeOf(store)))
    .filter(
      ([name, { value }]) =>
        typeof value === 'function' && !['constructor', 'close'].includes(name),
    )
    .map(([name]) => name);

/**
 * Calls `method` and waits for its outcome (a `read` is iterated: it runs when iterated).
 *
 * @example
 * ```ts
 * const error = await rejection(settle(store, 'load', ['s1']));
 * ```
 */
export const settle = async (
  store: object,
  method: string,
  args: readonly unknown[],
): Promise<unknown> => {
  const result = (store as Record<string, (...a: readonly unknown[]) => unknown>)[method]?.(
    ...args,
  );
  if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result) {
    for await (const _ of result as AsyncIterable<unknown>) void _;
    return undefined;
  }
  return result;
};

/**
 * An argument that records every look at it (each Proxy trap), to show nothing reads it.
 *
 * @example
 * ```ts
 * const looks: string[] = [];
 * await rejection(settle(store, 'save', [tripwire(looks)]));
 * expect(looks).toEqual([]);
 * ```
 */
export const tripwire = (looks: string[]): object =>
  new Proxy([], {
    get: (_, key) => void looks.push(`get ${String(key)}`),
    has: (_, key) => (looks.push(`has ${String(key)}`), false),
    ownKeys: () => (looks.push('ownKeys'), ['length']),
    getOwnPropertyDescriptor: (target, key) => (
      looks.push(`getOwnPropertyDescriptor ${String(key)}`),
      Reflect.getOwnPropertyDescriptor(target, key)
    ),
    getPrototypeOf: () => (looks.push('getPrototypeOf'), Array.prototype),
  });

/**
 * The message of a call to a closed store.
 *
 * @example
 * ```ts
 * closedMessage('InMemorySessionStore', 'load'); // '[conversation-memory] InMemorySessionStore.load: the store is closed'
 * ```
 */
export const closedMessage = (store: string, method: string): string =>
  `[conversation-memory] ${store}.${method}: the store is closed`;
