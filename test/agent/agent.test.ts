import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AgentConfigError,
  ConversationMemory,
  createAgent,
  InvalidMessageError,
  ProviderResponseError,
  validateTranscript,
  type AgentTool,
  type Message,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { assistant, call, contents, system, user } from '../helpers';
import { numberedReplies, scriptedProvider } from '../support/scriptedProvider';

const calc: AgentTool = {
  name: 'calc',
  description: 'Adds a and b',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  execute: ({ a, b }) => Number(a) + Number(b),
};

/** A model that asks for `calls` on its first reply, then answers with the results it saw. */
const toolThenAnswer = (...calls: ReturnType<typeof call>[]) =>
  scriptedProvider((request, n) =>
    n === 1
      ? { role: 'assistant', content: null, toolCalls: calls }
      : {
          role: 'assistant',
          content: `results: ${request.messages
            .filter((m) => m.role === 'tool')
            .map((m) => m.content)
            .join(', ')}`,
        },
  );

describe('createAgent: the seed flow', () => {
  it('keeps context across runs with memory (the seed example, on LocalProvider)', async () => {
    const agent = createAgent({ provider: new LocalProvider(), memory: new ConversationMemory() });
    await agent.run('My name is Alice');
    const { message, iterations, runId } = await agent.run("What's my name?");
    expect(message).toEqual({
      role: 'assistant',
      content: 'Your name is Alice.',
      // The call's usage, as LocalProvider counts it, recorded with the reply.
      metadata: { usage: { inputTokens: 14, outputTokens: 5 } },
    });
    expect(iterations).toBe(1);
    expect(typeof runId).toBe('string');
  });

  it('makes runs independent without memory', async () => {
    const agent = createAgent({ provider: new LocalProvider() });
    await agent.run('My name is Alice');
    const { message } = await agent.run("What's my name?");
    expect(message.content).toBe('I don\'t know your name yet. Tell me with "my name is …".');
    expect(agent.memory).toBeUndefined();
  });

  it('takes a string, a message or a list of messages, adding them with the history first', async () => {
    const provider = numberedReplies('r');
    const memory = new ConversationMemory();
    const agent = createAgent({ provider, memory });
    await agent.run('one');
    await agent.run(user('two'));
    await agent.run([system('be brief'), user('three')]);
    expect(contents(memory.getHistory())).toEqual([
      'one',
      'r1',
      'two',
      'r2',
      'be brief',
      'three',
      'r3',
    ]);
    expect(contents(provider.requests[2]?.messages ?? [])).toEqual([
      'one',
      'r1',
      'two',
      'r2',
      'be brief',
      'three',
    ]);
    expect(memory.getPositions()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('adds each tool-call message and each result to memory as they happen', async () => {
    const memory = new ConversationMemory();
    const provider = toolThenAnswer(
      call('c1', 'calc', { a: 2, b: 2 }),
      call('c2', 'calc', { a: 1, b: 5 }),
    );
    const seen: number[] = [];
    memory.subscribe(() => seen.push(memory.length));
    const agent = createAgent({ provider, memory, tools: [calc] });
    const result = await agent.run('add');
    expect(result).toMatchObject({ message: { content: 'results: 4, 6' }, iterations: 2 });
    expect(memory.getHistory()).toEqual([
      user('add'),
      assistant(null, call('c1', 'calc', { a: 2, b: 2 }), call('c2', 'calc', { a: 1, b: 5 })),
      { role: 'tool', content: '4', toolCallId: 'c1', toolName: 'calc' },
      { role: 'tool', content: '6', toolCallId: 'c2', toolName: 'calc' },
      { role: 'assistant', content: 'results: 4, 6' },
    ]);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(provider.requests[0]?.tools).toEqual([
      { name: 'calc', description: calc.description, parameters: calc.parameters },
    ]);
  });

  it('sends model, system prompt and tools; the provider default model when none is set', async () => {
    const provider = numberedReplies('r');
    await createAgent({ provider, config: { systemPrompt: 'Be kind.' } }).run('hi');
    await createAgent({ provider, config: { model: 'm-2' } }).run('hi');
    expect(provider.requests.map((r) => [r.model, r.systemPrompt, r.tools])).toEqual([
      ['r-model', 'Be kind.', undefined],
      ['m-2', '', undefined],
    ]);
  });
});

describe('tools', () => {
  const run = async (tool: AgentTool, name = tool.name): Promise<Message | undefined> => {
    const memory = new ConversationMemory();
    await createAgent({ provider: toolThenAnswer(call('c1', name)), memory, tools: [tool] }).run(
      'go',
    );
    return memory.getHistory()[2];
  };
  const tool = (execute: AgentTool['execute']): AgentTool => ({ ...calc, name: 't', execute });

  it('keeps a string result as it is and writes other values as JSON', async () => {
    expect((await run(tool(() => 'plain')))?.content).toBe('plain');
    expect((await run(tool(() => ({ ok: true, n: [1] }))))?.content).toBe('{"ok":true,"n":[1]}');
    expect((await run(tool(async () => 42)))?.content).toBe('42');
    expect((await run(tool(() => null)))?.content).toBe('null');
    expect((await run(tool(() => undefined)))?.content).toBe('');
  });

  it('turns a tool that throws or rejects into a result message with the error text', async () => {
    expect(
      await run(
        tool(() => {
          throw new Error('disk full');
        }),
      ),
    ).toEqual({
      role: 'tool',
      content: 'Error: tool "t" failed: Error: disk full',
      toolCallId: 'c1',
      toolName: 't',
    });
    expect((await run(tool(() => Promise.reject(new TypeError('bad')))))?.content).toBe(
      'Error: tool "t" failed: TypeError: bad',
    );
    expect((await run(tool(() => 10n)))?.content).toMatch(
      /^Error: tool "t" returned a value that cannot be written as JSON: TypeError/,
    );
  });

  it('answers an unknown tool name with an error result, not a crash', async () => {
    expect((await run(calc, 'nope'))?.content).toBe(
      'Error: unknown tool "nope"; available tools: "calc"',
    );
  });

  it('gives a tool call without an id one, so its result can answer it', async () => {
    const memory = new ConversationMemory({ toolPairs: 'strict' });
    const provider = toolThenAnswer({ name: 'calc', parameters: { a: 1, b: 1 } });
    await createAgent({ provider, memory, tools: [calc] }).run('go', { runId: 'R' });
    const [, request, result] = memory.getHistory();
    expect(request?.toolCalls?.[0]?.id).toBe('R-1-0');
    expect(result?.toolCallId).toBe('R-1-0');
    expect(validateTranscript(memory.getHistory(), 'openai')).toEqual([]);
  });
});

describe('maxIterations', () => {
  const looping = () =>
    scriptedProvider((_, n) => ({
      role: 'assistant',
      content: null,
      toolCalls: [call(`c${n}`, 'calc', { a: n, b: 0 })],
    }));

  it('stops the loop, answers the last calls and ends memory with a final assistant message', async () => {
    const memory = new ConversationMemory({ maxMessages: 100 });
    const provider = looping();
    const result = await createAgent({
      provider,
      memory,
      tools: [calc],
      config: { maxIterations: 3 },
    }).run('loop');
    expect(provider.requests).toHaveLength(3);
    expect(result.iterations).toBe(3);
    expect(result.stopReason).toBe('maxIterations');
    const notice =
      'Stopped: the agent reached maxIterations (3) before the model gave a final answer.';
    expect(result.message).toEqual({ role: 'assistant', content: notice });
    const history = memory.getHistory();
    expect(history.at(-1)).toEqual(result.message);
    expect(history.at(-2)).toEqual({
      role: 'tool',
      content: `Not run: ${notice}`,
      toolCallId: 'c3',
      toolName: 'calc',
    });
    expect(validateTranscript(history, 'openai')).toEqual([]);
    expect(validateTranscript(history, 'anthropic')).toEqual([]);
  });

  it('defaults to 10 model calls', async () => {
    const provider = looping();
    const result = await createAgent({ provider, tools: [calc] }).run('loop');
    expect(provider.requests).toHaveLength(10);
    expect(result.iterations).toBe(10);
  });
});

describe('shared memory', () => {
  it('lets two agents share one memory, their runs taking turns', async () => {
    const memory = new ConversationMemory();
    const slow = scriptedProvider(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { role: 'assistant', content: 'slow' };
    });
    const fast = scriptedProvider(() => ({ role: 'assistant', content: 'fast' }));
    const a = createAgent({ provider: slow, memory });
    const b = createAgent({ provider: fast, memory });
    await Promise.all([a.run('to a'), b.run('to b')]);
    expect(contents(memory.getHistory())).toEqual(['to a', 'slow', 'to b', 'fast']);
    expect(contents(fast.requests[0]?.messages ?? [])).toEqual(['to a', 'slow', 'to b']);
  });

  it('per-user pattern: clear() between users keeps one user out of the next', async () => {
    const memory = new ConversationMemory();
    const agent = createAgent({ provider: new LocalProvider(), memory });
    await agent.run('My name is Alice');
    memory.clear();
    const { message } = await agent.run("What's my name?");
    expect(message.content).toMatch(/^I don't know your name yet/);
  });
});

describe('bad input and replies', () => {
  it('rejects invalid agent options naming the field and value', () => {
    const provider = new LocalProvider();
    const cases: [unknown, string][] = [
      [{}, 'provider must be an object with a complete(request) method, received undefined'],
      [
        { provider, config: { maxIterations: 0 } },
        'config.maxIterations must be an integer ≥ 1, received 0',
      ],
      [
        { provider, tools: [{ ...calc, name: '' }] },
        'tools[0].name must be a non-empty string, received ""',
      ],
      [{ provider, tools: [calc, calc] }, 'tools[1].name "calc" is used by two tools'],
      [
        { provider, tools: [{ ...calc, execute: 1 }] },
        'tools[0].execute must be a function, received 1',
      ],
      [{ provider, memory: {} }, 'memory must be a ConversationMemory, received an object'],
      [{ provider, config: { sumarizeOnTrim: true } }, 'config.sumarizeOnTrim is not an option'],
      [
        { provider: { name: 'x', complete: async () => ({}) } },
        'config.model is required: provider "x" names no defaultModel',
      ],
    ];
    for (const [options, text] of cases) {
      expect(() => createAgent(options as never)).toThrow(AgentConfigError);
      expect(() => createAgent(options as never)).toThrow(text);
    }
  });

  it('refuses every unknown config key with one check: the first, naming the key and the options', () => {
    // checkAgentOptions once checked config's keys a second time against the same ten names; this
    // class (any key that is not one of them) shows the first check refuses all of them.
    const known = [
      'model',
      'systemPrompt',
      'maxIterations',
      'summarizeOnTrim',
      'summarizeProvider',
      'summarizeModel',
      'summarizeMaxTokens',
      'onError',
      'maskToolResults',
      'markInterrupted',
      'cache',
      'cacheKey',
    ];
    const provider = new LocalProvider();
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !known.includes(key)),
        fc.anything(),
        (key, value) => {
          const error = (() => {
            try {
              createAgent({ provider, config: { [key]: value } as never });
            } catch (caught) {
              return caught;
            }
            return undefined;
          })();
          expect(error).toBeInstanceOf(AgentConfigError);
          expect((error as AgentConfigError).detail).toMatch(
            /^options\.config(\.|\[).* is not an option( \(did you mean \w+\?\))?; expected model, systemPrompt, maxIterations, summarizeOnTrim, summarizeProvider, summarizeModel, summarizeMaxTokens, onError, maskToolResults, markInterrupted, cache, cacheKey$/s,
          );
        },
      ),
    );
  });

  it('rejects an invalid input message before touching memory', async () => {
    const memory = new ConversationMemory();
    const agent = createAgent({ provider: new LocalProvider(), memory });
    await expect(agent.run([user('ok'), { role: 'USER', content: 'x' } as never])).rejects.toThrow(
      InvalidMessageError,
    );
    expect(memory.length).toBe(0);
  });

  it('rejects a provider reply that is not an assistant message with ProviderResponseError', async () => {
    const bad = scriptedProvider(() => ({ role: 'user', content: 'hi' }));
    await expect(createAgent({ provider: bad }).run('x')).rejects.toThrow(ProviderResponseError);
    const garbage = { name: 'g', defaultModel: 'g', complete: async () => ({ message: 42 }) };
    await expect(createAgent({ provider: garbage as never }).run('x')).rejects.toThrow(
      /g\.complete: the reply is not a valid message/,
    );
  });

  it('passes the run id and the abort signal through', async () => {
    const provider = numberedReplies('r');
    const controller = new AbortController();
    const result = await createAgent({ provider }).run('x', {
      runId: 'my-run',
      signal: controller.signal,
    });
    expect(result.runId).toBe('my-run');
    expect(provider.requests[0]?.signal).toBe(controller.signal);
  });
});

describe('review fixes: clearing, empty replies, aborts, tool arguments, call ids', () => {
  it('clearMemory waits for the run in flight, so the next user never sees the previous one', async () => {
    const memory = new ConversationMemory();
    const slow = scriptedProvider(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { role: 'assistant', content: `seen ${request.messages.length}` };
    });
    const agent = createAgent({ provider: slow, memory });
    const alice = agent.run('my card number is 4111');
    const cleared = agent.clearMemory();
    const bob = agent.run('hello');
    await Promise.all([alice, cleared, bob]);
    expect(contents(slow.requests[1]?.messages ?? [])).toEqual(['hello']);
    expect(contents(memory.getHistory())).toEqual(['hello', 'seen 1']);
    expect(await createAgent({ provider: slow }).clearMemory()).toEqual([]);
  });

  it('returns an empty final answer but does not keep it (providers refuse it mid-history)', async () => {
    const memory = new ConversationMemory();
    const silent = scriptedProvider(() => ({ role: 'assistant', content: '' }));
    const result = await createAgent({ provider: silent, memory }).run('hi');
    expect(result.message).toEqual({ role: 'assistant', content: '' });
    expect(memory.getHistory()).toEqual([user('hi')]);
    expect(validateTranscript([...memory.getHistory(), user('again')], 'anthropic')).toEqual([]);
  });

  it('an abort stops the remaining tools, answers their calls, and rejects the run', async () => {
    const memory = new ConversationMemory();
    const controller = new AbortController();
    const ran: string[] = [];
    const tool = (name: string): AgentTool => ({
      name,
      description: name,
      parameters: { type: 'object' },
      execute: () => {
        ran.push(name);
        if (name === 'a') controller.abort(new Error('user left'));
        return 'done';
      },
    });
    const provider = toolThenAnswer(call('c1', 'a'), call('c2', 'b'));
    const agent = createAgent({ provider, memory, tools: [tool('a'), tool('b')] });
    await expect(agent.run('go', { signal: controller.signal })).rejects.toThrow('user left');
    expect(ran).toEqual(['a']);
    expect(memory.getHistory().at(-1)).toEqual({
      role: 'tool',
      content: 'Not run: the run was aborted.',
      toolCallId: 'c2',
      toolName: 'b',
    });
    expect(validateTranscript(memory.getHistory(), 'openai')).toEqual([]);
  });

  it('gives a tool a mutable copy of its arguments and the run signal', async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const tool: AgentTool = {
      name: 'w',
      description: 'weather',
      parameters: { type: 'object' },
      execute: (args, context) => {
        args['units'] ??= 'celsius';
        signal = context.signal;
        return args;
      },
    };
    const memory = new ConversationMemory();
    await createAgent({
      provider: toolThenAnswer(call('c1', 'w', { city: 'Oslo' })),
      memory,
      tools: [tool],
    }).run('go', { signal: controller.signal });
    expect(memory.getHistory()[2]?.content).toBe('{"city":"Oslo","units":"celsius"}');
    expect(memory.getHistory()[1]?.toolCalls?.[0]?.parameters).toEqual({ city: 'Oslo' });
    expect(signal).toBe(controller.signal);
  });

  it('re-ids calls whose id is empty or repeated, so each result answers one call', async () => {
    const memory = new ConversationMemory();
    const provider = toolThenAnswer(call('', 'calc'), call('dup', 'calc'), call('dup', 'calc'));
    await createAgent({ provider, memory, tools: [calc] }).run('go', { runId: 'R' });
    const ids = memory.getHistory()[1]?.toolCalls?.map((c) => c.id);
    expect(ids).toEqual(['R-1-0', 'dup', 'R-1-2']);
    expect(validateTranscript(memory.getHistory(), 'openai')).toEqual([]);
    expect(validateTranscript(memory.getHistory(), 'anthropic')).toEqual([]);
  });
});
