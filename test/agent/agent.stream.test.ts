/**
 * `agent.stream` (issue #16 §3): typed events named as the AI SDK names its stream parts, the
 * memory's effects as they happen, `finish` last with what `run` resolves to; memory records each
 * complete assistant message once; an abort keeps what the user saw, marked, and memory stays
 * valid.
 */
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  modelView,
  validateTranscript,
  type AgentStreamEvent,
  type CompletionRequest,
  type CompletionStreamPart,
  type Message,
  type Provider,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';

const collect = async (events: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> => {
  const seen: AgentStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
};

const textOf = (events: readonly AgentStreamEvent[]): string =>
  events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');

/** A provider that streams its reply word by word, waiting on `gate` before the word `at`. */
const wordStreamer = (
  reply: (request: CompletionRequest, call: number) => Message,
  pause?: { at: number; gate: Promise<void> },
): Provider & { requests: CompletionRequest[] } => {
  const requests: CompletionRequest[] = [];
  return {
    name: 'words',
    defaultModel: 'words-1',
    requests,
    complete: async (request) => {
      requests.push(request);
      return { message: reply(request, requests.length) };
    },
    async *stream(request): AsyncIterable<CompletionStreamPart> {
      requests.push(request);
      const message = reply(request, requests.length);
      const words = (message.content ?? '').split(/(?<= )/);
      for (const [i, word] of words.entries()) {
        if (pause !== undefined && i === pause.at) await pause.gate;
        request.signal?.throwIfAborted();
        yield { type: 'text-delta', text: word };
      }
      for (const call of message.toolCalls ?? []) {
        yield {
          type: 'tool-call',
          toolCallId: call.id ?? '',
          toolName: call.name,
          input: call.parameters,
        };
      }
      yield {
        type: 'finish',
        result: { message, usage: { inputTokens: 1, outputTokens: words.length } },
      };
    },
  };
};

describe('agent.stream', () => {
  it('yields deltas, tool calls, tool results and memory effects in order, then finish', async () => {
    const memory = new ConversationMemory({ maxMessages: 3, tokenizer: 'heuristic' });
    const provider = wordStreamer((_, call) =>
      call === 1
        ? {
            role: 'assistant',
            content: 'Let me add. ',
            toolCalls: [{ id: 'c1', name: 'calc', parameters: { a: 2, b: 2 } }],
          }
        : { role: 'assistant', content: 'The sum is 4.' },
    );
    const agent = createAgent({
      provider,
      memory,
      tools: [
        {
          name: 'calc',
          description: 'adds',
          parameters: { type: 'object' },
          execute: ({ a, b }) => Number(a) + Number(b),
        },
      ],
    });
    const events = await collect(agent.stream('2 + 2?', { runId: 's1' }));
    const kinds = events.map((event) =>
      event.type === 'memory-effect' ? `effect:${event.effect.type}` : event.type,
    );
    // maxMessages 3: the final answer trims the question (reference policy).
    expect(kinds).toEqual([
      'text-delta',
      'text-delta',
      'text-delta',
      'tool-call',
      'tool-result',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'effect:memory/trimmed',
      'finish',
    ]);
    expect(textOf(events)).toBe('Let me add. The sum is 4.');
    expect(events.find((event) => event.type === 'tool-call')).toEqual({
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'calc',
      input: { a: 2, b: 2 },
    });
    expect(events.find((event) => event.type === 'tool-result')).toEqual({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'calc',
      output: '4',
      isError: false,
    });
    const finish = events.at(-1);
    expect(finish).toEqual({
      type: 'finish',
      result: {
        runId: 's1',
        message: {
          role: 'assistant',
          content: 'The sum is 4.',
          metadata: { usage: { inputTokens: 1, outputTokens: 4 } },
        },
        iterations: 2,
        stopReason: 'final',
      },
    });
    // Each complete assistant message was recorded once.
    // The reference's boundary rule then drops the leading tool turn too.
    expect(memory.getHistory().map((m) => m.content)).toEqual(['The sum is 4.']);
  });

  it('finishes with what run resolves to, for a provider that cannot stream (one delta)', async () => {
    const streamed = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory(),
    });
    const ran = createAgent({ provider: new LocalProvider(), memory: new ConversationMemory() });
    const events = await collect(streamed.stream('my name is Ada', { runId: 'x' }));
    const result = await ran.run('my name is Ada', { runId: 'x' });
    expect(events.at(-1)).toEqual({ type: 'finish', result });
    expect(textOf(events)).toBe(result.message.content);
    expect(streamed.memory?.state).toEqual(ran.memory?.state);
  });

  it('an abort mid-stream keeps the text the user saw, marked, and memory stays valid', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const memory = new ConversationMemory({ maxMessages: 20, tokenizer: 'heuristic' });
    const provider = wordStreamer(() => ({ role: 'assistant', content: 'one two three four' }), {
      at: 2,
      gate,
    });
    const controller = new AbortController();
    const agent = createAgent({ provider, memory });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of agent.stream('count', { signal: controller.signal })) {
        if (event.type === 'text-delta') {
          seen.push(event.text);
          if (seen.length === 2) {
            controller.abort(new Error('user pressed stop'));
            open();
          }
        }
      }
    })();
    await expect(reading).rejects.toThrow('user pressed stop');
    expect(seen).toEqual(['one ', 'two ']);
    const last = memory.getHistory().at(-1);
    expect(last).toEqual({
      role: 'assistant',
      content: 'one two ',
      metadata: { interrupted: true },
    });
    expect(
      validateTranscript(modelView(memory.state, { target: 'anthropic' }).messages, 'anthropic'),
    ).toEqual([]);
    // The next run goes on from there.
    await expect(agent.run('again')).resolves.toMatchObject({ stopReason: 'final' });
  });

  it('leaving the loop early aborts the run and keeps what was streamed', async () => {
    let signal: AbortSignal | undefined;
    const memory = new ConversationMemory({ maxMessages: 20, tokenizer: 'heuristic' });
    const provider: Provider = {
      name: 'slow',
      defaultModel: 'slow-1',
      complete: async () => ({ message: { role: 'assistant', content: 'never' } }),
      async *stream(request) {
        signal = request.signal;
        yield { type: 'text-delta', text: 'Thinking' };
        await new Promise((_, reject) =>
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason)),
        );
      },
    };
    const agent = createAgent({ provider, memory });
    for await (const event of agent.stream('hi')) {
      expect(event).toEqual({ type: 'text-delta', text: 'Thinking' });
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signal?.aborted).toBe(true);
    expect(memory.getHistory()).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Thinking', metadata: { interrupted: true } },
    ]);
  });

  it('an abort before any text keeps nothing of the reply', async () => {
    const memory = new ConversationMemory({ maxMessages: 20, tokenizer: 'heuristic' });
    const controller = new AbortController();
    const provider: Provider = {
      name: 'slow',
      defaultModel: 'slow-1',
      complete: async () => ({ message: { role: 'assistant', content: 'never' } }),
      async *stream(request) {
        controller.abort(new Error('stop'));
        request.signal?.throwIfAborted();
        yield { type: 'text-delta', text: 'never' };
      },
    };
    const agent = createAgent({ provider, memory });
    await expect(collect(agent.stream('hi', { signal: controller.signal }))).rejects.toThrow(
      'stop',
    );
    expect(memory.getHistory()).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('a stream is iterated once', async () => {
    const events = createAgent({ provider: new LocalProvider() }).stream('hi');
    await collect(events);
    expect(() => events[Symbol.asyncIterator]()).toThrow('a stream can be iterated once');
  });
});
