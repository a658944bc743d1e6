import { describe, expect, it } from 'vitest';
import {
  addMessage,
  ConversationMemory,
  createMemory,
  getHistory,
  InvalidMessageError,
  MemoryArgumentError,
  toolMessage,
  userMessage,
  type MemoryEffect,
} from 'conversation-memory';
import { MAX_SUMMARY_CHARS } from 'conversation-memory/constants';

/** What a new user runs into first: error texts that point at the cause, and the object API. */

const thrown = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
};

describe('error texts point at the cause', () => {
  const state = createMemory({ tokenizer: 'heuristic' });

  it('a Transition passed as a state: use .state', () => {
    const transition = addMessage(state, userMessage('hi'));
    const error = thrown(() => addMessage(transition as never, userMessage('again')));
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect(error.message).toBe(
      '[conversation-memory] addMessage: state must be a MemoryState (made by createMemory, a reducer or fromDict), ' +
        'received what looks like a Transition ({ state, effects }, what a reducer returns); pass its .state',
    );
  });

  it('the object API passed to a reducer is named as users know it, even when a bundler renamed the class', () => {
    // What a minifier or bundler does to class names (`_ConversationMemory`).
    const Renamed = class _ConversationMemory extends ConversationMemory {};
    for (const memory of [new ConversationMemory(), new Renamed()]) {
      const error = thrown(() => getHistory(memory as never));
      expect(error.message).toMatch(
        /getHistory: state must be a MemoryState .*received a ConversationMemory \(the object API\); pass its \.state/,
      );
      expect(error.message).not.toMatch(/_ConversationMemory/);
    }
  });

  it('an OpenAI-shaped tool call suggests parameters', () => {
    const openAi = {
      role: 'assistant',
      content: null,
      toolCalls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        },
      ],
    };
    const error = thrown(() => addMessage(state, openAi as never));
    expect(error).toBeInstanceOf(InvalidMessageError);
    expect(error.message).toContain('message.toolCalls[0] looks like an OpenAI tool call');
    expect(error.message).toContain('did you mean parameters?');
    expect(error.message).toContain('parameters = JSON.parse(function.arguments)');
  });

  it.each(['arguments', 'args', 'input'])('a tool call with %s suggests parameters', (key) => {
    const message = { role: 'assistant', content: null, toolCalls: [{ name: 'f', [key]: {} }] };
    expect(thrown(() => addMessage(state, message as never)).message).toBe(
      `[conversation-memory] addMessage: message.toolCalls[0].${key} is not a field of this object ` +
        '(did you mean parameters, as an object rather than a JSON string?)',
    );
  });

  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini-2024-07-18', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
  ])(
    'tokenizer: %j names the valid names and suggests that model’s encoding, %s',
    (model, encoding) => {
      const message = thrown(() => createMemory({ tokenizer: model })).message;
      expect(message).toContain(
        `tokenizer must be "o200k_base", "cl100k_base", "heuristic" or a name registered with registerTokenizer, received "${model}"`,
      );
      expect(message).toContain(`("${model}" is a model; its tokenizer is "${encoding}")`);
    },
  );

  it('no model suggestion for an unknown name, nor for a model whose encoding no memory uses', () => {
    expect(thrown(() => createMemory({ tokenizer: 'my-llama' })).message).not.toMatch(/is a model/);
    expect(thrown(() => createMemory({ tokenizer: 'text-davinci-003' })).message).not.toMatch(
      /is a model/,
    );
  });

  it('toolMessage rejects a misspelt origin instead of silently dropping the call id', () => {
    expect(thrown(() => toolMessage('4', { tool_call_id: 'c1' } as never)).message).toBe(
      '[conversation-memory] toolMessage: origin.tool_call_id is not a field of this object ' +
        '(did you mean toolCallId?); expected toolCallId, toolName, toolResult',
    );
    expect(toolMessage('4', { toolCallId: 'c1', toolName: undefined })).toEqual({
      role: 'tool',
      content: '4',
      toolCallId: 'c1',
    });
  });
});

describe('ConversationMemory.applySummary', () => {
  it('appends a chunk as the reducer does, returns its effects and tells subscribers', () => {
    const memory = new ConversationMemory({ maxMessages: 1, tokenizer: 'heuristic' });
    const seen: MemoryEffect[][] = [];
    memory.subscribe((effects) => seen.push([...effects]));
    memory.addMany([userMessage('a'), userMessage('b')]);
    expect(memory.lastTrimmed).toEqual([userMessage('a')]);

    expect(memory.applySummary('User said a.')).toEqual([
      { type: 'memory/summaryChanged', summary: 'User said a.', previous: null },
    ]);
    expect(memory.applySummary('Then b.')).toEqual([
      { type: 'memory/summaryChanged', summary: 'User said a. Then b.', previous: 'User said a.' },
    ]);
    expect(memory.summary).toBe('User said a. Then b.');
    expect(seen.at(-1)).toEqual([
      { type: 'memory/summaryChanged', summary: 'User said a. Then b.', previous: 'User said a.' },
    ]);
    // A summary is not an add: what the last add trimmed stays readable for the summarizer.
    expect(memory.lastTrimmed).toEqual([userMessage('a')]);
    expect(memory.applySummary('')).toEqual([]);
  });

  it('keeps the newest 4,000 characters and keeps subscribers (no state round trip)', () => {
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    let calls = 0;
    memory.subscribe(() => calls++);
    memory.applySummary('x'.repeat(MAX_SUMMARY_CHARS));
    memory.applySummary('tail');
    expect(memory.summary?.length).toBe(MAX_SUMMARY_CHARS);
    expect(memory.summary?.endsWith(' tail')).toBe(true);
    expect(calls).toBe(2);
    expect(() => memory.applySummary(3 as never)).toThrow(MemoryArgumentError);
  });
});
