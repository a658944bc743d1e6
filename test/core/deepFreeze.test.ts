import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  assistantMessage,
  createMemory,
  getHistory,
  InvalidMessageError,
  type Message,
} from 'conversation-memory';
import { deepFreeze, deepFreezeMessage } from '../../src/model/freeze';

/** Every object and array reachable from `value` through own enumerable keys. */
const objectsIn = (value: unknown, seen = new Set<object>()): Set<object> => {
  if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const key of Object.keys(value)) {
      objectsIn((value as Record<string, unknown>)[key], seen);
    }
  }
  return seen;
};

const unfrozenIn = (value: unknown): object[] =>
  [...objectsIn(value)].filter((object) => !Object.isFrozen(object));

/** A message with every nested part: tool calls, parameters, content parts. */
const richMessage = (): Message => ({
  role: 'assistant',
  content: 'looking',
  toolCalls: [
    { id: 'c1', name: 'search', parameters: { query: 'cats', filters: [{ near: [1, 2] }] } },
    { id: 'c2', name: 'fetch', parameters: {} },
  ],
  contentParts: [
    { type: 'text', text: 'looking' },
    { type: 'image_url', imageUrl: 'https://example.com/cat.png' },
  ],
});

describe('deepFreeze', () => {
  it('freezes a message, its tool calls, parameters and content parts', () => {
    const message = richMessage();
    expect(unfrozenIn(message).length).toBeGreaterThan(0);
    expect(deepFreezeMessage(message)).toBe(message);
    expect(unfrozenIn(message)).toEqual([]);
    expect(message).toEqual(richMessage());
  });

  it('a message that enters a state is frozen all the way down', () => {
    const state = addMessage(createMemory({ tokenizer: 'heuristic' }), richMessage()).state;
    const [stored] = getHistory(state);
    expect(stored).toEqual(richMessage());
    expect(unfrozenIn(stored)).toEqual([]);
  });

  it('freezes any JSON value, keeping its content', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = structuredClone(value);
        expect(deepFreeze(value)).toBe(value);
        expect(unfrozenIn(value)).toEqual([]);
        expect(value).toEqual(copy);
      }),
    );
  });

  it('freezes a sub-object shared by two parts, once', () => {
    const shared = { unit: 'celsius', range: [0, 40] };
    const tree = { a: { shared }, b: [shared, { shared }] };
    deepFreeze(tree);
    expect(unfrozenIn(tree)).toEqual([]);
    expect(tree.a.shared).toBe(shared);
    expect(tree.b[0]).toBe(shared);
  });

  it('keeps a __proto__ key as data and freezes what it holds', () => {
    const parameters = JSON.parse('{"x": {"__proto__": {"polluted": true}, "y": [1]}}') as {
      x: Record<string, unknown>;
    };
    deepFreeze(parameters);
    expect(Object.getPrototypeOf(parameters.x)).toBe(Object.prototype);
    expect(Object.keys(parameters.x)).toEqual(['__proto__', 'y']);
    const held = Object.getOwnPropertyDescriptor(parameters.x, '__proto__')?.value as object;
    expect(held).toEqual({ polluted: true });
    expect(Object.isFrozen(held)).toBe(true);
    expect(unfrozenIn(parameters)).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a tool call whose parameters have a __proto__ key keeps it as data when stored', () => {
    const parameters = JSON.parse('{"__proto__": {"admin": true}}') as Record<string, never>;
    const message = assistantMessage(null, [{ id: 'c1', name: 'f', parameters }]);
    const stored = message.toolCalls?.[0]?.parameters;
    expect(Object.keys(stored ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(unfrozenIn(message)).toEqual([]);
  });

  it('ends on a cycle, freezing every object of it', () => {
    const a: Record<string, unknown> = { name: 'a' };
    const b: Record<string, unknown> = { name: 'b', back: a, list: [a] };
    a['next'] = b;
    a['self'] = a;
    expect(deepFreeze(a)).toBe(a);
    expect(unfrozenIn(a)).toEqual([]);
  });

  it('a message with cyclic parameters does not hang the add', () => {
    const parameters: Record<string, unknown> = { depth: 1 };
    parameters['again'] = parameters;
    const message = { role: 'assistant', content: null, toolCalls: [{ name: 'f', parameters }] };
    // Admission copies parameters as JSON and rejects the cycle before anything is frozen.
    expect(() =>
      addMessage(createMemory({ tokenizer: 'heuristic' }), message as unknown as Message),
    ).toThrow(InvalidMessageError);
    expect(Object.isFrozen(parameters)).toBe(false);
  });

  it('walks nesting far deeper than the call stack allows recursion', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 200_000; i++) {
      const next = {};
      deep['child'] = next;
      deep = next;
    }
    deepFreeze(root);
    expect(Object.isFrozen(deep)).toBe(true);
  });

  it('skips a subtree that is already frozen, and returns primitives as they are', () => {
    const inner = { mutable: true };
    const frozenOuter = Object.freeze({ inner });
    deepFreeze({ frozenOuter });
    expect(Object.isFrozen(inner)).toBe(false);
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze('text')).toBe('text');
  });
});
