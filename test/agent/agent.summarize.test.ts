import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  type AgentErrorContext,
  type AgentObserver,
  type AgentTool,
} from 'conversation-memory';
import {
  MAX_SUMMARY_CHARS,
  SUMMARIZE_PROMPT,
  SUMMARIZER_SYSTEM_PROMPT,
} from 'conversation-memory/constants';
import { LocalProvider } from 'conversation-memory/testing';
import { call, contents, user } from '../helpers';
import { numberedReplies, scriptedProvider } from '../support/scriptedProvider';

/** Records observer events as the reference's tests do: `['trim', …]`, `['summarize', …]`. */
const recorder = () => {
  const events: unknown[][] = [];
  const observer: AgentObserver = {
    onMemoryTrim: (runId, removed, remaining, reason) =>
      events.push(['trim', runId, removed, remaining, reason]),
    onMemorySummarize: (runId, summary) => events.push(['summarize', runId, summary]),
  };
  return { events, observer };
};

const calc: AgentTool = {
  name: 'calc',
  description: 'adds',
  parameters: { type: 'object' },
  execute: ({ a, b }) => Number(a) + Number(b),
};

describe('summarize-on-trim: the reference trace (max_messages=3, summaries SUM1, SUM2, …)', () => {
  it('summarizes each trim, injects the summary at index 0, and reports trim then summarize', async () => {
    const memory = new ConversationMemory({ maxMessages: 3 });
    const main = numberedReplies('resp');
    const summarizer = numberedReplies('SUM');
    const { events, observer } = recorder();
    const agent = createAgent({
      provider: main,
      memory,
      observers: [observer],
      config: { summarizeOnTrim: true, summarizeProvider: summarizer },
    });

    // Turn 1: nothing is trimmed.
    await agent.run('user1', { runId: 't1' });
    // Turn 2: adding the final response trims user1, summarized (SUM1) before the run resolves.
    await agent.run('user2', { runId: 't2' });
    expect(events).toEqual([
      ['trim', 't2', 1, 3, 'enforce_limits'],
      ['summarize', 't2', 'SUM1'],
    ]);
    expect(memory.summary).toBe('SUM1');
    expect(memory.state.summaryCoverage).toEqual([{ from: 0, to: 0, count: 1 }]);

    // Turn 3: the input trims resp1. The reference summarized it at once (SUM2) and still sent
    // resp1 raw, so the model saw it twice. Here the first call carries SUM1 (covering user1) and
    // resp1 raw, not yet summarized: nothing twice, nothing lost.
    events.length = 0;
    await agent.run('user3', { runId: 't3' });
    expect(main.requests[2]?.messages).toEqual([
      { role: 'system', content: '[Conversation Summary] SUM1' },
      { role: 'assistant', content: 'resp1' },
      user('user2'),
      { role: 'assistant', content: 'resp2' },
      user('user3'),
    ]);
    // The trims of the input and of the final response are summarized in one call at the end.
    expect(events).toEqual([
      ['trim', 't3', 1, 3, 'enforce_limits'],
      ['trim', 't3', 1, 3, 'enforce_limits'],
      ['summarize', 't3', 'SUM1 SUM2'],
    ]);
    expect(summarizer.requests).toHaveLength(2);
    expect(contents(memory.getHistory())).toEqual(['resp2', 'user3', 'resp3']);
    expect(memory.pendingSummary.messages).toEqual([]);

    // Turn 4: resp1 and user2 are covered by SUM2, so the call no longer sends them raw.
    await agent.run('user4', { runId: 't4' });
    expect(main.requests[3]?.messages).toEqual([
      { role: 'system', content: '[Conversation Summary] SUM1 SUM2' },
      { role: 'assistant', content: 'resp2' },
      user('user3'),
      { role: 'assistant', content: 'resp3' },
      user('user4'),
    ]);
  });

  it('asks for the summary with the reference prompt, system prompt, model and max tokens', async () => {
    const memory = new ConversationMemory({ maxMessages: 2 });
    const summarizer = scriptedProvider(() => ({ role: 'assistant', content: 'S' }), 'sum');
    const main = scriptedProvider((_, n) =>
      n === 1
        ? { role: 'assistant', content: null, toolCalls: [call('c1', 'calc', { a: 1, b: 2 })] }
        : { role: 'assistant', content: 'done' },
    );
    await createAgent({
      provider: main,
      memory,
      tools: [calc],
      config: {
        summarizeOnTrim: true,
        summarizeProvider: summarizer,
        summarizeModel: 'small',
        summarizeMaxTokens: 60,
      },
    }).run('question');
    // Adding the tool result trims the question (count rule) and the tool-call message
    // (boundary rule): one summary before the second main call, one for the final add.
    expect(summarizer.requests[0]).toEqual({
      model: 'small',
      systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: `${SUMMARIZE_PROMPT}USER: question\nASSISTANT: ` }],
      maxTokens: 60,
    });
    expect(SUMMARIZE_PROMPT).toBe(
      'Summarize the following conversation excerpt in 2-3 sentences. Focus on key facts, decisions, and context that would be useful for continuing the conversation:\n\n',
    );
    expect(summarizer.requests.length).toBeLessThanOrEqual(main.requests.length);
  });

  it('makes at most one summary call per main call, never one per add inside a tool loop', async () => {
    const memory = new ConversationMemory({ maxMessages: 2 });
    const summarizer = numberedReplies('S');
    const main = scriptedProvider((_, n) =>
      n <= 3
        ? {
            role: 'assistant',
            content: null,
            toolCalls: [call(`a${n}`, 'calc'), call(`b${n}`, 'calc'), call(`c${n}`, 'calc')],
          }
        : { role: 'assistant', content: 'done' },
    );
    const { events, observer } = recorder();
    await createAgent({
      provider: main,
      memory,
      tools: [calc],
      observers: [observer],
      config: { summarizeOnTrim: true, summarizeProvider: summarizer },
    }).run('go');
    const trims = events.filter((e) => e[0] === 'trim').length;
    expect(trims).toBeGreaterThan(main.requests.length);
    expect(summarizer.requests.length).toBeLessThanOrEqual(main.requests.length);
    expect(memory.pendingSummary.messages).toEqual([]);
  });

  it('defaults: the agent provider summarizes; summarizeModel follows the summary provider', async () => {
    const memory = new ConversationMemory({ maxMessages: 1 });
    const main = numberedReplies('r', 'main');
    await createAgent({ provider: main, memory, config: { summarizeOnTrim: true } }).run('x');
    expect(main.requests.map((r) => [r.model, r.systemPrompt, r.maxTokens])).toEqual([
      ['main-model', '', undefined],
      ['main-model', SUMMARIZER_SYSTEM_PROMPT, 150],
    ]);
    const other = numberedReplies('s', 'other');
    await createAgent({
      provider: numberedReplies('r', 'main2'),
      memory: new ConversationMemory({ maxMessages: 1 }),
      config: { summarizeOnTrim: true, summarizeProvider: other },
    }).run('x');
    expect(other.requests[0]?.model).toBe('other-model');
  });

  it('without summarizeOnTrim, nothing is held and no summary call is made', async () => {
    const memory = new ConversationMemory({ maxMessages: 1 });
    const main = numberedReplies('r');
    await createAgent({ provider: main, memory }).run('x');
    expect(main.requests).toHaveLength(1);
    expect(memory.pendingSummary.messages).toEqual([]);
    expect(memory.summary).toBeNull();
  });
});

