import { describe, expect, it } from 'vitest';
import {
  addMessages,
  assistantMessage,
  createMemory,
  getHistory,
  isConversationMemoryError,
  modelView,
  setSummary,
  systemMessage,
  toolMessage,
  userMessage,
  validateTranscript,
  type MemoryState,
} from 'conversation-memory';
import { INTERRUPTED_TOOL_RESULT } from 'conversation-memory/constants';

const call = (id: string) => ({ id, name: 'calc', parameters: { a: 1 } });

const stateOf = (messages: Parameters<typeof addMessages>[1], options = {}): MemoryState =>
  addMessages(createMemory({ tokenizer: 'heuristic', ...options }), messages).state;

describe('modelView', () => {
  it('is the window itself (no copy) when nothing needs repair, with the summary first', () => {
    const state = stateOf([userMessage('hi'), assistantMessage('hello')]);
    expect(modelView(state).messages).toBe(state.messages);
    const summarized = setSummary(state, 'Ann is 30.').state;
    expect(modelView(summarized, { target: 'anthropic' }).messages).toEqual([
      systemMessage('[Conversation Summary] Ann is 30.'),
      ...state.messages,
    ]);
  });

  it('leaves out the orphan result the reference policy keeps, and says why', () => {
    // The reference keeps at least one message, even an orphan tool result.
    const state = stateOf(
      [
        userMessage('2 + 2?'),
        assistantMessage(null, [call('c1')]),
        toolMessage('4', { toolCallId: 'c1', toolName: 'calc' }),
      ],
      { maxMessages: 1 },
    );
    expect(getHistory(state).map((m) => m.role)).toEqual(['tool']);
    expect(validateTranscript(getHistory(state), 'openai').map((v) => v.rule)).toEqual([
      'tool-result-without-call',
    ]);
    const view = modelView(state, { target: 'openai' });
    expect(view.messages).toEqual([]);
    expect(view.changes).toEqual([
      {
        type: 'view/omitted',
        reason: 'tool-result-without-call',
        index: 0,
        position: 2,
        message: getHistory(state)[0],
      },
    ]);
  });

  it('anthropic: leading assistant turns go, with their results', () => {
    const state = stateOf([
      assistantMessage('Welcome!'),
      assistantMessage(null, [call('c1')]),
      toolMessage('4', { toolCallId: 'c1', toolName: 'calc' }),
      userMessage('thanks'),
    ]);
    const view = modelView(state, { target: 'anthropic' });
    expect(view.messages).toEqual([userMessage('thanks')]);
    expect(
      view.changes.map((c) => (c.type === 'view/omitted' ? `${c.reason}@${c.index}` : c.type)),
    ).toEqual(['first-message-not-user@0', 'first-message-not-user@1', 'first-message-not-user@2']);
    // OpenAI accepts an assistant first.
    expect(modelView(state, { target: 'openai' }).messages).toEqual(state.messages);
  });

  it('answers a dangling call in the view, leaving memory as it was', () => {
    const state = stateOf([
      userMessage('2 + 2?'),
      assistantMessage(null, [call('c1'), call('c2')]),
      toolMessage('4', { toolCallId: 'c1', toolName: 'calc' }),
    ]);
    const before = JSON.stringify(state);
    const view = modelView(state, { target: 'openai' });
    expect(view.messages.map((m) => [m.role, m.toolCallId ?? null])).toEqual([
      ['user', null],
      ['assistant', null],
      ['tool', 'c1'],
      ['tool', 'c2'],
    ]);
    expect(view.messages[3]).toMatchObject({
      content: INTERRUPTED_TOOL_RESULT,
      metadata: { interrupted: true },
    });
    expect(view.changes).toEqual([
      {
        type: 'view/answered',
        toolCallId: 'c2',
        toolName: 'calc',
        position: 1,
        message: view.messages[3],
      },
    ]);
    expect(JSON.stringify(state)).toBe(before);
    expect(validateTranscript(view.messages, 'openai')).toEqual([]);
  });

  it('leaves out what a summary covers in a transcript, but not what is held or in the window', () => {
    let state = stateOf([userMessage('a'), assistantMessage('b'), userMessage('c')], {
      maxMessages: 2,
    });
    // position 0 was trimmed; a summary covering it is committed through the state's fields.
    state = { ...setSummary(state, 'S').state, summaryCoverage: [{ from: 0, to: 0, count: 1 }] };
    const transcript = [
      { message: userMessage('a'), position: 0 },
      { message: assistantMessage('b'), position: 1 },
      { message: userMessage('c'), position: 2 },
    ];
    const view = modelView(state, { target: 'openai', transcript });
    expect(view.messages.map((m) => m.content)).toEqual(['[Conversation Summary] S', 'b', 'c']);
    expect(view.changes).toEqual([
      {
        type: 'view/omitted',
        reason: 'summarized',
        index: 0,
        position: 0,
        message: userMessage('a'),
      },
    ]);
  });

  it('fits a budget by leaving out the oldest groups, never pinned system messages or the newest group', () => {
    const words = (n: number) => 'abcd'.repeat(n);
    const state = stateOf(
      [
        systemMessage(words(2)),
        userMessage(words(10)),
        assistantMessage(null, [call('c1')]),
        toolMessage(words(10), { toolCallId: 'c1', toolName: 'calc' }),
        userMessage(words(3)),
      ],
      { pinSystem: true },
    );
    const view = modelView(state, { target: 'openai', budget: 6 });
    expect(view.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(view.tokens).toBe(5);
    expect(view.overBudget).toBe(false);
    const reasons = view.changes.map((c) =>
      c.type === 'view/omitted' ? `${c.reason}@${c.index}` : c.type,
    );
    expect(reasons).toEqual(['budget@1', 'budget@2', 'budget@3']);
    // The newest group alone over the budget: sent anyway, and said so.
    const tight = modelView(state, { target: 'openai', budget: 1 });
    expect(tight.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(tight.overBudget).toBe(true);
  });

  it('refuses wrong options with the option, its value and a hint', () => {
    const state = createMemory();
    const message = (options: unknown) => {
      try {
        modelView(state, options as never);
      } catch (error) {
        expect(isConversationMemoryError(error)).toBe(true);
        return (error as Error).message;
      }
      return 'no error';
    };
    expect(message({ target: 'gpt' })).toContain(
      'options.target must be "openai", "anthropic" or "none", received "gpt"',
    );
    expect(message({ budget: 0 })).toContain('options.budget must be an integer ≥ 1, received 0');
    expect(message({ provider: 'openai' })).toContain(
      'options.provider is not an option (did you mean target?)',
    );
    expect(message({ transcript: [{ message: null, position: 0 }] })).toContain(
      'options.transcript[0].message',
    );
    expect(message('openai')).toContain('options must be an object');
  });
});
