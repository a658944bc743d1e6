/**
 * Usage per call (issue #29 §3): the agent records each main call's usage in the kept assistant
 * message's `metadata.usage` (the application's other metadata kept; never counted as tokens) and
 * reports it to `onModelResult`. A custom provider's usage is hostile: a count that is not an
 * integer from 0 to 2^53 − 1, a missing count, or cache counts past `inputTokens` reject the call
 * with a `ProviderResponseError` naming the field and the value (and `onModelError` is called).
 */
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  isConversationMemoryError,
  type CompletionResult,
  type CompletionUsage,
  type Message,
  type ModelResultInfo,
  type Provider,
} from 'conversation-memory';

/** A provider that answers each call with `replies[i]` (message and usage as given). */
const replying = (replies: readonly unknown[]): Provider => {
  let call = 0;
  return {
    name: 'usage-test',
    defaultModel: 'usage-model',
    complete: async () => replies[call++] as CompletionResult,
  };
};

const usage: CompletionUsage = {
  inputTokens: 5000,
  cachedInputTokens: 4096,
  cacheWriteTokens: 512,
  outputTokens: 40,
};

describe('the agent records usage with the reply', () => {
  it('in metadata.usage of the kept message, the application’s metadata kept; onModelResult has it', async () => {
    const results: ModelResultInfo[] = [];
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    const reply: Message = { role: 'assistant', content: 'Done.', metadata: { trace: 't-1' } };
    const agent = createAgent({
      provider: replying([{ message: reply, usage }]),
      memory,
      observers: [{ onModelResult: (_, result) => void results.push(result) }],
    });
    const { message } = await agent.run('Go');
    const kept = memory.getHistory().at(-1);
    expect(kept).toEqual({ ...reply, metadata: { trace: 't-1', usage } });
    expect(message).toEqual(kept);
    expect(results.map((r) => r.usage)).toEqual([usage]);
  });

  it('never counts it as tokens: the window costs what it costs without the usage', async () => {
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    const plain = new ConversationMemory({ tokenizer: 'heuristic' });
    const reply: Message = { role: 'assistant', content: 'A long enough answer to count.' };
    await createAgent({ provider: replying([{ message: reply, usage }]), memory }).run('Go');
    await createAgent({ provider: replying([{ message: reply }]), memory: plain }).run('Go');
    expect(memory.getHistory().at(-1)?.metadata).toEqual({ usage });
    expect(plain.getHistory().at(-1)).not.toHaveProperty('metadata');
    expect(memory.state.totalTokens).toBe(plain.state.totalTokens);
    expect(memory.state.tokenCounts).toEqual(plain.state.tokenCounts);
  });

  it('a reply without usage gets no metadata', async () => {
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    const reply: Message = { role: 'assistant', content: 'Hi.' };
    await createAgent({ provider: replying([{ message: reply }]), memory }).run('Go');
    expect(memory.getHistory().at(-1)).toEqual(reply);
  });

  it('a hostile usage rejects the call, naming the field and the value', async () => {
    const cases: readonly [unknown, string][] = [
      [
        { inputTokens: -1, outputTokens: 2 },
        'usage.inputTokens: expected an integer from 0 to 2^53 − 1, got -1',
      ],
      [
        { inputTokens: 3 },
        'usage.outputTokens: expected an integer from 0 to 2^53 − 1, got undefined',
      ],
      [
        { inputTokens: 3, outputTokens: 1.5 },
        'usage.outputTokens: expected an integer from 0 to 2^53 − 1, got 1.5',
      ],
      [
        { inputTokens: 2 ** 53, outputTokens: 1 },
        'usage.inputTokens: expected an integer from 0 to 2^53 − 1, got 9007199254740992',
      ],
      [
        { inputTokens: 10, outputTokens: 1, cachedInputTokens: Number.NaN },
        'usage.cachedInputTokens: expected an integer from 0 to 2^53 − 1, got NaN',
      ],
      [
        { inputTokens: 10, outputTokens: 1, cacheWriteTokens: '4' },
        'usage.cacheWriteTokens: expected an integer from 0 to 2^53 − 1, got "4"',
      ],
      [
        { inputTokens: 10, outputTokens: 1, cachedInputTokens: 8, cacheWriteTokens: 3 },
        'usage.cachedInputTokens + cacheWriteTokens: expected at most inputTokens (10), got 11',
      ],
      ['12', 'usage: expected an object, got "12"'],
    ];
    for (const [bad, text] of cases) {
      const errors: unknown[] = [];
      const memory = new ConversationMemory({ tokenizer: 'heuristic' });
      const agent = createAgent({
        provider: replying([{ message: { role: 'assistant', content: 'Hi.' }, usage: bad }]),
        memory,
        observers: [{ onModelError: (_, failure) => void errors.push(failure.error) }],
      });
      const error = await agent.run('Go').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isConversationMemoryError(error) && error.code).toBe('CM_PROVIDER_RESPONSE');
      expect((error as Error).message).toContain(text);
      expect(errors).toEqual([error]);
      // Nothing of the failed call is kept.
      expect(memory.getHistory().map((m) => m.role)).toEqual(['user']);
    }
  });
});
