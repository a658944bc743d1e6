import { describe, expect, it } from 'vitest';
import type { Message } from 'conversation-memory';
import { assistant, call, system, tool, user } from '../helpers';
import { found, text } from '../support/transcript';

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