describe('summarize-on-trim: failures lose nothing', () => {
  it('keeps trimmed messages held when the summary call fails, and includes them next time', async () => {
    const memory = new ConversationMemory({ maxMessages: 2 });
    let fail = true;
    const summarizer = scriptedProvider((request) => {
      if (fail) throw new Error('rate limited');
      return {
        role: 'assistant',
        content: `sum of ${request.messages[0]?.content?.split('\n\n')[1]}`,
      };
    });
    const errors: [unknown, AgentErrorContext][] = [];
    const agent = createAgent({
      provider: numberedReplies('r'),
      memory,
      config: {
        summarizeOnTrim: true,
        summarizeProvider: summarizer,
        onError: (error, context) => errors.push([error, context]),
      },
    });
    await agent.run('one', { runId: 'a' });
    await agent.run('two', { runId: 'b' });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[1]).toEqual({ runId: 'b', source: 'summarize' });
    expect((errors[0]?.[0] as Error).message).toBe('rate limited');
    expect(memory.summary).toBeNull();
    expect(contents(memory.pendingSummary.messages)).toEqual(['one', 'r1']);
    expect(memory.pendingSummary.positions).toEqual([0, 1]);

    fail = false;
    await agent.run('three', { runId: 'c' });
    expect(memory.summary).toBe('sum of USER: one\nASSISTANT: r1\nUSER: two\nASSISTANT: r2');
    expect(memory.pendingSummary.messages).toEqual([]);
    expect(memory.state.summaryCoverage).toEqual([{ from: 0, to: 3, count: 4 }]);
  });

  it('commits nothing for an empty or blank summary, and fires no summarize event', async () => {
    for (const content of ['', '   ', null]) {
      const memory = new ConversationMemory({ maxMessages: 1 });
      const { events, observer } = recorder();
      await createAgent({
        provider: numberedReplies('r'),
        memory,
        observers: [observer],
        config: {
          summarizeOnTrim: true,
          summarizeProvider: scriptedProvider(() => ({ role: 'assistant', content })),
        },
      }).run('x');
      expect(memory.summary).toBeNull();
      expect(events.map((e) => e[0])).toEqual(['trim']);
      expect(contents(memory.pendingSummary.messages)).toEqual(['x']);
    }
  });

  it('keeps the newest 4,000 characters of the combined summary', async () => {
    const memory = new ConversationMemory({ maxMessages: 1 });
    await createAgent({
      provider: numberedReplies('r'),
      memory,
      config: {
        summarizeOnTrim: true,
        summarizeProvider: scriptedProvider((_, n) => ({
          role: 'assistant',
          content: String(n).repeat(3000),
        })),
      },
    }).run(['a', 'b', 'c'].map(user));
    await createAgent({
      provider: numberedReplies('r'),
      memory,
      config: {
        summarizeOnTrim: true,
        summarizeProvider: scriptedProvider(() => ({
          role: 'assistant',
          content: 'Z'.repeat(3000),
        })),
      },
    }).run('d');
    expect(memory.summary).toHaveLength(MAX_SUMMARY_CHARS);
    expect(memory.summary?.endsWith(` ${'Z'.repeat(3000)}`)).toBe(true);
  });
});

