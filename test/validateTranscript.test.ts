import { describe, expect, it } from 'vitest';
import type { Message } from 'conversation-memory';
import { validateTranscript } from 'conversation-memory';
import type { TranscriptProvider, TranscriptRule } from 'conversation-memory';
import { assistant, call, system, tool, user } from './helpers';

const PROVIDERS: readonly TranscriptProvider[] = ['openai', 'anthropic'];

/** The (index, rule) pairs found, for compact assertions. */
const found = (messages: readonly Message[], provider: TranscriptProvider) =>
  validateTranscript(messages, provider).map(({ index, rule }) => [index, rule]);

/** The message of the one violation of `rule`. */
const text = (messages: readonly Message[], provider: TranscriptProvider, rule: TranscriptRule) => {
  const hits = validateTranscript(messages, provider).filter((v) => v.rule === rule);
  expect(hits).toHaveLength(1);
  return hits[0]?.message ?? '';
};

describe('validateTranscript: valid transcripts', () => {
  it.each(PROVIDERS)(
    '%s: a complete tool turn with system messages between turns is valid',
    (p) => {
      const messages = [
        system('Be brief.'),
        user('2+2 and 3+3?'),
        assistant(null, call('c1'), call('c2')),
        tool('6', 'c2'),
        tool('4', 'c1'),
        assistant('4 and 6.'),
        system('Note.'),
        user('thanks'),
        assistant('You are welcome.'),
      ];
      expect(validateTranscript(messages, p)).toEqual([]);
    },
  );

  it.each(PROVIDERS)('%s: the empty transcript is valid', (p) => {
    expect(validateTranscript([], p)).toEqual([]);
  });

  it.each(PROVIDERS)('%s: an unfinished last turn (some results still to come) is valid', (p) => {
    const messages = [
      user('q'),
      assistant('', call('c1'), call('c2'), call('c3')),
      tool('1', 'c2'),
    ];
    expect(validateTranscript(messages, p)).toEqual([]);
    expect(validateTranscript(messages.slice(0, 2), p)).toEqual([]);
  });

  it('anthropic: system messages anywhere are lifted out, even inside a tool turn', () => {
    const messages = [user('q'), assistant('', call('c1')), system('s'), tool('1', 'c1')];
    expect(validateTranscript(messages, 'anthropic')).toEqual([]);
  });
});

describe('validateTranscript: tool-result-without-call', () => {
  it.each(PROVIDERS)('%s: a result with no assistant tool-call message before it', (p) => {
    const messages = [user('q'), tool('4', 'c1'), assistant('ok')];
    expect(found(messages, p)).toEqual([[1, 'tool-result-without-call']]);
  });

  it.each(PROVIDERS)('%s: a result answering a call of an earlier, not the nearest, turn', (p) => {
    const messages = [user('q'), assistant('', call('c1')), tool('1', 'c1'), user('again')];
    const late = [...messages, assistant('', call('c2')), tool('2', 'c1'), tool('3', 'c2')];
    expect(found(late, p)).toEqual([[5, 'tool-result-without-call']]);
  });

  it('quotes each provider', () => {
    const messages = [user('q'), tool('4', 'c1')];
    expect(text(messages, 'openai', 'tool-result-without-call')).toContain(
      "OpenAI answers 400: \"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.\"",
    );
    expect(text(messages, 'anthropic', 'tool-result-without-call')).toContain(
      'Anthropic answers 400: "unexpected `tool_use_id` found in `tool_result` blocks: c1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."',
    );
  });

  it('openai: a result under another call of the turn gets the "not found" text', () => {
    const messages = [user('q'), assistant('', call('c1')), tool('1', 'c9')];
    expect(text(messages, 'openai', 'tool-result-without-call')).toContain(
      "OpenAI answers 400: \"Invalid parameter: 'tool_call_id' of 'c9' not found in 'tool_calls' of previous message.\"",
    );
  });

  it('openai: a system message between a call and its result breaks the pair', () => {
    const messages = [user('q'), assistant('', call('c1')), system('s'), tool('1', 'c1')];
    expect(found(messages, 'openai')).toEqual([
      [1, 'tool-call-without-result'],
      [3, 'tool-result-without-call'],
    ]);
  });
});

