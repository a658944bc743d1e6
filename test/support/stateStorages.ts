import type { StateStorage } from 'zustand/middleware';

/** A storage whose calls are recorded, over a Map: what a test inspects. */
export interface RecordingStorage extends StateStorage {
  readonly items: Map<string, string>;
  /** Every setItem call, in order: `[name, value]`. */
  readonly writes: [string, string][];
}

/** A synchronous storage over a Map, like `localStorage`. */
export const mapStorage = (initial: Record<string, string> = {}): RecordingStorage => {
  const items = new Map(Object.entries(initial));
  const writes: [string, string][] = [];
  return {
    items,
    writes,
    getItem: (name) => items.get(name) ?? null,
    setItem: (name, value) => {
      writes.push([name, value]);
      items.set(name, value);
    },
    removeItem: (name) => {
      items.delete(name);
    },
  };
};

/** A storage of one more task before each call completes, like an IndexedDB or AsyncStorage wrapper. */
export const asyncStorage = (initial: Record<string, string> = {}): RecordingStorage => {
  const sync = mapStorage(initial);
  const later = <T>(run: () => T): Promise<T> =>
    new Promise((resolve) => setTimeout(() => resolve(run()), 1));
  return {
    items: sync.items,
    writes: sync.writes,
    getItem: (name) => later(() => sync.getItem(name) as string | null),
    setItem: (name, value) => later(() => sync.setItem(name, value)),
    removeItem: (name) => later(() => sync.removeItem(name)),
  };
};

/**
 * An async storage whose reads wait until the test releases them, to act while a read is in
 * flight.
 */
export const gatedStorage = (
  initial: Record<string, string> = {},
): RecordingStorage & { release(): void } => {
  const sync = mapStorage(initial);
  const waiting: (() => void)[] = [];
  return {
    items: sync.items,
    writes: sync.writes,
    getItem: (name) =>
      new Promise((resolve) => waiting.push(() => resolve(sync.getItem(name) as string | null))),
    setItem: sync.setItem,
    removeItem: sync.removeItem,
    release: () => waiting.splice(0).forEach((resume) => resume()),
  };
};

/** Lets pending timers and promise callbacks run. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));