describe('observers', () => {
  it('calls sync and async observers in order; one that throws never breaks the run', async () => {
    const memory = new ConversationMemory({ maxMessages: 1 });
    const seen: string[] = [];
    const errors: AgentErrorContext[] = [];
    const agent = createAgent({
      provider: new LocalProvider(),
      memory,
      observers: [
        {
          onMemoryTrim: () => {
            throw new Error('observer bug');
          },
        },
        {
          onMemoryTrim: async (runId) => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            seen.push(`async ${runId}`);
          },
        },
        { onMemoryTrim: () => Promise.reject(new Error('async bug')) },
        { onMemoryTrim: (runId) => void seen.push(`sync ${runId}`) },
        {},
      ],
      config: { onError: (_, context) => errors.push(context) },
    });
    const result = await agent.run('hello', { runId: 'r' });
    expect(result.message.content).toMatch(/^You said: "hello"/);
    expect(seen).toEqual(['sync r', 'async r']);
    expect(errors).toEqual([
      { runId: 'r', source: 'observer', event: 'onMemoryTrim' },
      { runId: 'r', source: 'observer', event: 'onMemoryTrim' },
    ]);
  });

  it('reports a trim of the initial user messages too', async () => {
    const memory = new ConversationMemory({ maxMessages: 2 });
    const { events, observer } = recorder();
    await createAgent({ provider: numberedReplies('r'), memory, observers: [observer] }).run(
      ['a', 'b', 'c'].map(user),
      { runId: 'x' },
    );
    expect(events).toEqual([
      ['trim', 'x', 1, 2, 'enforce_limits'],
      ['trim', 'x', 1, 2, 'enforce_limits'],
    ]);
  });
});

