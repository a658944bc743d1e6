import { describe, expect, it } from 'vitest';
import { validateTranscript } from 'conversation-memory';
import { assistant, call, system, tool, user } from '../helpers';
import { found, PROVIDERS, text } from '../support/transcript';

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
    expect(found(messages, p)).toEqual([
      [1, 'tool-call-without-result'],
      [2, 'tool-call-without-result'],
    ]);
  });

  // Both providers refuse a request that ends on calls without results (the loopback servers
  // too): a turn whose tools are still running is not a request yet.
  it.each(PROVIDERS)('%s: a transcript that ends on calls, none or some answered', (p) => {
    const turn = [user('q'), assistant('', call('c1'), call('c2'), call('c3')), tool('1', 'c2')];
    const cases = [
      { messages: [user('x'), assistant(null, call('c1'))], missing: ['c1'] },
      { messages: turn.slice(0, 2), missing: ['c1', 'c2', 'c3'] },
      { messages: turn, missing: ['c1', 'c3'] },
      // A system message after them: Anthropic lifts it out (the transcript still ends on the
      // calls), OpenAI sees the turn end before it.
      { messages: [...turn, tool('3', 'c3'), system('s')], missing: ['c1'] },
    ];
    for (const { messages, missing } of cases) {
      const violations = validateTranscript(messages, p);
      const expected =
        p === 'openai' && messages.at(-1)?.role === 'system'
          ? 'before messages[4]'
          : 'by the end of the transcript';
      expect(violations.map(({ index, rule }) => [index, rule])).toEqual([
        [1, 'tool-call-without-result'],
      ]);
      expect(violations[0]?.message).toContain(
        `messages[1] requests tool call(s) ${missing.map((id) => `"${id}"`).join(', ')} that no tool result answers ${expected}`,
      );
      expect(violations[0]?.message).toContain(`: ${missing.join(', ')}`);
      expect(validateTranscript(messages, 'none').map((v) => v.rule)).toEqual([
        'tool-call-without-result',
      ]);
    }
  });

  it.each(PROVIDERS)('%s: the same transcript with every result in is valid', (p) => {
    const messages = [
      user('q'),
      assistant('', call('c1'), call('c2')),
      tool('2', 'c2'),
      tool('1', 'c1'),
    ];
    expect(validateTranscript(messages, p)).toEqual([]);
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

describe('validateTranscript: arguments', () => {
  it('throws a MemoryArgumentError for a non-array or an unknown provider', () => {
    expect(() => validateTranscript('x' as never, 'openai')).toThrow(
      /validateTranscript: messages must be an array of messages, received string "x"/,
    );
    expect(() => validateTranscript([], 'gemini' as never)).toThrow(
      /provider must be "openai", "anthropic" or "none", received string "gemini"/,
    );
  });

  it("'none' checks the tool-pairing rules only, as modelView's 'none' target meets them", () => {
    const transcript = [
      { role: 'assistant' as const, content: null },
      { role: 'tool' as const, content: '4', toolCallId: 'c9', toolName: 'calc' },
    ];
    // OpenAI also refuses the empty assistant message; 'none' only the orphan result.
    expect(validateTranscript(transcript, 'openai').map((v) => v.rule)).toEqual([
      'empty-content',
      'tool-result-without-call',
    ]);
    expect(validateTranscript(transcript, 'none').map((v) => v.rule)).toEqual([
      'tool-result-without-call',
    ]);
    expect(validateTranscript(transcript.slice(0, 1), 'none')).toEqual([]);
  });
});
