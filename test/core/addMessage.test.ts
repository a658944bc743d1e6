import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  assistantMessage,
  createMemory,
  InvalidMessageError,
  type MemoryState,
  type Message,
  type TrimmedEffect,
  userMessage,
} from 'conversation-memory';
import { assistant, call, contents, system, tool, user } from '../helpers';

const addAll = (state: MemoryState, messages: readonly Message[]) => {
  let current = state;
  const removed: Message[][] = [];
  for (const message of messages) {
    const transition = addMessage(current, message);
    current = transition.state;
    removed.push(
      transition.effects.flatMap((e) => (e.type === 'memory/trimmed' ? [...e.removed] : [])),
    );
  }
  return { state: current, removed };
};

const heuristic = (options: { maxMessages?: number; maxTokens?: number | null } = {}) =>
  createMemory({ ...options, tokenizer: 'heuristic' });

describe('addMessage: the count window (reference 1.4 step 1)', () => {
  it('keeps the last maxMessages messages (the seed test)', () => {
    const { state } = addAll(
      heuristic({ maxMessages: 3 }),
      [0, 1, 2, 3, 4].map((i) => user(`Message ${i}`)),
    );
    expect(contents(state.messages)).toEqual(['Message 2', 'Message 3', 'Message 4']);
  });

  it('follows the seed walk-through: adding at the limit removes the oldest', () => {
    let state = heuristic({ maxMessages: 3 });
    for (const m of [user('Hello'), assistant('Hi!'), user("What's 2+2?")]) {
      state = addMessage(state, m).state;
    }
    const { state: next, effects } = addMessage(state, assistant('4'));
    expect(contents(next.messages)).toEqual(['Hi!', "What's 2+2?", '4']);
    expect(effects).toEqual([
      {
        type: 'memory/trimmed',
        reason: 'enforce_limits',
        removed: [user('Hello')],
        positions: [0],
        rules: ['messageLimit'],
        remaining: 3,
        removedTokens: 1,
        remainingTokens: 2,
        breakdown: { messageLimit: 1, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 },
      },
    ]);
  });

  it('reports no effect when nothing is trimmed', () => {
    expect(addMessage(heuristic(), user('hi')).effects).toEqual([]);
  });

  it('never mutates the input state', () => {
    const before = addMessage(heuristic({ maxMessages: 1 }), user('a')).state;
    const snapshot = JSON.stringify(before);
    addMessage(before, user('b'));
    expect(JSON.stringify(before)).toBe(snapshot);
  });
});