describe('memory listeners', () => {
  it('a memory subscriber that throws is reported, and the run goes on with the change kept', async () => {
    const memory = new ConversationMemory({ maxMessages: 1 });
    memory.subscribe(() => {
      throw new Error('listener bug');
    });
    const errors: AgentErrorContext[] = [];
    const { events, observer } = recorder();
    const result = await createAgent({
      provider: numberedReplies('r'),
      memory,
      observers: [observer],
      config: { onError: (_, context) => errors.push(context) },
    }).run('x', { runId: 'L' });
    expect(result.message.content).toBe('r1');
    expect(contents(memory.getHistory())).toEqual(['r1']);
    // The trim of the final add still reaches the observers, from the error's effects.
    expect(events).toEqual([['trim', 'L', 1, 1, 'enforce_limits']]);
    expect(errors).toEqual([
      { runId: 'L', source: 'memoryListener' },
      { runId: 'L', source: 'memoryListener' },
    ]);
  });
});

describe('review fixes: what the model sees', () => {
  it('a coverage record with gaps hides nothing: trimmed messages it may not cover stay visible', async () => {
    const memory = ConversationMemory.fromDict({
      max_messages: 2,
      messages: [
        { role: 'user', content: 'my name is Ann' },
        { role: 'assistant', content: 'hi Ann' },
      ],
      summary: 'S',
      conversation_memory: {
        summary_coverage: [{ from: 0, to: 1, count: 1 }],
        positions: [0, 1],
        next_position: 2,
      },
    });
    const main = numberedReplies('r');
    await createAgent({ provider: main, memory }).run('one');
    // The input trimmed 'my name is Ann' (position 0); summarizing is off, so nothing summarized
    // it, and a record with a gap cannot say it did: the model still sees it, as the reference.
    expect(contents(main.requests[0]?.messages ?? [])).toEqual([
      '[Conversation Summary] S',
      'my name is Ann',
      'hi Ann',
      'one',
    ]);
  });
});

describe('summarize-on-trim under trimTo (issue #29): once per step', () => {
  it('summarizes each step in one call, and between steps every request extends the one before', async () => {
    // maxMessages 10, trimTo 0.5: a turn adds two messages, so every third turn's question takes
    // the window to 11 and one step brings it down to 5.
    const memory = new ConversationMemory({ maxMessages: 10, trimTo: 0.5 });
    const main = numberedReplies('resp');
    const summarizer = numberedReplies('SUM');
    const events: unknown[][] = [];
    // How many main requests were made when each summary was committed.
    const summarizedBefore = new Set<number>();
    const observer: AgentObserver = {
      onMemoryTrim: (_, removed, remaining) => events.push(['trim', removed, remaining]),
      onMemorySummarize: (_, summary) => {
        events.push(['summarize', summary]);
        summarizedBefore.add(main.requests.length);
      },
    };
    const agent = createAgent({
      provider: main,
      memory,
      observers: [observer],
      config: { summarizeOnTrim: true, summarizeProvider: summarizer },
    });
    for (let turn = 1; turn <= 12; turn++) await agent.run(`user${turn}`);

    expect(events).toEqual([
      ['trim', 6, 5],
      ['summarize', 'SUM1'],
      ['trim', 6, 5],
      ['summarize', 'SUM1 SUM2'],
      ['trim', 6, 5],
      ['summarize', 'SUM1 SUM2 SUM3'],
    ]);
    expect(summarizer.requests).toHaveLength(3);
    // The prompt (summary first) changes only when a step's summary is committed (after the
    // step's turn; its held messages are sent raw until then): every other request starts with
    // the whole request before it.
    expect([...summarizedBefore]).toEqual([6, 9, 12]);
    for (let i = 1; i < main.requests.length; i++) {
      const before = main.requests[i - 1]?.messages ?? [];
      const prefix = main.requests[i]?.messages.slice(0, before.length);
      if (summarizedBefore.has(i)) expect(prefix, `request ${i}`).not.toEqual(before);
      else expect(prefix, `request ${i}`).toEqual(before);
    }
  });
});
