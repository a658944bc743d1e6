import { describe, expect, it } from 'vitest';
import { MemoryArgumentError } from 'conversation-memory';
import { openStoreCall, sessionKeyOf } from 'conversation-memory/store-kit';
import { rejection } from '../../helpers';

/** A promise and the function that settles it: the store's wait, released by the test. */
const gate = (): { readonly wait: Promise<void>; readonly release: () => void } => {
  let release = (): void => undefined;
  const wait = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { wait, release };
};

/**
 * A store whose `load` waits (a connection, a busy database) between opening its call and
 * reading storage, as the Node stores do; `reads` counts the reads of its arguments.
 */
class WaitingStore {
  #closed = false;
  reads = 0;
  constructor(readonly waitFor: Promise<void>) {}

  async load(sessionId: unknown): Promise<string> {
    const { api, stillOpen } = openStoreCall('WaitingStore.load', () => this.#closed);
    this.reads += 1;
    const { key } = sessionKeyOf(sessionId, undefined, api);
    await this.waitFor;
    stillOpen();
    return key;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}

describe('openStoreCall, the closed-store guard', () => {
  it('an open store: the call is named as given and stillOpen passes, reading the flag each time', () => {
    let reads = 0;
    const call = openStoreCall('MyStore.load', () => {
      reads += 1;
      return false;
    });
    expect(call.api).toBe('MyStore.load');
    expect(reads).toBe(1);
    expect(() => call.stillOpen()).not.toThrow();
    expect(() => call.stillOpen()).not.toThrow();
    expect(reads).toBe(3);
  });

  it('a closed store: the opening throws MemoryArgumentError `Store.method: the store is closed`', () => {
    const opening = () => openStoreCall('MyStore.save', () => true);
    expect(opening).toThrow(MemoryArgumentError);
    expect(opening).toThrow('[conversation-memory] MyStore.save: the store is closed');
  });

  it('a method opened with it rejects before it reads its arguments', async () => {
    const store = new WaitingStore(Promise.resolve());
    await store.close();
    // An id that is not a string would be a SessionIdError, were it read.
    const error = await rejection(store.load(42));
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect((error as Error).message).toBe(
      '[conversation-memory] WaitingStore.load: the store is closed',
    );
    expect(store.reads).toBe(0);
  });

  it('stillOpen rejects a call whose store was closed during its wait, and only then', async () => {
    for (const closeDuringWait of [true, false]) {
      const { wait, release } = gate();
      const store = new WaitingStore(wait);
      const loading = store.load('s1');
      if (closeDuringWait) await store.close();
      release();
      if (closeDuringWait) {
        const error = await rejection(loading);
        expect(error).toBeInstanceOf(MemoryArgumentError);
        expect((error as Error).message).toBe(
          '[conversation-memory] WaitingStore.load: the store is closed',
        );
      } else {
        await expect(loading).resolves.toBe('s1');
      }
      expect(store.reads).toBe(1);
    }
  });
});