describe('addMessage: the token window (reference 1.4 step 2)', () => {
  it('counts floor(len/4) per message with no minimum of 1 (verified example)', () => {
    const { state, removed } = addAll(heuristic({ maxTokens: 1 }), [
      user('abc'),
      user('abc'),
      user('abcdefg'),
    ]);
    expect(state.messages).toHaveLength(3);
    expect(state.tokenCounts).toEqual([0, 0, 1]);
    expect(removed.flat()).toEqual([]);
  });

  it('keeps a total equal to the limit', () => {
    const forty = 'x'.repeat(40);
    const { state } = addAll(heuristic({ maxTokens: 20 }), [user(forty), user(forty)]);
    expect(state.messages).toHaveLength(2);
    expect(state.totalTokens).toBe(20);
  });

  it('removes the oldest until the total fits', () => {
    const { state, removed } = addAll(heuristic({ maxTokens: 20 }), [
      user('a'.repeat(40)),
      user('b'.repeat(40)),
      user('c'.repeat(8)),
    ]);
    expect(contents(state.messages)).toEqual(['b'.repeat(40), 'c'.repeat(8)]);
    expect(state.totalTokens).toBe(12);
    expect(removed[2]).toEqual([user('a'.repeat(40))]);
  });

  it('always keeps one message, even one over the limit', () => {
    const { state } = addAll(heuristic({ maxTokens: 1 }), [
      user('x'.repeat(40)),
      user('y'.repeat(400)),
    ]);
    expect(contents(state.messages)).toEqual(['y'.repeat(400)]);
    expect(state.totalTokens).toBe(100);
  });

  it('counts content null as 0 and ignores tool calls and parts (heuristic)', () => {
    const state = addMessage(heuristic({ maxTokens: 5 }), {
      role: 'assistant',
      content: null,
      toolCalls: [call('c1', 'search', { q: 'a very long query string indeed' })],
    }).state;
    expect(state.tokenCounts).toEqual([0]);
  });

  it('counts code points like Python, so an emoji is one character', () => {
    const state = addMessage(heuristic(), user('😀😀😀😀')).state;
    expect(state.tokenCounts).toEqual([1]);
  });

  it('runs the count rule before the token rule, and reports both', () => {
    const a = user('a'.repeat(8));
    const b = user('b'.repeat(16));
    const start = addMessages(heuristic({ maxMessages: 2, maxTokens: 6 }), [a, b]).state;
    expect(start.totalTokens).toBe(6);
    const { state, effects } = addMessage(start, user('c'.repeat(16)));
    expect(effects).toHaveLength(1);
    const effect = effects[0] as TrimmedEffect & { reason: 'enforce_limits' };
    expect(effect.removed).toEqual([a, b]);
    expect(effect.breakdown).toEqual({
      messageLimit: 1,
      tokenLimit: 1,
      toolPairBoundary: 0,
      startOn: 0,
    });
    expect(effect.removedTokens).toBe(6);
    expect(effect.remainingTokens).toBe(4);
    expect(state.totalTokens).toBe(4);
  });
});

describe('addMessage: the tool-pair boundary (reference 1.5)', () => {
  it('runs on every add: five tool messages one at a time leave [t4]', () => {
    const { state, removed } = addAll(
      heuristic({ maxMessages: 3 }),
      [0, 1, 2, 3, 4].map((i) => tool(`t${i}`)),
    );
    expect(contents(state.messages)).toEqual(['t4']);
    expect(contents(removed[4] ?? [])).toEqual(['t3']);
  });

  it('keeps one message even when it is an orphan tool result', () => {
    const { state } = addAll(heuristic({ maxMessages: 2 }), [
      user('q'),
      assistant('', call('c1')),
      tool('r'),
    ]);
    expect(state.messages).toEqual([tool('r')]);
  });

  it('keeps a lone assistant tool call with maxMessages 1', () => {
    const { state } = addAll(heuristic({ maxMessages: 1 }), [assistant('', call('c1'))]);
    expect(state.messages).toHaveLength(1);
  });

  it('over-trims as the reference does: [user, tc, tool, answer] at 3 becomes [answer]', () => {
    const { state, removed } = addAll(heuristic({ maxMessages: 3 }), [
      user('q'),
      assistant('', call('c1')),
      tool('r'),
      assistant('Found cats'),
    ]);
    expect(contents(state.messages)).toEqual(['Found cats']);
    expect(removed[3]).toEqual([user('q'), assistant('', call('c1')), tool('r')]);
  });

  it('stops at a plain assistant, a system message, or a user message even with a toolCallId', () => {
    for (const head of [assistant('plain'), system('sys'), { ...user('u'), toolCallId: 'c9' }]) {
      const state = addMessages(heuristic(), [head, tool('r'), user('next')]).state;
      expect(state.messages[0]).toEqual(head);
      expect(state.messages).toHaveLength(3);
    }
  });

  it('treats an assistant with an empty toolCalls list as plain text', () => {
    const state = addMessages(heuristic(), [
      { role: 'assistant', content: 'x', toolCalls: [] },
      user('u'),
    ]).state;
    expect(state.messages).toEqual([assistant('x'), user('u')]);
  });

  it('removes in order: count rule, token rule, then boundary', () => {
    let state = heuristic({ maxMessages: 4, maxTokens: 3 });
    const window = [user('uuuu'), user('vvvv'), assistant('', call('c1')), tool('rrrr')];
    state = addMessages(state, window).state;
    expect(state.messages).toEqual(window);
    const { state: next, effects } = addMessage(state, user('w'.repeat(8)));
    const effect = effects[0] as TrimmedEffect & { reason: 'enforce_limits' };
    expect(effect.removed).toEqual(window);
    expect(effect.breakdown).toEqual({
      messageLimit: 1,
      tokenLimit: 1,
      toolPairBoundary: 2,
      startOn: 0,
    });
    expect(contents(next.messages)).toEqual(['w'.repeat(8)]);
  });
});

