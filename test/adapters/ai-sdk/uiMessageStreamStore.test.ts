/**
 * The UI message stream store (issue #31 §3) in one process, and what runs on it: a reader that
 * comes late gets the stream from its first chunk then live ones; a new stream replaces the old;
 * ended streams linger, then go; an unfinished stream whose writer went quiet expires; stop
 * requests reach the runner; limits and hostile chat ids are refused with errors that name them.
 * `toUIMessageStream({ store })` keeps running when its reader leaves, `resumeUIMessageStream`
 * gives the whole reply, and `store.requestStop` stops the run, keeping what was streamed.
 */
import fc from 'fast-check';
import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  MemoryArgumentError,
  type Provider,
} from 'conversation-memory';
import {
  createMemoryUIMessageStreamStore,
  resumeUIMessageStream,
  resumeUIMessageStreamResponse,
  toUIMessageStream,
} from 'conversation-memory/ai-sdk';
import { LocalProvider } from 'conversation-memory/testing';
import { iterateStream } from '../../support/readStream';

const delta = (n: number): UIMessageChunk => ({ type: 'text-delta', id: 't', delta: `w${n} ` });

const drain = async (
  chunks: AsyncIterable<UIMessageChunk> | ReadableStream<UIMessageChunk> | null,
): Promise<UIMessageChunk[]> => {
  const out: UIMessageChunk[] = [];
  if (chunks === null) return out;
  const items = chunks instanceof ReadableStream ? iterateStream(chunks) : chunks;
  for await (const chunk of items) out.push(chunk);
  return out;
};

describe('createMemoryUIMessageStreamStore', () => {
  it('any interleaving of appends and late readers: every reader sees exactly the appended chunks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }), async (steps) => {
        const store = createMemoryUIMessageStreamStore();
        const id = await store.begin('c');
        const readers: Promise<UIMessageChunk[]>[] = [];
        const appended: UIMessageChunk[] = [];
        for (const [n, startReader] of steps.entries()) {
          if (startReader) readers.push(drain(await store.read('c')));
          const chunk = delta(n);
          appended.push(chunk);
          await store.append('c', id, chunk);
        }
        readers.push(drain(await store.read('c')));
        await store.end('c', id);
        for (const seen of await Promise.all(readers)) expect(seen).toEqual(appended);
      }),
      { numRuns: 60 },
    );
  });

  it('a new stream replaces the old: its readers end, its writer is refused', async () => {
    const store = createMemoryUIMessageStreamStore();
    const first = await store.begin('c');
    await store.append('c', first, delta(1));
    const reading = drain(await store.read('c'));
    const second = await store.begin('c');
    expect(await reading).toEqual([delta(1)]);
    await expect(store.append('c', first, delta(2))).rejects.toThrow(
      /is not the active stream of chat "c"/,
    );
    await store.append('c', second, delta(3));
    await store.end('c', second);
    expect(await drain(await store.read('c'))).toEqual([delta(3)]);
  });

  it('an ended stream lingers, then is gone; an unfinished one expires after ttl without writes', async () => {
    let now = 1_000;
    const store = createMemoryUIMessageStreamStore({ ttl: 5_000, linger: 2_000, now: () => now });
    const ended = await store.begin('done');
    await store.append('done', ended, delta(1));
    await store.end('done', ended);
    now += 1_999;
    expect(await drain(await store.read('done'))).toEqual([delta(1)]);
    now += 2;
    expect(await store.read('done')).toBeNull();
    const quiet = await store.begin('quiet');
    await store.append('quiet', quiet, delta(1));
    now += 4_000;
    await store.append('quiet', quiet, delta(2));
    now += 4_000;
    expect(await store.read('quiet')).not.toBeNull();
    now += 1_001;
    expect(await store.read('quiet')).toBeNull();
    await expect(store.append('quiet', quiet, delta(3))).rejects.toThrow(MemoryArgumentError);
    expect(await resumeUIMessageStream({ store, chatId: 'quiet' })).toBeNull();
    expect((await resumeUIMessageStreamResponse({ store, chatId: 'quiet' })).status).toBe(204);
  });

  it('a stop request reaches the watcher of the active stream only, once', async () => {
    const store = createMemoryUIMessageStreamStore();
    expect(await store.requestStop('c')).toBe(false);
    const id = await store.begin('c');
    const calls: string[] = [];
    const unwatchOther = store.watchStop('c', 'not-this-one', () => calls.push('other'));
    store.watchStop('c', id, () => calls.push('runner'));
    expect(await store.requestStop('c')).toBe(true);
    expect(await store.requestStop('c')).toBe(true);
    unwatchOther();
    expect(calls).toEqual(['runner']);
    // A watcher that comes after the request is told too.
    store.watchStop('c', id, () => calls.push('late'));
    await Promise.resolve();
    expect(calls).toEqual(['runner', 'late']);
    await store.end('c', id);
    expect(await store.requestStop('c')).toBe(false);
  });

  it('refuses a full stream, chunks that are not JSON, hostile chat ids and bad options, naming them', async () => {
    const store = createMemoryUIMessageStreamStore({ maxChunks: 2 });
    const id = await store.begin('c');
    await store.append('c', id, delta(1));
    await store.append('c', id, delta(2));
    await expect(store.append('c', id, delta(3))).rejects.toThrow(/is full \(at most 2 chunks/);
    await expect(store.append('c', id, { type: 'x', f: () => 1 } as never)).rejects.toThrow(
      MemoryArgumentError,
    );
    for (const chatId of ['', 'x'.repeat(257), 5, null]) {
      await expect(store.begin(chatId as never)).rejects.toThrow(
        /chatId must be a non-empty string/,
      );
      await expect(resumeUIMessageStream({ store, chatId: chatId as never })).rejects.toThrow(
        /resumeUIMessageStream: chatId/,
      );
    }
    // Ids with separators are just ids.
    for (const chatId of ['a:b', '*', 'a/../b']) {
      const own = await store.begin(chatId);
      await store.end(chatId, own);
    }
    expect(() => createMemoryUIMessageStreamStore({ ttl: -1 })).toThrow(
      'options.ttl must be a positive integer, received -1',
    );
    expect(() => createMemoryUIMessageStreamStore({ tll: 1 } as never)).toThrow(
      'options.tll is not an option',
    );
  });
});

