import { describe, expect, it } from 'vitest';
import {
  createMemory,
  enforceLimits,
  fixToolPairBoundary,
  type MemoryState,
  type Message,
} from 'conversation-memory';
import { assistant, call, contents, system, tool, user } from '../helpers';

/**
 * A state holding exactly these messages, limits not applied: what a store rehydrates or what
 * fromDict loads from a file that is over its limits. Heuristic counts: floor(length / 4).
 */
const raw = (
  messages: Message[],
  maxMessages = 20,
  maxTokens: number | null = null,
): MemoryState => {
  const tokenCounts = messages.map((m) => Math.floor((m.content ?? '').length / 4));
  return {
    ...createMemory({ maxMessages, maxTokens, tokenizer: 'heuristic' }),
    messages,
    tokenCounts,
    positionRuns: messages.length === 0 ? [] : [{ index: 0, position: 0 }],
    nextPosition: messages.length,
    totalTokens: tokenCounts.reduce((a, b) => a + b, 0),
  };
};

describe('fixToolPairBoundary (reference 1.5)', () => {
  it('drops leading tool results and tool-call messages: [tool, tc, user] → [user]', () => {
    const { state, effects } = fixToolPairBoundary(
      raw([tool('t'), assistant('', call('c1')), user('u')]),
    );
    expect(state.messages).toEqual([user('u')]);
    expect(effects).toEqual([
      {
        type: 'memory/trimmed',
        reason: 'enforce_limits',
        removed: [tool('t'), assistant('', call('c1'))],
        positions: [0, 1],
        rules: ['toolPairBoundary', 'toolPairBoundary'],
        remaining: 1,
        removedTokens: 0,
        remainingTokens: 0,
        breakdown: { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 2, startOn: 0 },
      },
    ]);
  });

  it('keeps a lone tool result', () => {
    const state = raw([tool('t')]);
    expect(fixToolPairBoundary(state).state).toBe(state);
  });

  it('keeps the last message even when all are tool messages', () => {
    expect(
      contents(fixToolPairBoundary(raw([tool('a'), tool('b'), tool('c')])).state.messages),
    ).toEqual(['c']);
  });

  it('ignores the limits', () => {
    const over = raw([system('s'), user('a'), user('b')], 1, 1);
    expect(fixToolPairBoundary(over).state).toBe(over);
  });

  it('is a no-op (same state, no effects) when the window starts cleanly', () => {
    const state = raw([user('u'), assistant('', call('c1')), tool('t')]);
    const result = fixToolPairBoundary(state);
    expect(result.state).toBe(state);
    expect(result.effects).toEqual([]);
  });

  it('keeps token totals consistent without recounting', () => {
    const { state } = fixToolPairBoundary(raw([tool('tttttttt'), user('uuuu')]));
    expect(state.totalTokens).toBe(1);
    expect(state.tokenCounts).toEqual([1]);
  });
});

describe('state checks', () => {
  it('enforceLimits and fixToolPairBoundary reject a value that is not a state', () => {
    expect(() => enforceLimits({ messages: [] } as never)).toThrow(
      'enforceLimits: state must be a MemoryState',
    );
    expect(() => fixToolPairBoundary(42 as never)).toThrow(
      'fixToolPairBoundary: state must be a MemoryState (made by createMemory, a reducer or fromDict), received 42',
    );
  });
});

describe('enforceLimits', () => {
  it('trims a state that is over its limits and reports the count rule', () => {
    const over = raw([user('m0'), user('m1'), user('m2')], 2);
    const { state, effects } = enforceLimits(over);
    expect(contents(state.messages)).toEqual(['m1', 'm2']);
    expect(effects).toEqual([
      {
        type: 'memory/trimmed',
        reason: 'enforce_limits',
        removed: [user('m0')],
        positions: [0],
        rules: ['messageLimit'],
        remaining: 2,
        removedTokens: 0,
        remainingTokens: 0,
        breakdown: { messageLimit: 1, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 },
      },
    ]);
  });

  it('applies the token rule with the stored counts', () => {
    const over = raw([user('a'.repeat(40)), user('b'.repeat(40)), user('c'.repeat(40))], 20, 20);
    const { state } = enforceLimits(over);
    expect(state.totalTokens).toBe(20);
    expect(state.messages).toHaveLength(2);
  });

  it('is idempotent and returns the same state when within limits', () => {
    const { state } = enforceLimits(raw([user('a'), assistant('', call('c1')), tool('t')], 2));
    expect(contents(state.messages)).toEqual(['t']);
    const again = enforceLimits(state);
    expect(again.state).toBe(state);
    expect(again.effects).toEqual([]);
  });
});