describe('validateTranscript: tool-call-without-result', () => {
  it.each(PROVIDERS)('%s: a call left unanswered when the conversation moves on', (p) => {
    const messages = [user('q'), assistant('', call('c1'), call('c2')), tool('1', 'c1'), user('?')];
    expect(found(messages, p)).toEqual([[1, 'tool-call-without-result']]);
  });

  it.each(PROVIDERS)('%s: an earlier unanswered turn is not excused by a later one', (p) => {
    const messages = [user('q'), assistant('', call('c1')), assistant('', call('c2'))];
    expect(found(messages, p)).toEqual([[1, 'tool-call-without-result']]);
  });

  it('quotes each provider and names the missing ids', () => {
    const messages = [user('q'), assistant('', call('c1'), call('c2')), user('?')];
    expect(text(messages, 'openai', 'tool-call-without-result')).toContain(
      "OpenAI answers 400: \"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: c1, c2\"",
    );
    expect(text(messages, 'anthropic', 'tool-call-without-result')).toContain(
      'Anthropic answers 400: "`tool_use` ids were found without `tool_result` blocks immediately after: c1, c2. Each `tool_use` block must have a corresponding `tool_result` block in the next message."',
    );
  });
});

describe('validateTranscript: ids', () => {
  it.each(PROVIDERS)('%s: duplicate-tool-result, a call answered twice', (p) => {
    const messages = [user('q'), assistant('', call('c1')), tool('1', 'c1'), tool('2', 'c1')];
    expect(found(messages, p)).toEqual([[3, 'duplicate-tool-result']]);
  });

  it.each(PROVIDERS)('%s: duplicate-tool-call-id, in one message and across messages', (p) => {
    const one = [user('q'), assistant('', call('c1'), call('c1')), tool('1', 'c1')];
    expect(found(one, p)).toEqual([[1, 'duplicate-tool-call-id']]);
    const two = [...one.slice(0, 1), assistant('', call('c1')), tool('1', 'c1')];
    const again = [...two, assistant('', call('c1')), tool('2', 'c1'), assistant('done')];
    expect(found(again, p)).toEqual([[3, 'duplicate-tool-call-id']]);
  });

  it.each(PROVIDERS)('%s: tool-call-without-id, a call no result can answer', (p) => {
    const messages: Message[] = [
      user('q'),
      { role: 'assistant', content: null, toolCalls: [{ name: 'calc', parameters: {} }] },
      assistant('done'),
    ];
    expect(found(messages, p)).toEqual([[1, 'tool-call-without-id']]);
  });

  it.each(PROVIDERS)('%s: missing-tool-call-id, a result that names no call', (p) => {
    const messages: Message[] = [
      user('q'),
      assistant('', call('c1')),
      tool('1', 'c1'),
      { role: 'tool', content: '2', toolName: 'calc' },
    ];
    expect(found(messages, p)).toEqual([[3, 'missing-tool-call-id']]);
  });

  it('quotes the providers on ids', () => {
    const twice = [user('q'), assistant('', call('c1')), tool('1', 'c1'), tool('2', 'c1')];
    expect(text(twice, 'openai', 'duplicate-tool-result')).toContain(
      "Invalid parameter: Duplicate value for 'tool_call_id' of 'c1'",
    );
    expect(text(twice, 'anthropic', 'duplicate-tool-result')).toContain(
      'each tool_use must have a single result. Found multiple `tool_result` blocks with id: c1',
    );
    const dup = [user('q'), assistant('', call('c1'), call('c1')), tool('1', 'c1')];
    expect(text(dup, 'anthropic', 'duplicate-tool-call-id')).toContain(
      '"`tool_use` ids must be unique"',
    );
    const noId: Message[] = [user('q'), { role: 'tool', content: '2' }];
    expect(text(noId, 'openai', 'missing-tool-call-id')).toContain(
      "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
    );
  });

  it('escapes and shortens ids taken from the messages', () => {
    const id = `evil\n\u001b[31m${'x'.repeat(500)}`;
    const messages = [user('q'), tool('1', id)];
    for (const p of PROVIDERS) {
      const message = text(messages, p, 'tool-result-without-call');
      expect(message).not.toContain('\n');
      expect(message).not.toContain('\u001b');
      expect(message).toContain('evil\\n\\u001b[31m');
      expect(message.length).toBeLessThan(500);
    }
  });
});

