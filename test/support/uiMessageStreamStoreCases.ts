/**
 * The cases every `UIMessageStreamStore` passes (issue #31 §3), run against the in-process store
 * and the Redis one: late readers get everything from the first chunk then live ones (a
 * property), a new stream replaces the old, an ended stream lingers then goes, an unfinished one
 * expires after `ttl` without writes, stop requests reach the runner of the active stream only,
 * limits and hostile chat ids are refused with errors that name them.
 */
import fc from 'fast-check';
import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { MemoryArgumentError } from 'conversation-memory';
import {
  resumeUIMessageStream,
  resumeUIMessageStreamResponse,
  type UIMessageStreamStore,
} from 'conversation-memory/ai-sdk';

/** What a backend gives the cases: a fresh store (with real, short expiries when asked). */
export interface StreamStoreBackend {
  readonly name: string;
  make(options?: { ttl?: number; linger?: number; maxChunks?: number }): UIMessageStreamStore;
}

export const delta = (n: number): UIMessageChunk => ({
  type: 'text-delta',
  id: 't',
  delta: `w${n} `,
});

export const drainChunks = async (
  chunks: AsyncIterable<UIMessageChunk> | null,
): Promise<UIMessageChunk[]> => {
  const out: UIMessageChunk[] = [];
  if (chunks === null) return out;
  for await (const chunk of chunks) out.push(chunk);
  return out;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the cases for one backend. */
export const describeUIMessageStreamStore = (backend: StreamStoreBackend): void => {
  let chats = 0;
  const chat = () => `chat-${backend.name}-${chats++}`;

  describe(`UIMessageStreamStore: ${backend.name}`, () => {
    it('any interleaving of appends and late readers: every reader sees exactly the appended chunks', async () => {
      const store = backend.make();
      await fc.assert(
        fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }), async (steps) => {
          const c = chat();
          const id = await store.begin(c);
          const readers: Promise<UIMessageChunk[]>[] = [];
          const appended: UIMessageChunk[] = [];
          for (const [n, startReader] of steps.entries()) {
            if (startReader) readers.push(drainChunks(await store.read(c)));
            appended.push(delta(n));
            await store.append(c, id, delta(n));
          }
          readers.push(drainChunks(await store.read(c)));
          await store.end(c, id);
          for (const seen of await Promise.all(readers)) expect(seen).toEqual(appended);
        }),
        { numRuns: 25 },
      );
    });

    it('a new stream replaces the old: its readers end, its writer is refused', async () => {
      const store = backend.make();
      const c = chat();
      const first = await store.begin(c);
      await store.append(c, first, delta(1));
      const reading = drainChunks(await store.read(c));
      const second = await store.begin(c);
      expect(await reading).toEqual([delta(1)]);
      await expect(store.append(c, first, delta(2))).rejects.toThrow(
        /is not the active stream of chat/,
      );
      await store.append(c, second, delta(3));
      await store.end(c, second);
      expect(await drainChunks(await store.read(c))).toEqual([delta(3)]);
      await expect(store.append(c, second, delta(4))).rejects.toThrow(MemoryArgumentError);
    });

    it('an ended stream lingers, then is gone; an unfinished one goes ttl after its last write', async () => {
      const store = backend.make({ ttl: 400, linger: 200 });
      const done = chat();
      const ended = await store.begin(done);
      await store.append(done, ended, delta(1));
      await store.end(done, ended);
      expect(await drainChunks(await store.read(done))).toEqual([delta(1)]);
      await pause(350);
      expect(await store.read(done)).toBeNull();
      expect((await resumeUIMessageStreamResponse({ store, chatId: done })).status).toBe(204);
      const quiet = chat();
      const id = await store.begin(quiet);
      await store.append(quiet, id, delta(1));
      await pause(250);
      await store.append(quiet, id, delta(2));
      await pause(250);
      expect(await store.read(quiet)).not.toBeNull();
      await pause(300);
      expect(await resumeUIMessageStream({ store, chatId: quiet })).toBeNull();
      await expect(store.append(quiet, id, delta(3))).rejects.toThrow(MemoryArgumentError);
    });

    it('a reader that waits on a writer that went quiet ends when the stream expires', async () => {
      const store = backend.make({ ttl: 300 });
      const c = chat();
      const id = await store.begin(c);
      await store.append(c, id, delta(1));
      expect(await drainChunks(await store.read(c))).toEqual([delta(1)]);
    });

    it('a stop request reaches the watcher of the active stream only, once', async () => {
      const store = backend.make();
      const c = chat();
      expect(await store.requestStop(c)).toBe(false);
      const id = await store.begin(c);
      const calls: string[] = [];
      const unwatchOther = store.watchStop(c, 'not-this-one', () => calls.push('other'));
      const unwatch = store.watchStop(c, id, () => calls.push('runner'));
      expect(await store.requestStop(c)).toBe(true);
      await expect.poll(() => calls).toEqual(['runner']);
      expect(await store.requestStop(c)).toBe(true);
      await pause(150);
      expect(calls).toEqual(['runner']);
      unwatchOther();
      unwatch();
      const late = store.watchStop(c, id, () => calls.push('late'));
      await expect.poll(() => calls).toEqual(['runner', 'late']);
      late();
      await store.end(c, id);
      expect(await store.requestStop(c)).toBe(false);
    });

    it('refuses a full stream, chunks that are not JSON and hostile chat ids, naming them', async () => {
      const store = backend.make({ maxChunks: 2 });
      const c = chat();
      const id = await store.begin(c);
      await store.append(c, id, delta(1));
      await store.append(c, id, delta(2));
      await expect(store.append(c, id, delta(3))).rejects.toThrow(/is full \(at most 2 chunks/);
      await expect(store.append(c, id, 5 as never)).rejects.toThrow('chunk must be a JSON object');
      for (const chatId of ['', 'x'.repeat(257), 5, null]) {
        await expect(store.begin(chatId as never)).rejects.toThrow(
          /chatId must be a non-empty string/,
        );
        await expect(resumeUIMessageStream({ store, chatId: chatId as never })).rejects.toThrow(
          /resumeUIMessageStream: chatId/,
        );
      }
      // Ids with separators, braces and wildcards are ids like any other, kept apart.
      const ids = ['a:b', 'a', '*', '{a}', 'a}:b'];
      for (const [n, chatId] of ids.entries()) {
        const own = await store.begin(chatId);
        await store.append(chatId, own, delta(n));
      }
      for (const [n, chatId] of ids.entries()) {
        const controller = new AbortController();
        const chunks = await store.read(chatId, { signal: controller.signal });
        const iterator = chunks?.[Symbol.asyncIterator]();
        expect((await iterator?.next())?.value).toEqual(delta(n));
        controller.abort();
      }
    });
  });
};
