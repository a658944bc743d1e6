/**
 * `RunOptions.messageId` (issue #31): every message a run makes is recorded with the id of the UI
 * message that shows its reply (replies, tool results, the kept part of an interrupted reply,
 * answers to calls not run); the input keeps its own; without the option nothing changes.
 * `agent.stream` tells the ids before the run starts.
 */
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  InMemoryEventStore,
  InvalidMessageError,
  type AgentTool,
  type Provider,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';

const clock: AgentTool = {
  name: 'get_time',
  description: 'The time of day in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  execute: ({ city }) => `noon in ${String(city)}`,
};

const drain = async (events: AsyncIterable<unknown>): Promise<number> => {
  let count = 0;
  for await (const event of events) if (event !== undefined) count++;
  return count;
};

const fresh = () => new ConversationMemory({ maxMessages: 40, tokenizer: 'heuristic' });

describe('RunOptions.messageId', () => {
  it('records every message of a tool run with the id, and not the input', async () => {
    const memory = fresh();
    const agent = createAgent({ provider: new LocalProvider(), memory, tools: [clock] });
    const stream = agent.stream('/call get_time {"city": "Oslo"}', {
      messageId: 'reply-1',
      runId: 'run-1',
    });
    expect([stream.runId, stream.messageId]).toEqual(['run-1', 'reply-1']);
    await drain(stream);
    expect(memory.getHistory().map((m) => [m.role, m.id])).toEqual([
      ['user', undefined],
      ['assistant', 'reply-1'],
      ['tool', 'reply-1'],
      ['assistant', 'reply-1'],
    ]);
    const result = await agent.run('hello', { messageId: 'reply-2' });
    expect(result.message.id).toBe('reply-2');
    expect(memory.getHistory().at(-1)?.id).toBe('reply-2');
  });

  it('without it, the state is what it is today, and the stream says undefined', async () => {
    const withId = fresh();
    const without = fresh();
    const a = createAgent({ provider: new LocalProvider(), memory: without, tools: [clock] });
    const stream = a.stream('/call get_time {"city": "Rome"}');
    expect(stream.messageId).toBeUndefined();
    expect(typeof stream.runId).toBe('string');
    await drain(stream);
    const b = createAgent({ provider: new LocalProvider(), memory: withId, tools: [clock] });
    await drain(b.stream('/call get_time {"city": "Rome"}', { messageId: 'm' }));
    expect(without.getHistory().every((m) => m.id === undefined)).toBe(true);
    const stripped = withId.getHistory().map((message) => {
      const { id, ...rest } = message;
      expect(id).toBe(message.role === 'user' ? undefined : 'm');
      return rest;
    });
    expect(stripped).toEqual(without.getHistory());
  });

  it('the kept part of an interrupted reply carries the id', async () => {
    const memory = fresh();
    const provider: Provider = {
      name: 'slow',
      defaultModel: 'slow-1',
      complete: async () => ({ message: { role: 'assistant', content: 'never' } }),
      async *stream(request) {
        yield { type: 'text-delta', text: 'Thinking' };
        await new Promise((_, reject) =>
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason)),
        );
      },
    };
    const agent = createAgent({ provider, memory });
    for await (const event of agent.stream('hi', { messageId: 'cut' })) {
      expect(event.type).toBe('text-delta');
      break;
    }
    await expect.poll(() => memory.getHistory().length).toBe(2);
    expect(memory.getHistory()[1]).toEqual({
      role: 'assistant',
      content: 'Thinking',
      id: 'cut',
      metadata: { interrupted: true },
    });
  });

  it('an event-sourced agent appends the messages with the id', async () => {
    const store = new InMemoryEventStore();
    const agent = createAgent({
      provider: new LocalProvider(),
      tools: [clock],
      eventStore: { store, streamId: 'chat-1', config: { tokenizer: 'heuristic' } },
    });
    await drain(agent.stream('/call get_time {"city": "Lima"}', { messageId: 'ui-9' }));
    const loaded = await store.load('chat-1');
    expect(loaded?.state.messages.map((m) => m.id)).toEqual([undefined, 'ui-9', 'ui-9', 'ui-9']);
  });

  it.each([[''], [7], ['x'.repeat(257)], [null]])(
    'refuses messageId %j, naming the option',
    (messageId) => {
      const agent = createAgent({ provider: new LocalProvider() });
      expect(() => agent.stream('hi', { messageId } as never)).toThrow(InvalidMessageError);
      expect(() => agent.stream('hi', { messageId } as never)).toThrow(/options\.messageId/);
    },
  );
});
