/**
 * Reports a stored memory that could not be decoded when nobody else will (#17 §4): zustand's
 * `persist` hands a failed `getItem` only to an `onRehydrateStorage` callback, so without one
 * the chat silently starts empty and, since {@link memoryPersistStorage} then refuses to write
 * over the stored value, nothing typed is saved either. The storage cannot see persist's options;
 * the state creator can (`api.persist.getOptions()`), so the two meet here: the creator watches
 * its storage key, the storage reports its failure, and whichever comes second decides. At most
 * one `console.error` per storage key.
 */

/** Whether persist, as configured now, has an `onRehydrateStorage` callback. */
type HasHandler = () => boolean;

interface KeyState {
  watcher?: HasHandler;
  failure?: unknown;
  reported?: true;
}

const keys = new WeakMap<object, Map<string, KeyState>>();

const stateOf = (storage: object, name: string): KeyState => {
  let byName = keys.get(storage);
  if (byName === undefined) keys.set(storage, (byName = new Map()));
  let state = byName.get(name);
  if (state === undefined) byName.set(name, (state = {}));
  return state;
};

const reportIfUnhandled = (name: string, state: KeyState): void => {
  if (state.reported || state.failure === undefined || state.watcher === undefined) return;
  if (state.watcher()) return;
  state.reported = true;
  // The one place library code logs: there is no callback to hand this to (see the module doc).
  // eslint-disable-next-line no-console -- issue #17 §4 asks for exactly this report
  console.error(
    `[conversation-memory] memoryPersistStorage: the memory stored under ${JSON.stringify(name)} could not be restored, so the store started empty and nothing is saved under that key until it is removed or replaced; pass onRehydrateStorage to persist to handle this yourself.`,
    state.failure,
  );
};

/**
 * Records that reading `name` from `storage` failed (the storage's side).
 *
 * @internal
 */
export const restoreFailed = (storage: object, name: string, error: unknown): void => {
  const state = stateOf(storage, name);
  state.failure = error;
  reportIfUnhandled(name, state);
};

/**
 * Records a successful read or a removal of `name`: a later failure is a new one.
 *
 * @internal
 */
export const restoreSucceeded = (storage: object, name: string): void => {
  const state = keys.get(storage)?.get(name);
  if (state !== undefined) delete state.failure;
};

/**
 * Watches the key a persisted store restores from (the state creator's side): `api` is the
 * store's API, whose `persist` (added by zustand's middleware once the creator has run) names
 * the storage, the key and the callback. A store without persist is left alone.
 *
 * @internal
 */
export const watchRestore = (api: unknown): void => {
  queueMicrotask(() => {
    const persist = (api as { persist?: { getOptions?: () => unknown } }).persist;
    if (typeof persist?.getOptions !== 'function') return;
    const options = persist.getOptions() as { name?: unknown; storage?: unknown };
    const { name, storage } = options;
    if (typeof name !== 'string' || typeof storage !== 'object' || storage === null) return;
    const state = stateOf(storage, name);
    state.watcher = () =>
      typeof (persist.getOptions?.() as { onRehydrateStorage?: unknown }).onRehydrateStorage ===
      'function';
    reportIfUnhandled(name, state);
  });
};