/** LocalProvider with each text part held until `step()` lets it through. */
const gatedProvider = (): Provider & { step(): void } => {
  const local = new LocalProvider();
  const open: (() => void)[] = [];
  let credit = 0;
  const wait = () =>
    credit > 0 ? (credit--, Promise.resolve()) : new Promise<void>((resolve) => open.push(resolve));
  return {
    name: 'gated',
    defaultModel: 'local-1',
    complete: (request) => local.complete(request),
    stream: (request) => ({
      async *[Symbol.asyncIterator]() {
        for await (const part of local.stream(request)) {
          if (part.type === 'text-delta') await wait();
          request.signal?.throwIfAborted();
          yield part;
        }
      },
    }),
    step: () => {
      const next = open.shift();
      if (next === undefined) credit++;
      else next();
    },
  };
};

describe('toUIMessageStream with a store', () => {
  it('the run goes on when its reader leaves; a reader that comes back gets the whole reply', async () => {
    const store = createMemoryUIMessageStreamStore();
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    const provider = gatedProvider();
    const agent = createAgent({ provider, memory });
    const stream = toUIMessageStream(agent.stream('hello there', { messageId: 'm1' }), {
      store,
      chatId: 'c',
    });
    const reader = stream.getReader();
    provider.step();
    while ((await reader.read()).value?.type !== 'text-delta');
    await reader.cancel(); // the page went away
    const resumed = await resumeUIMessageStream({ store, chatId: 'c' });
    for (let i = 0; i < 20; i++) provider.step();
    const chunks = await drain(resumed);
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'm1' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    const text = chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
    expect(text).toBe('You said: "hello there". I can see 0 earlier messages.');
    await expect.poll(() => memory.getHistory().at(-1)?.content).toBe(text);
  });

  it('store.requestStop stops the run: abort and finish, the streamed part kept interrupted', async () => {
    const store = createMemoryUIMessageStreamStore();
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    const provider = gatedProvider();
    const agent = createAgent({ provider, memory });
    const finished: boolean[] = [];
    const chunks = drain(
      toUIMessageStream(agent.stream('hello there', { messageId: 'm2' }), {
        store,
        chatId: 'c2',
        onFinish: ({ isAborted }) => void finished.push(isAborted),
      }),
    );
    provider.step();
    provider.step();
    await expect.poll(async () => (await drain(await peek(store, 'c2'))).length).toBeGreaterThan(3);
    expect(await store.requestStop('c2')).toBe(true);
    provider.step();
    const seen = await chunks;
    expect(seen.slice(-2)).toEqual([{ type: 'abort' }, { type: 'finish' }]);
    expect(finished).toEqual([true]);
    await expect.poll(() => memory.getHistory().length).toBe(2);
    expect(memory.getHistory()[1]).toMatchObject({
      id: 'm2',
      content: 'You said: ',
      metadata: { interrupted: true },
    });
  });
});

/** The chunks a store holds so far for a chat (a reader stopped at once). */
const peek = async (
  store: ReturnType<typeof createMemoryUIMessageStreamStore>,
  chatId: string,
): Promise<AsyncIterable<UIMessageChunk> | null> => {
  const controller = new AbortController();
  const chunks = await store.read(chatId, { signal: controller.signal });
  controller.abort();
  return chunks;
};