describe('addMessages (reference add_many)', () => {
  it('enforces once, so messages added together can be trimmed', () => {
    const { state, effects } = addMessages(heuristic({ maxMessages: 2 }), [
      user('a'),
      user('b'),
      user('c'),
    ]);
    expect(contents(state.messages)).toEqual(['b', 'c']);
    expect(effects).toHaveLength(1);
    expect(contents((effects[0] as TrimmedEffect).removed)).toEqual(['a']);
  });

  it('trims old and new messages in one effect, in order', () => {
    const start = addMessages(heuristic({ maxMessages: 2 }), [user('a'), user('b')]).state;
    const { effects } = addMessages(start, [user('c'), user('d'), user('e')]);
    expect(contents((effects[0] as TrimmedEffect).removed)).toEqual(['a', 'b', 'c']);
  });

  it('still enforces with an empty list', () => {
    const over = addMessages(heuristic(), [tool('t'), user('u')]);
    expect(over.state.messages).toEqual([user('u')]);
    const empty = addMessages(over.state, []);
    expect(empty.state).toBe(over.state);
    expect(empty.effects).toEqual([]);
  });
});

describe('message validation', () => {
  it('stores a frozen canonical copy and leaves the caller object alone', () => {
    const mine = {
      role: 'tool' as const,
      content: '42',
      toolCallId: 'c1',
      toolName: 'calc',
      toolResult: undefined,
    };
    const state = addMessage(heuristic(), mine as never).state;
    expect(state.messages[0]).toEqual({
      role: 'tool',
      content: '42',
      toolCallId: 'c1',
      toolName: 'calc',
    });
    expect(Object.keys(state.messages[0] ?? {})).not.toContain('toolResult');
    expect(Object.isFrozen(state.messages[0])).toBe(true);
    expect(Object.isFrozen(mine)).toBe(false);
  });

  it('deep-copies tool-call parameters', () => {
    const parameters = { city: 'Paris', nested: { days: [1, 2] } };
    const state = addMessage(heuristic(), assistant('', call('c1', 'weather', parameters))).state;
    parameters.nested.days.push(3);
    expect(state.messages[0]?.toolCalls?.[0]?.parameters).toEqual({
      city: 'Paris',
      nested: { days: [1, 2] },
    });
  });

  it('names a circular reference in parameters instead of recursing', () => {
    const cyclic: Record<string, unknown> = { a: { b: 1 } };
    (cyclic['a'] as Record<string, unknown>)['self'] = cyclic;
    expect(() => addMessage(heuristic(), assistant('', call('c1', 'f', cyclic as never)))).toThrow(
      'message.toolCalls[0].parameters.a.self: circular reference',
    );
    expect(() => addMessage(heuristic(), assistant('', call('c1', 'f', [1] as never)))).toThrow(
      'message.toolCalls[0].parameters: expected a JSON object, got an array of length 1',
    );
  });

  it('accepts parameters nested 200 levels deep and rejects 201, naming the culprit', () => {
    const nest = (levels: number): Record<string, unknown> => {
      let value: Record<string, unknown> = {};
      for (let i = 1; i < levels; i++) value = { a: value };
      return value;
    };
    expect(() =>
      addMessage(heuristic(), assistant('', call('c1', 'f', { a: nest(199) } as never))),
    ).not.toThrow();
    expect(() =>
      addMessage(heuristic(), assistant('', call('c1', 'f', { a: nest(200) } as never))),
    ).toThrow(/parameters\.a\.a\.a.*….*: nested deeper than 200 levels$/);
    // At the limit the fast path and the error path agree, so the Date is what gets reported.
    expect(() =>
      addMessage(
        heuristic(),
        assistant('', call('c1', 'f', { a: nest(199), b: new Date(0) } as never)),
      ),
    ).toThrow('message.toolCalls[0].parameters.b: expected a JSON value, got a Date');
  });

  it('stores a -0 parameter as 0, since JSON has no -0', () => {
    const state = addMessage(
      heuristic(),
      assistant('', call('c1', 'f', { x: -0, list: [-0] })),
    ).state;
    expect(Object.is(state.messages[0]?.toolCalls?.[0]?.parameters['x'], 0)).toBe(true);
    expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
  });

  it('reuses messages made by the constructors without copying', () => {
    const message = userMessage('hi');
    expect(addMessage(heuristic(), message).state.messages[0]).toBe(message);
    const reply = assistantMessage('hello');
    expect(Object.isFrozen(reply)).toBe(true);
  });

  it.each([
    [
      { role: 'USER', content: 'x' },
      'message.role must be one of "user", "assistant", "system", "tool", received "USER"',
    ],
    [{ role: 'user' }, 'message.content must be a string or null, received undefined'],
    [{ role: 'user', content: 5 }, 'message.content must be a string or null, received 5'],
    [
      { role: 'tool', content: 'x', tool_call_id: 'c1' },
      'message.tool_call_id is not a field of this object (did you mean toolCallId?)',
    ],
    [
      { role: 'assistant', content: '', toolCalls: [{ parameters: {} }] },
      'message.toolCalls[0].name must be a string, received undefined',
    ],
    [
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ name: 'f', parameters: { when: new Date(0) } }],
      },
      'message.toolCalls[0].parameters.when: expected a JSON value, got a Date',
    ],
    [
      { role: 'assistant', content: '', toolCalls: 'f' },
      'message.toolCalls must be an array, received "f"',
    ],
    [
      { role: 'user', content: '', contentParts: [{ text: 'x' }] },
      'message.contentParts[0].type must be a string, received undefined',
    ],
    [null, 'message must be an object, received null'],
  ])('rejects %o without touching the state', (bad, message) => {
    const state = heuristic();
    expect(() => addMessage(state, bad as never)).toThrow(InvalidMessageError);
    expect(() => addMessage(state, bad as never)).toThrow(message);
    expect(state.messages).toEqual([]);
  });

  it('names the index of a bad message in addMessages and adds none of them', () => {
    const state = heuristic();
    expect(() =>
      addMessages(state, [user('ok'), { role: 'robot', content: 'x' } as never]),
    ).toThrow(
      'addMessages: messages[1].role must be one of "user", "assistant", "system", "tool", received "robot"',
    );
    expect(() => addMessages(state, 'nope' as never)).toThrow(
      'messages must be an array, received "nope"',
    );
    expect(state.messages).toEqual([]);
  });

  it('rejects a value that is not a state, naming the reducer', () => {
    expect(() => addMessage(undefined as never, user('x'))).toThrow(
      'addMessage: state must be a MemoryState (made by createMemory, a reducer or fromDict), received undefined',
    );
    expect(() => addMessages({} as never, [])).toThrow('addMessages: state must be a MemoryState');
  });

  it('accepts null for optional fields and drops them', () => {
    const state = addMessage(heuristic(), {
      role: 'tool',
      content: 'x',
      toolCallId: null,
      toolName: 'calc',
    } as never).state;
    expect(state.messages[0]).toEqual({ role: 'tool', content: 'x', toolName: 'calc' });
  });
});
