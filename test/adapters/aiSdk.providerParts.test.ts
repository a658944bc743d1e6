import { createOpenAI } from '@ai-sdk/openai';
import { describe, expect, it } from 'vitest';
import { AgentConfigError, isConversationMemoryError } from 'conversation-memory';
import { aiSdkProvider, toCompletionResult, toToolSet } from 'conversation-memory/ai-sdk';

const ok = { text: '', toolCalls: [], usage: { inputTokens: 1, outputTokens: 2 } };

/** The detail of the ProviderResponseError thrown by `run`. */
const detail = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (isConversationMemoryError(error) && error.code === 'CM_PROVIDER_RESPONSE') {
      return error.detail;
    }
    throw error;
  }
  throw new Error('expected a ProviderResponseError');
};

describe('toCompletionResult', () => {
  it('keeps usage only when both counts are reported', () => {
    expect(toCompletionResult({ ...ok, text: 'hi' })).toEqual({
      message: { role: 'assistant', content: 'hi' },
      usage: { inputTokens: 1, outputTokens: 2 },
    });
    const partial = { inputTokens: 4, outputTokens: undefined };
    expect(toCompletionResult({ ...ok, usage: partial })).toEqual({
      message: { role: 'assistant', content: '' },
    });
    expect(toCompletionResult({ ...ok, usage: undefined })).not.toHaveProperty('usage');
  });

  it('rejects an unusable result with the path and the value', () => {
    expect(detail(() => toCompletionResult({ ...ok, text: 42 }))).toBe(
      'text: expected a string, received 42',
    );
    expect(detail(() => toCompletionResult({ ...ok, toolCalls: 'x' }))).toBe(
      'toolCalls: expected an array, received string "x"',
    );
    const noId = [{ toolCallId: '', toolName: 't', input: {} }];
    expect(detail(() => toCompletionResult({ ...ok, toolCalls: noId }))).toBe(
      'toolCalls[0].toolCallId: expected a non-empty string, received string ""',
    );
    const nan = [{ toolCallId: 'a', toolName: 't', input: { n: Number.NaN } }];
    expect(detail(() => toCompletionResult({ ...ok, toolCalls: nan }))).toMatch(
      /^the reply is not a valid message: .*toolCalls\[0\]\.parameters\.n/,
    );
    const negative = { inputTokens: -1, outputTokens: 2 };
    expect(detail(() => toCompletionResult({ ...ok, usage: negative }))).toBe(
      'usage.inputTokens: expected an integer from 0 to 2^53 − 1, received -1',
    );
    // The reply decoders' rule: counts past 2^53 − 1 are not exact, so they are refused.
    for (const [count, shown] of [
      [2 ** 53, '9007199254740992'],
      [1e308, '1e+308'],
    ] as const) {
      const huge = { inputTokens: 1, outputTokens: count };
      expect(detail(() => toCompletionResult({ ...ok, usage: huge }))).toBe(
        `usage.outputTokens: expected an integer from 0 to 2^53 − 1, received ${shown}`,
      );
    }
    const top = { inputTokens: -0, outputTokens: 2 ** 53 - 1 };
    expect(toCompletionResult({ ...ok, usage: top }).usage).toEqual({
      inputTokens: 0,
      outputTokens: 2 ** 53 - 1,
    });
  });
});

describe('toToolSet', () => {
  it('builds one tool per spec, without execute, as own keys (even __proto__)', () => {
    const parameters = { type: 'object', properties: {} };
    const set = toToolSet([
      { name: '__proto__', description: 'odd name', parameters },
      { name: 'calc', description: 'Adds', parameters },
    ]);
    expect(Object.keys(set ?? {})).toEqual(['__proto__', 'calc']);
    expect(Object.getPrototypeOf(set)).toBe(Object.prototype);
    expect(set?.['calc']?.description).toBe('Adds');
    expect(set?.['calc']?.execute).toBeUndefined();
    expect(toToolSet([])).toBeUndefined();
    expect(toToolSet(undefined)).toBeUndefined();
  });
});

describe('aiSdkProvider options', () => {
  it('throws AgentConfigError for invalid options, as the other provider factories', () => {
    const model = createOpenAI({ apiKey: 'k' }).chat('gpt-4o-mini');
    const cases: [unknown, RegExp][] = [
      [undefined, /aiSdkProvider: options must be an object/],
      [{}, /options\.model must be an AI SDK LanguageModel/],
      [{ model, name: 3 }, /options\.name must be a string, received 3/],
      [{ model, maxRetries: -1 }, /options\.maxRetries must be a whole number ≥ 0, received -1/],
    ];
    for (const [options, message] of cases) {
      expect(() => aiSdkProvider(options as never)).toThrow(AgentConfigError);
      expect(() => aiSdkProvider(options as never)).toThrow(message);
    }
  });
});
