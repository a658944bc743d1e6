import { expect } from 'vitest';
import { fromDict, toDict, type MemoryState, type Transition } from 'conversation-memory';

const jsonRoundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * Law 6, serializability, for a state: it survives `JSON.parse(JSON.stringify(s))` strictly
 * unchanged (so it holds no `undefined`, functions or class instances), `toDict` writes the
 * reference's keys in order, and `fromDict(toDict(s))`, directly and through JSON text, is `Right`
 * with a state strictly equal to `s`. (`fromDict` fixes the tool-pair boundary, a no-op here.)
 */
export const checkStateSerializable = (state: MemoryState): void => {
  expect(jsonRoundTrip(state)).toStrictEqual(state);
  const dict = toDict(state);
  expect(Object.keys(dict).slice(0, 5)).toEqual([
    'max_messages',
    'max_tokens',
    'message_count',
    'messages',
    'summary',
  ]);
  expect(dict.message_count).toBe(state.messages.length);
  for (const input of [dict, jsonRoundTrip(dict)]) {
    const decoded = fromDict(input);
    if (decoded._tag === 'Left') throw decoded.left;
    expect(decoded.right).toStrictEqual(state);
  }
};

/** Law 6, serializability, for a transition: its state (as above) and its effects. */
export const checkSerializable = (transition: Transition): void => {
  checkStateSerializable(transition.state);
  expect(jsonRoundTrip(transition.effects)).toStrictEqual(transition.effects);
};
