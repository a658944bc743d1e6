/**
 * `createAgent({ recall })` (issue #32 §2): before each main model call, what left the window and
 * matches the user's latest message is quoted in the request, from the agent's memory (or
 * session) and from its event stream (what another agent on the same stream trimmed counts too);
 * a clear forgets it all; a wrong option is an `AgentConfigError` naming it.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentConfigError,
  ConversationMemory,
  InMemoryEventStore,
  createAgent,
  type CompletionRequest,
  type Provider,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';

const FACT = 'My sister Noor ordered her wedding cake from Belmonte Patisserie.';
const HEADER = '[Earlier in this conversation]';

/** The real LocalProvider, with every request it gets kept. */
const recording = () => {
  const local = new LocalProvider();
  const requests: CompletionRequest[] = [];
  const provider: Provider = {
    name: 'recording',
    defaultModel: 'local',
    complete: (request) => {
      requests.push(request);
      return local.complete(request);
    },
  };
  const lastBlock = () =>
    requests.at(-1)?.messages.find((m) => m.role === 'system' && m.content?.startsWith(HEADER))
      ?.content ?? undefined;
  return { provider, requests, lastBlock };
};

const chat = async (agent: { run(text: string): Promise<unknown> }, turns: number) => {
  for (let i = 0; i < turns; i++) await agent.run(`Turn ${i}: is the train to town ${i} on time?`);
};

describe('createAgent({ recall })', () => {
  it('quotes a fact the memory trimmed long ago when the question needs it, not otherwise', async () => {
    const { provider, lastBlock } = recording();
    const memory = new ConversationMemory({ maxMessages: 10 });
    const agent = createAgent({ provider, memory, recall: { budget: 300 } });
    await agent.run(FACT);
    await chat(agent, 30);
    expect(memory.getHistory().some((m) => m.content === FACT)).toBe(false);
    await agent.run('What is the capital of Portugal?');
    expect(lastBlock()).toBeUndefined();
    await agent.run('Which bakery made the cake for my sister?');
    expect(lastBlock()?.startsWith(`${HEADER}\nUser: ${FACT}\n`)).toBe(true);
  });

  it('without recall, the request never holds the fact', async () => {
    const { provider, requests } = recording();
    const agent = createAgent({ provider, memory: new ConversationMemory({ maxMessages: 10 }) });
    await agent.run(FACT);
    await chat(agent, 30);
    await agent.run('Which bakery made the cake for my sister?');
    expect(JSON.stringify(requests.at(-1))).not.toContain('Belmonte');
  });

  it('with an event store, reads the stream: what another agent trimmed is recalled', async () => {
    const store = new InMemoryEventStore();
    const eventStore = { store, streamId: 'chat-1', config: { maxMessages: 10 } };
    const first = createAgent({ provider: new LocalProvider(), eventStore });
    await first.run(FACT);
    await chat(first, 30);
    const { provider, lastBlock } = recording();
    const second = createAgent({ provider, eventStore, recall: { budget: 300, k: 2 } });
    await second.run('Which bakery made the cake for my sister?');
    expect(lastBlock()?.startsWith(`${HEADER}\nUser: ${FACT}\n`)).toBe(true);
    // A deleted stream starts over: nothing of it comes back.
    await store.delete('chat-1');
    await second.run('Which bakery made the cake for my sister?');
    expect(lastBlock()).toBeUndefined();
  });

  it('with a pruned event stream: a new agent runs, neither it nor a live one recalls the pruned actions, and what leaves later is recalled', async () => {
    const store = new InMemoryEventStore({ snapshotEvery: 8 });
    const eventStore = { store, streamId: 'chat-1', config: { maxMessages: 10 } };
    const writer = createAgent({ provider: new LocalProvider(), eventStore });
    await writer.run(FACT);
    await chat(writer, 30);
    const live = recording();
    const liveAgent = createAgent({
      provider: live.provider,
      eventStore,
      recall: { budget: 300, k: 2 },
    });
    const question = 'Which bakery made the cake for my sister?';
    await liveAgent.run(question);
    expect(live.lastBlock()?.startsWith(`${HEADER}\nUser: ${FACT}\n`)).toBe(true);
    // Retention: every action but the last four is pruned, the fact's among them.
    const [stream] = await store.streams();
    expect(await store.prune('chat-1', { before: (stream?.version ?? 0) - 4 })).toMatchObject({
      removed: expect.any(Number),
    });
    await liveAgent.run(question);
    expect(live.lastBlock()).toBeUndefined();
    // A new process's agent reads the stream from its first version (it used to fail at version 0).
    const fresh = recording();
    const freshAgent = createAgent({
      provider: fresh.provider,
      eventStore,
      recall: { budget: 300 },
    });
    await freshAgent.run(question);
    expect(fresh.lastBlock()).toBeUndefined();
    // What leaves the window after the prune is recalled by both.
    const later = 'The spare key to the allotment shed hangs behind the red fuse box.';
    await writer.run(later);
    await chat(writer, 12);
    await liveAgent.run('Where is the spare key for the allotment shed?');
    expect(live.lastBlock()?.startsWith(`${HEADER}\nUser: ${later}\n`)).toBe(true);
    await freshAgent.run('Where is the spare key for the allotment shed?');
    expect(fresh.lastBlock()?.startsWith(`${HEADER}\nUser: ${later}\n`)).toBe(true);
  });

  it('forgets everything at a clear', async () => {
    const { provider, lastBlock } = recording();
    const memory = new ConversationMemory({ maxMessages: 10 });
    const agent = createAgent({ provider, memory, recall: { budget: 300 } });
    await agent.run(FACT);
    await chat(agent, 30);
    await agent.clearMemory();
    await agent.run('Which bakery made the cake for my sister?');
    expect(lastBlock()).toBeUndefined();
  });

  it('names the field and the value of a wrong recall option', () => {
    const provider = new LocalProvider();
    const memory = new ConversationMemory();
    const cases: [unknown, RegExp][] = [
      [{ budget: 0 }, /recall\.budget must be an integer ≥ 1, received 0/],
      [{ budget: 10, k: 1001 }, /recall\.k must be an integer from 1 to 1000, received 1001/],
      [{ budget: 10, topK: 2 }, /topK.*k/],
      [5, /recall must be an object/],
    ];
    for (const [recall, message] of cases) {
      expect(() => createAgent({ provider, memory, recall: recall as never })).toThrow(message);
    }
    expect(() => createAgent({ provider, recall: { budget: 10 } })).toThrow(AgentConfigError);
    expect(() => createAgent({ provider, recall: { budget: 10 } })).toThrow(
      /recall needs memory, session or eventStore/,
    );
  });
});
