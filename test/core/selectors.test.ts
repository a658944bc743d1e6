import { describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  getHistory,
  getRecent,
  getSummary,
  MemoryArgumentError,
  getTotalTokens,
} from 'conversation-memory';
import { contents, user } from '../helpers';

const state = addMessages(createMemory({ tokenizer: 'heuristic' }), [
  user('a'),
  user('bbbb'),
  user('cccccccc'),
]).state;

describe('selectors', () => {
  it('getHistory returns the window in order, the same array each time', () => {
    expect(contents(getHistory(state))).toEqual(['a', 'bbbb', 'cccccccc']);
    expect(getHistory(state)).toBe(getHistory(state));
  });

  it('getRecent returns the last n, or everything when there are fewer', () => {
    expect(contents(getRecent(state, 2))).toEqual(['bbbb', 'cccccccc']);
    expect(contents(getRecent(state, 3))).toEqual(['a', 'bbbb', 'cccccccc']);
    expect(contents(getRecent(state, 10))).toEqual(['a', 'bbbb', 'cccccccc']);
  });

  it('getRecent returns a new frozen array for n < length, and the state array itself otherwise', () => {
    const recent = getRecent(state, 2) as unknown as unknown[];
    expect(recent).not.toBe(state.messages);
    expect(() => recent.push('x')).toThrow(TypeError);
    expect(Object.isFrozen(getHistory(state))).toBe(true);
    expect(state.messages).toHaveLength(3);
    expect(getRecent(state, 3)).toBe(state.messages);
    expect(getRecent(state, 10)).toBe(getHistory(state));
  });

  it.each([0, -1, Number.NaN])(
    'getRecent(%s) throws a RangeError, even on an empty memory',
    (n) => {
      expect(() => getRecent(createMemory(), n)).toThrow(MemoryArgumentError);
      expect(() => getRecent(createMemory(), n)).toThrow(RangeError);
      expect(() => getRecent(createMemory(), n)).toThrow(
        `n must be at least 1, received ${String(n)}`,
      );
    },
  );

  it('getRecent rejects a fractional or non-number n', () => {
    expect(() => getRecent(state, 1.5)).toThrow('getRecent: n must be an integer, received 1.5');
    expect(() => getRecent(state, '3' as never)).toThrow(
      'getRecent: n must be an integer, received string "3"',
    );
  });

  it.each([
    ['getHistory', (s: unknown) => getHistory(s as never)],
    ['getSummary', (s: unknown) => getSummary(s as never)],
    ['getTotalTokens', (s: unknown) => getTotalTokens(s as never)],
    ['getRecent', (s: unknown) => getRecent(s as never, 1)],
  ])('%s rejects a value that is not a state', (api, select) => {
    const valid = createMemory();
    for (const bad of [
      undefined,
      null,
      {},
      { ...valid, tokenCounts: [1] },
      { ...valid, summary: undefined },
      { ...valid, config: {} },
      { ...valid, config: { ...valid.config, maxTokens: '5' } },
    ]) {
      expect(() => select(bad)).toThrow(MemoryArgumentError);
    }
    expect(() => select(undefined)).toThrow(
      `${api}: state must be a MemoryState (made by createMemory, a reducer or fromDict), received undefined`,
    );
  });

  it('getSummary and totalTokens read the state', () => {
    expect(getSummary(state)).toBeNull();
    expect(getTotalTokens(state)).toBe(3);
  });
});
