import { describe, expect, it } from 'vitest';
import { isConversationMemoryError, MemoryArgumentError, type Message } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import type { CompletionRequest, ToolSpec } from 'conversation-memory';
import { user } from '../helpers';

/**
 * `LocalProvider.complete` treats a request as hostile input: whatever a JavaScript caller
 * passes, it resolves or rejects with a `MemoryArgumentError` naming the field and the value,
 * never a `TypeError`.
 */

const calc: ToolSpec = { name: 'calc', description: 'Adds', parameters: { type: 'object' } };

const request = (
  messages: readonly Message[],
  extra: Partial<CompletionRequest> = {},
): CompletionRequest => ({ model: 'local-1', systemPrompt: '', messages, ...extra });

describe('LocalProvider: hostile requests', () => {
  const expectArgumentError = async (value: unknown, text: string): Promise<void> => {
    const error: unknown = await new LocalProvider().complete(value as CompletionRequest).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect(isConversationMemoryError(error) && error.code).toBe('CM_ARGUMENT');
    expect((error as Error).message).toContain(text);
  };

  it('rejects invalid fields with MemoryArgumentError naming the field and the value', async () => {
    await expectArgumentError(
      null,
      'LocalProvider.complete: request must be an object, received null',
    );
    await expectArgumentError(
      { systemPrompt: '', messages: [] },
      'request.model must be a string, received undefined',
    );
    await expectArgumentError(
      { model: 'm', messages: [] },
      'request.systemPrompt must be a string',
    );
    await expectArgumentError(
      request('hi' as never),
      'request.messages must be an array, received "hi"',
    );
    await expectArgumentError(
      request([user('a'), { role: 'USER', content: 'b' } as never]),
      'request.messages[1].role must be one of "user", "assistant", "system", "tool", received "USER"',
    );
    await expectArgumentError(
      request([{ role: 'user' } as never]),
      'request.messages[0].content must be',
    );
    for (const maxTokens of [0, 1.5, '5', -1, Number.NaN]) {
      await expectArgumentError(
        request([], { maxTokens: maxTokens as never }),
        'request.maxTokens must be a whole number of at least 1, received',
      );
    }
    await expectArgumentError(
      request([], { tools: {} as never }),
      'request.tools must be an array',
    );
    await expectArgumentError(
      request([], { tools: [{ name: 'calc', parameters: {} }] as never }),
      'request.tools[0].description must be a string, received undefined',
    );
    await expectArgumentError(
      request([], { tools: [{ ...calc, parameters: { f: () => 1 } }] as never }),
      'request.tools[0].parameters.f: expected a JSON value, got a function',
    );
    await expectArgumentError(
      request([], { signal: {} as never }),
      'request.signal must be an AbortSignal',
    );
  });

  it('turns throwing getters and revoked proxies into MemoryArgumentError', async () => {
    const throwing = {
      model: 'm',
      systemPrompt: '',
      get messages(): never {
        throw new TypeError('boom');
      },
    };
    await expectArgumentError(throwing, 'request.messages could not be read: TypeError: boom');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    await expectArgumentError(proxy, 'request');
    await expectArgumentError(request(proxy as never), 'request.messages could not be read');
    await expectArgumentError(request([proxy as never]), 'request.messages[0]');
    const lying = new Proxy([], { get: (t, k) => (k === 'length' ? 'many' : Reflect.get(t, k)) });
    await expectArgumentError(request(lying), 'request.messages.length must be a whole number');
  });

  it('accepts null for maxTokens, tools and signal, and ignores unknown fields', async () => {
    const loose = { ...request([user('hi')]), maxTokens: null, tools: null, signal: null, x: 1 };
    const result = await new LocalProvider().complete(loose as never);
    expect(result.message.content).toBe('You said: "hi". I can see 0 earlier messages.');
  });

  it('rejects with the reason of an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      new LocalProvider().complete(request([user('hi')], { signal: controller.signal })),
    ).rejects.toThrow('stop');
    const fake = { aborted: true } as AbortSignal;
    await expect(
      new LocalProvider().complete(request([user('hi')], { signal: fake })),
    ).rejects.toMatchObject({ name: 'AbortError' });
    const live = new AbortController().signal;
    await expect(
      new LocalProvider().complete(request([], { signal: live })),
    ).resolves.toBeDefined();
  });

  it('works when complete is detached from its instance', async () => {
    const { complete } = new LocalProvider();
    expect((await complete(request([user('hi')]))).message.content).toContain('You said');
  });
});
