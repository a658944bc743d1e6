import { describe, expect, it } from 'vitest';
import {
  applySummary,
  clearMemory,
  createMemory,
  addMessages,
  getSummary,
  MemoryArgumentError,
  setSummary,
} from 'conversation-memory';
import { MAX_SUMMARY_CHARS } from 'conversation-memory/constants';
import { user } from '../helpers';

const empty = createMemory({ tokenizer: 'heuristic' });

describe('applySummary (reference _append_summary)', () => {
  it('uses the text alone when there is no summary, and reports the change', () => {
    const { state, effects } = applySummary(empty, 'SUM1');
    expect(getSummary(state)).toBe('SUM1');
    expect(effects).toEqual([{ type: 'memory/summaryChanged', summary: 'SUM1', previous: null }]);
  });

  it('joins chunks with one space', () => {
    const once = applySummary(empty, 'SUM1').state;
    expect(getSummary(applySummary(once, 'SUM2').state)).toBe('SUM1 SUM2');
  });

  it('treats an empty existing summary as none', () => {
    const blank = setSummary(empty, '').state;
    expect(getSummary(applySummary(blank, 'x').state)).toBe('x');
  });

  it('keeps the newest 4000 characters, cutting the front', () => {
    const first = applySummary(empty, 'a'.repeat(3000)).state;
    const { state } = applySummary(first, 'b'.repeat(1500));
    const summary = getSummary(state) ?? '';
    expect(MAX_SUMMARY_CHARS).toBe(4000);
    expect(summary).toHaveLength(4000);
    expect(summary).toBe(`${'a'.repeat(2499)} ${'b'.repeat(1500)}`);
  });

  it('counts characters as code points and never splits a surrogate pair', () => {
    const { state } = applySummary(empty, '😀'.repeat(4001));
    expect([...(getSummary(state) ?? '')]).toHaveLength(4000);
    expect(getSummary(state)).toBe('😀'.repeat(4000));
  });

  it('changes nothing for an empty text: same state, no effects', () => {
    const state = applySummary(empty, 'x').state;
    const result = applySummary(state, '');
    expect(result.state).toBe(state);
    expect(result.effects).toEqual([]);
  });

  it('rejects a non-string text', () => {
    expect(() => applySummary(empty, 42 as never)).toThrow(MemoryArgumentError);
    expect(() => applySummary(empty, 42 as never)).toThrow(
      'applySummary: text must be a string, received 42',
    );
  });

  it('keeps the messages untouched', () => {
    const withMessages = addMessages(empty, [user('a'), user('b')]).state;
    const { state } = applySummary(withMessages, 'S');
    expect(state.messages).toBe(withMessages.messages);
    expect(state.tokenCounts).toBe(withMessages.tokenCounts);
  });
});

describe('setSummary (the reference setter)', () => {
  it('replaces without joining or capping', () => {
    const long = 'z'.repeat(5000);
    const state = setSummary(applySummary(empty, 'old').state, long).state;
    expect(getSummary(state)).toBe(long);
  });

  it('removes with null and reports the previous text', () => {
    const withSummary = setSummary(empty, 'S').state;
    expect(setSummary(withSummary, null).effects).toEqual([
      { type: 'memory/summaryChanged', summary: null, previous: 'S' },
    ]);
  });

  it('returns the same state when the text is unchanged', () => {
    const withSummary = setSummary(empty, 'S').state;
    expect(setSummary(withSummary, 'S').state).toBe(withSummary);
    expect(setSummary(empty, null).state).toBe(empty);
  });

  it('rejects values other than a string or null', () => {
    expect(() => setSummary(empty, { text: 'x' } as never)).toThrow(
      'setSummary: text must be a string or null, received an object',
    );
  });
});

describe('state checks', () => {
  it.each([
    ['applySummary', () => applySummary(null as never, 'x')],
    ['setSummary', () => setSummary(null as never, 'x')],
    ['clearMemory', () => clearMemory(null as never)],
  ])('%s rejects a value that is not a state', (api, call) => {
    expect(call).toThrow(MemoryArgumentError);
    expect(call).toThrow(`${api}: state must be a MemoryState`);
  });
});

describe('clearMemory', () => {
  it('empties the window and the summary, keeping the config', () => {
    const full = setSummary(
      addMessages(createMemory({ maxMessages: 5, tokenizer: 'heuristic' }), [
        user('abcdefgh'),
        user('b'),
      ]).state,
      'S',
    ).state;
    const { state, effects } = clearMemory(full);
    expect(state).toEqual({
      ...full,
      messages: [],
      tokenCounts: [],
      positionRuns: [],
      totalTokens: 0,
      summary: null,
    });
    expect(effects).toEqual([
      {
        type: 'memory/trimmed',
        reason: 'clear',
        removed: [user('abcdefgh'), user('b')],
        positions: [0, 1],
        remaining: 0,
        removedTokens: 2,
        remainingTokens: 0,
      },
      { type: 'memory/summaryChanged', summary: null, previous: 'S' },
    ]);
  });

  it('is a no-op on an empty memory', () => {
    const result = clearMemory(empty);
    expect(result.state).toBe(empty);
    expect(result.effects).toEqual([]);
  });
});
