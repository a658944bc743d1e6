/**
 * The UI message stream store (issue #31 §3) in one process, and what runs on it: a reader that
 * comes late gets the stream from its first chunk then live ones; a new stream replaces the old;
 * ended streams linger, then go; an unfinished stream whose writer went quiet expires; stop
 * requests reach the runner; limits and hostile chat ids are refused with errors that name them.
 * `toUIMessageStream({ store })` keeps running when its reader leaves, `resumeUIMessageStream`
 * gives the whole reply, and `store.requestStop` stops the run, keeping what was streamed.
 */
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
  toUIMessageStream,
} from 'conversation-memory/ai-sdk';
import { LocalProvider } from 'conversation-memory/testing';
import { iterateStream } from '../../support/readStream';
import { delta, describeUIMessageStreamStore } from '../../support/uiMessageStreamStoreCases';

const drain = async (
  chunks: AsyncIterable<UIMessageChunk> | ReadableStream<UIMessageChunk> | null,
): Promise<UIMessageChunk[]> => {
  const out: UIMessageChunk[] = [];
  if (chunks === null) return out;
  const items = chunks instanceof ReadableStream ? iterateStream(chunks) : chunks;
  for await (const chunk of items) out.push(chunk);
  return out;
};

describeUIMessageStreamStore({
  name: 'in memory',
  make: (options) => createMemoryUIMessageStreamStore(options),
});

describe('createMemoryUIMessageStreamStore', () => {
  it('expires by its clock (now), without waiting', async () => {
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
    now += 5_001;
    expect(await store.read('quiet')).toBeNull();
    await expect(store.append('quiet', quiet, delta(2))).rejects.toThrow(MemoryArgumentError);
  });

  it('refuses bad options, naming them', () => {
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
