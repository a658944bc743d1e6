import { describe, expect, it } from 'vitest';
import type { Message } from 'conversation-memory';
import { assistant, call, tool, user } from '../helpers';
import { found, PROVIDERS, text } from '../support/transcript';

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
