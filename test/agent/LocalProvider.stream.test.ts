import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError, userMessage } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import type { CompletionRequest, CompletionStreamPart } from 'conversation-memory';
import { requestArb } from '../arbitraries/completionRequest';

const collect = async (
  parts: AsyncIterable<CompletionStreamPart>,
): Promise<CompletionStreamPart[]> => {
  const all: CompletionStreamPart[] = [];
  for await (const part of parts) all.push(part);
  return all;
};

const deltasOf = (parts: readonly CompletionStreamPart[]): string[] =>
  parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : []));

const calc = { name: 'calc', description: 'Adds', parameters: { type: 'object' } };

const request = (content: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  model: 'local-1',
  systemPrompt: '',
  messages: [userMessage(content)],
  ...extra,
});

describe('LocalProvider.stream', () => {
  it('streams the text word by word, each word with the white space after it, then finish', async () => {
    const parts = await collect(new LocalProvider().stream(request('my name is Ada')));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Nice ' },
      { type: 'text-delta', text: 'to ' },
      { type: 'text-delta', text: 'meet ' },
      { type: 'text-delta', text: 'you, ' },
      { type: 'text-delta', text: 'Ada.' },
      {
        type: 'finish',
        result: {
          message: { role: 'assistant', content: 'Nice to meet you, Ada.' },
          usage: { inputTokens: 4, outputTokens: 6 },
        },
      },
    ]);
  });

  it('streams tool calls as complete tool-call parts, with the ids complete would give', async () => {
    const prompt = '/call calc {"a": 1}\n/call calc {"b": 2}';
    const parts = await collect(new LocalProvider().stream(request(prompt, { tools: [calc] })));
    expect(parts.slice(0, 2)).toEqual([
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'calc', input: { a: 1 } },
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'calc', input: { b: 2 } },
    ]);
    expect(parts).toHaveLength(3);
    expect(parts[2]).toEqual({
      type: 'finish',
      result: await new LocalProvider().complete(request(prompt, { tools: [calc] })),
    });
  });

  it('uses the id counter as complete does: a stream, even unread, takes its ids when called', async () => {
    const provider = new LocalProvider();
    const prompt = request('/call calc {}', { tools: [calc] });
    provider.stream(prompt); // never read
    const second = await collect(provider.stream(prompt));
    const third = await provider.complete(prompt);
    expect(second[0]).toMatchObject({ type: 'tool-call', toolCallId: 'call_2' });
    expect(third.message.toolCalls?.[0]?.id).toBe('call_3');
  });

  it('keeps leading white space in the first delta, and a text of white space as one delta', async () => {
    const { wordDeltas } = await import('../../src/agent/local/streamParts');
    expect(wordDeltas('  Hi  there\n')).toEqual(['  Hi  ', 'there\n']);
    expect(wordDeltas(' \n ')).toEqual([' \n ']);
    expect(wordDeltas('')).toEqual([]);
  });

  it('ends with the signal reason when aborted between deltas, and yields nothing after', async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    const parts = new LocalProvider().stream(
      request('my name is Ada', { signal: controller.signal }),
    );
    const iterator = parts[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({
      done: false,
      value: { type: 'text-delta', text: 'Nice ' },
    });
    controller.abort(reason);
    await expect(iterator.next()).rejects.toBe(reason);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('an already aborted signal or an invalid request fails the first next(), never the call', async () => {
    const provider = new LocalProvider();
    const aborted = AbortSignal.abort(new Error('gone'));
    const stream = provider.stream(request('hi', { signal: aborted }));
    await expect(collect(stream)).rejects.toThrow('gone');
    const bad = provider.stream({ model: 'local-1', systemPrompt: '', messages: 'x' } as never);
    await expect(collect(bad)).rejects.toThrow(/LocalProvider\.stream: request\.messages/);
  });

  it('works detached from its instance; a signal whose aborted getter throws later is a MemoryArgumentError', async () => {
    const { stream } = new LocalProvider();
    expect(deltasOf(await collect(stream(request('my name is Ada')))).join('')).toBe(
      'Nice to meet you, Ada.',
    );
    let reads = 0;
    const signal = {
      get aborted() {
        reads += 1;
        if (reads > 2) throw new Error('gone');
        return false;
      },
    } as unknown as AbortSignal;
    const parts = stream(request('my name is Ada', { signal }));
    const error = await collect(parts).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isConversationMemoryError(error) && error.code).toBe('CM_ARGUMENT');
    expect((error as Error).message).toMatch(/LocalProvider\.stream: .*request\.signal\.aborted/);
  });

  it('property: deltas joined are complete’s text and finish is complete’s result', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (random) => {
        const parts = await collect(new LocalProvider().stream(random));
        const expected = await new LocalProvider().complete(random);
        const last = parts.at(-1);
        expect(last).toEqual({ type: 'finish', result: expected });
        expect(parts.filter((part) => part.type === 'finish')).toHaveLength(1);
        expect(deltasOf(parts).join('')).toBe(expected.message.content ?? '');
        for (const delta of deltasOf(parts)) expect(delta).toMatch(/^\s*\S*\s*$/);
        const calls = parts.flatMap((part) =>
          part.type === 'tool-call'
            ? [{ id: part.toolCallId, name: part.toolName, parameters: part.input }]
            : [],
        );
        expect(calls).toEqual(expected.message.toolCalls ?? []);
      }),
    );
  });
});