describe('validateTranscript: first-message-not-user (anthropic)', () => {
  const messages = [system('s'), assistant('Hello!'), user('hi'), assistant('Hi.')];

  it('anthropic: an assistant first, once system messages are lifted out', () => {
    expect(found(messages, 'anthropic')).toEqual([[1, 'first-message-not-user']]);
    expect(text(messages, 'anthropic', 'first-message-not-user')).toContain(
      'Anthropic answers 400: "messages: first message must use the "user" role"',
    );
  });

  it('openai: no such rule', () => {
    expect(found(messages, 'openai')).toEqual([]);
  });

  it('anthropic: a leading tool result is a user turn (reported only as an orphan)', () => {
    expect(found([tool('1', 'c1'), assistant('ok')], 'anthropic')).toEqual([
      [0, 'tool-result-without-call'],
    ]);
  });
});

describe('validateTranscript: empty-content', () => {
  it('openai: a null assistant content without tool calls; "" and null beside calls are fine', () => {
    const messages = [user('q'), assistant(null), assistant(''), assistant(null, call('c1'))];
    expect(found([...messages, tool('1', 'c1')], 'openai')).toEqual([[1, 'empty-content']]);
    expect(text(messages, 'openai', 'empty-content')).toContain(
      'OpenAI answers 400: "Invalid value for \'content\': expected a string, got null."',
    );
  });

  it('openai: content parts stand in for a null content', () => {
    const parts: Message = {
      role: 'assistant',
      content: null,
      contentParts: [{ type: 'text', text: 'hi' }],
    };
    expect(found([user('q'), parts, user('ok')], 'openai')).toEqual([]);
  });

  it('anthropic: an empty user or non-final assistant message; the final assistant may be empty', () => {
    const messages = [user('q'), assistant(''), user('  \n'), assistant(null), system('s')];
    expect(found(messages, 'anthropic')).toEqual([
      [1, 'empty-content'],
      [2, 'empty-content'],
    ]);
    expect(text([user('q'), assistant(''), user('x')], 'anthropic', 'empty-content')).toContain(
      'Anthropic answers 400: "all messages must have non-empty content except for the optional final assistant message"',
    );
  });

  it('anthropic: tool calls, images and image parts are content; parts replace content', () => {
    const image: Message = { role: 'user', content: '', imageBase64: 'iVBORw0KGgo=' };
    const urlPart: Message = {
      role: 'user',
      content: '',
      contentParts: [{ type: 'image_url', imageUrl: 'https://example.com/a.png' }],
    };
    const emptyParts: Message = {
      role: 'user',
      content: 'ignored',
      contentParts: [{ type: 'text', text: ' ' }],
    };
    const messages = [image, urlPart, assistant('', call('c1')), tool('', 'c1'), emptyParts];
    expect(found([...messages, assistant('ok')], 'anthropic')).toEqual([[4, 'empty-content']]);
  });
});

describe('validateTranscript: arguments', () => {
  it('throws a MemoryArgumentError for a non-array or an unknown provider', () => {
    expect(() => validateTranscript('x' as never, 'openai')).toThrow(
      /validateTranscript: messages must be an array of messages, received string "x"/,
    );
    expect(() => validateTranscript([], 'gemini' as never)).toThrow(
      /provider must be "openai" or "anthropic", received string "gemini"/,
    );
  });
});
