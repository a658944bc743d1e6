import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  clearMemory,
  createMemory,
  enforceLimits,
  fixToolPairBoundary,
  getHistory,
  getPositions,
  planTrim,
  type MemoryEffect,
  type MemoryOptions,
  type MemoryState,
  type Message,
  type TrimRule,
} from 'conversation-memory';
import { assistant, call, contents, system, tool, user } from '../helpers';

/**
 * The strict policy (issue #6 §5): worked examples for each rule, with the exact effects. Every
 * memory counts with `'heuristic'` (floor(length / 4)), so `words(n)` weighs exactly n tokens.
 */

const strict = (options: MemoryOptions = {}): MemoryState =>
  createMemory({ tokenizer: 'heuristic', toolPairs: 'strict', ...options });

/** A content of exactly `n` heuristic tokens, starting with `label`. */
const words = (label: string, n: number): string => label.padEnd(4 * n, '.');

/** Adds the messages one at a time (`addMessage`), collecting every effect. */
const feed = (
  state: MemoryState,
  messages: readonly Message[],
): { state: MemoryState; effects: readonly MemoryEffect[] } => {
  const effects: MemoryEffect[] = [];
  for (const message of messages) {
    const next = addMessage(state, message);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
};

/** The `memory/trimmed` effect of an add, with the breakdown spelled out by the caller. */
const trimmed = (fields: {
  removed: Message[];
  positions: number[];
  rules: TrimRule[];
  remaining: number;
  removedTokens?: number;
  remainingTokens?: number;
  breakdown: {
    messageLimit: number;
    tokenLimit: number;
    toolPairBoundary: number;
    startOn: number;
  };
}): MemoryEffect => ({
  type: 'memory/trimmed',
  reason: 'enforce_limits',
  removed: fields.removed,
  positions: fields.positions,
  rules: fields.rules,
  remaining: fields.remaining,
  removedTokens: fields.removedTokens ?? 0,
  remainingTokens: fields.remainingTokens ?? 0,
  breakdown: fields.breakdown,
});

const NONE = { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 };

/**
 * A state holding exactly these messages under `options`, no rule applied: what a store
 * rehydrates. Lets the explicit reducers (`enforceLimits`, `fixToolPairBoundary`, `planTrim`) be
 * shown windows that no add would leave.
 */
const raw = (messages: Message[], options: MemoryOptions = {}): MemoryState => {
  const tokenCounts = messages.map((m) => Math.floor((m.content ?? '').length / 4));
  return {
    ...strict(options),
    messages,
    tokenCounts,
    positionRuns: messages.length === 0 ? [] : [{ index: 0, position: 0 }],
    nextPosition: messages.length,
    totalTokens: tokenCounts.reduce((a, b) => a + b, 0),
  };
};

describe('strict: a tool-call message and its results are one group', () => {
  const u0 = user('u0');
  const request = assistant('', call('c1'), call('c2'));
  const r1 = tool('r1', 'c1');
  const r2 = tool('r2', 'c2');
  const u1 = user('u1');

  it('the count rule removes the whole group, even when one message would do', () => {
    const { state, effects } = feed(strict({ maxMessages: 3 }), [u0, request, r1, r2, u1]);
    expect(effects).toEqual([
      trimmed({
        removed: [u0],
        positions: [0],
        rules: ['messageLimit'],
        remaining: 3,
        breakdown: { ...NONE, messageLimit: 1 },
      }),
      trimmed({
        removed: [request, r1, r2],
        positions: [1, 2, 3],
        rules: ['messageLimit', 'messageLimit', 'messageLimit'],
        remaining: 1,
        breakdown: { ...NONE, messageLimit: 3 },
      }),
    ]);
    expect(getHistory(state)).toEqual([u1]);
    expect(getPositions(state)).toEqual([4]);
    expect(state.nextPosition).toBe(5);
  });

  it('the reference policy splits the same group and keeps a lone orphan (the contrast)', () => {
    const reference = feed(createMemory({ tokenizer: 'heuristic', maxMessages: 3 }), [
      u0,
      request,
      r1,
      r2,
    ]).state;
    // [request, r1, r2] → the reference's boundary rule drops the leading tool exchange.
    expect(getHistory(reference)).toEqual([r2]);
    const kept = feed(strict({ maxMessages: 3 }), [u0, request, r1, r2]).state;
    expect(getHistory(kept)).toEqual([request, r1, r2]);
    expect(getPositions(kept)).toEqual([1, 2, 3]);
  });

  it('the token rule removes the whole group', () => {
    const big = assistant(words('ask', 2), call('c1'));
    const result = tool(words('res', 2), 'c1');
    const next = user(words('next', 1));
    const { state, effects } = feed(strict({ maxTokens: 3 }), [big, result, next]);
    expect(effects).toEqual([
      trimmed({
        removed: [big, result],
        positions: [0, 1],
        rules: ['tokenLimit', 'tokenLimit'],
        remaining: 1,
        removedTokens: 4,
        remainingTokens: 1,
        breakdown: { ...NONE, tokenLimit: 2 },
      }),
    ]);
    expect(getHistory(state)).toEqual([next]);
    expect(state.totalTokens).toBe(1);
  });

  it('the newest group stays whole even when it alone exceeds maxMessages', () => {
    const { state, effects } = feed(strict({ maxMessages: 1 }), [u0, request, r1, r2]);
    expect(effects).toEqual([
      trimmed({
        removed: [u0],
        positions: [0],
        rules: ['messageLimit'],
        remaining: 1,
        breakdown: { ...NONE, messageLimit: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([request, r1, r2]);
    expect(getPositions(state)).toEqual([1, 2, 3]);
  });

  it('the newest group stays whole even when it alone exceeds maxTokens', () => {
    const big = assistant(words('ask', 3), call('c1'));
    const result = tool(words('res', 3), 'c1');
    const { state, effects } = feed(strict({ maxTokens: 2 }), [big, result]);
    expect(effects).toEqual([]);
    expect(getHistory(state)).toEqual([big, result]);
    expect(state.totalTokens).toBe(6);
  });

  it('a newest plain message over maxTokens stays alone, as in the reference', () => {
    const huge = user(words('huge', 9));
    const { state, effects } = feed(strict({ maxTokens: 2 }), [u0, huge]);
    expect(effects).toEqual([
      trimmed({
        removed: [u0],
        positions: [0],
        rules: ['tokenLimit'],
        remaining: 1,
        removedTokens: 0,
        remainingTokens: 9,
        breakdown: { ...NONE, tokenLimit: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([huge]);
  });

  it('results may come in any order; the group is answered once all ids are', () => {
    const { state, effects } = feed(strict(), [u0, request, r2, r1, u1]);
    expect(effects).toEqual([]);
    expect(getHistory(state)).toEqual([u0, request, r2, r1, u1]);
  });
});

describe('strict: tool results that answer nothing are removed at once', () => {
  it('a result whose call is not in the window', () => {
    const orphan = tool('st', 'c9');
    const { state, effects } = feed(strict(), [user('u0'), orphan]);
    expect(effects).toEqual([
      trimmed({
        removed: [orphan],
        positions: [1],
        rules: ['toolPairBoundary'],
        remaining: 1,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([user('u0')]);
    // The removed result still consumed its position.
    expect(getPositions(state)).toEqual([0]);
    expect(state.nextPosition).toBe(2);
    expect(getPositions(addMessage(state, user('u2')).state)).toEqual([0, 2]);
  });

  it('a result as the very first message (an empty window)', () => {
    const orphan = tool(words('stray', 2), 'c1');
    const { state, effects } = addMessage(strict(), orphan);
    expect(effects).toEqual([
      trimmed({
        removed: [orphan],
        positions: [0],
        rules: ['toolPairBoundary'],
        remaining: 0,
        removedTokens: 2,
        remainingTokens: 0,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([]);
    expect(state.totalTokens).toBe(0);
    expect(state.nextPosition).toBe(1);
  });

  it('a result without a toolCallId, even right after a call', () => {
    const request = assistant('', call('c1'));
    const bare: Message = { role: 'tool', content: 'nid' };
    const { state, effects } = feed(strict(), [request, bare]);
    expect(effects).toEqual([
      trimmed({
        removed: [bare],
        positions: [1],
        rules: ['toolPairBoundary'],
        remaining: 1,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([request]);
  });

  it('a second result for a call already answered', () => {
    const request = assistant('', call('c1'));
    const again = tool('ag', 'c1');
    const { state, effects } = feed(strict(), [request, tool('r1', 'c1'), again]);
    expect(effects).toEqual([
      trimmed({
        removed: [again],
        positions: [2],
        rules: ['toolPairBoundary'],
        remaining: 2,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(contents(getHistory(state))).toEqual(['', 'r1']);
  });

  it('a result for a call of an older group (only the open group can be answered)', () => {
    const first = assistant('', call('c1'), call('c2'));
    const second = assistant('', call('c3'));
    const late = tool('lt', 'c2');
    // The first group is answered in full, then the second opens; c2 now answers nothing.
    const { state, effects } = feed(strict(), [
      first,
      tool('r1', 'c1'),
      tool('r2', 'c2'),
      second,
      late,
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [late],
        positions: [4],
        rules: ['toolPairBoundary'],
        remaining: 4,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([first, tool('r1', 'c1'), tool('r2', 'c2'), second]);
  });

  it('a result after a user message closed its (answered) group', () => {
    const { state, effects } = feed(strict(), [
      assistant('', call('c1')),
      tool('r1', 'c1'),
      user('u'),
      tool('lt', 'c1'),
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [tool('lt', 'c1')],
        positions: [3],
        rules: ['toolPairBoundary'],
        remaining: 3,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(contents(getHistory(state))).toEqual(['', 'r1', 'u']);
  });

  it('a result that arrives after its call was removed is removed too', () => {
    const request = assistant('', call('c1'), call('c2'));
    const { state, effects } = feed(strict(), [
      request,
      tool('r1', 'c1'),
      user('int'),
      tool('r2', 'c2'),
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [request, tool('r1', 'c1')],
        positions: [0, 1],
        rules: ['toolPairBoundary', 'toolPairBoundary'],
        remaining: 1,
        breakdown: { ...NONE, toolPairBoundary: 2 },
      }),
      trimmed({
        removed: [tool('r2', 'c2')],
        positions: [3],
        rules: ['toolPairBoundary'],
        remaining: 1,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([user('int')]);
    expect(getPositions(state)).toEqual([2]);
  });
});

describe('strict: a group whose calls are not all answered', () => {
  const request = assistant(words('ask', 1), call('c1'), call('c2'));
  const r1 = tool(words('r1', 1), 'c1');

  it('is kept whole while it is the newest (its results may still come)', () => {
    const { state, effects } = feed(strict({ maxMessages: 1 }), [request, r1]);
    expect(effects).toEqual([]);
    expect(getHistory(state)).toEqual([request, r1]);
    // Nothing to do for the explicit reducers either: the same state comes back.
    expect(enforceLimits(state)).toEqual({ state, effects: [] });
    expect(enforceLimits(state).state).toBe(state);
    expect(fixToolPairBoundary(state).state).toBe(state);
    expect(planTrim(state)).toEqual({ removed: [], rules: [], remainingTokens: 2 });
  });

  it.each([
    ['a user message', user('u')],
    ['an assistant text', assistant('txt')],
    ['a system message', system('sys')],
    ['a system message, pinned', system('sys')],
  ])('is removed whole when %s arrives', (name, next) => {
    const pinSystem = name.endsWith('pinned');
    const { state, effects } = feed(strict({ pinSystem }), [user('u0'), request, r1, next]);
    expect(effects).toEqual([
      trimmed({
        removed: [request, r1],
        positions: [1, 2],
        rules: ['toolPairBoundary', 'toolPairBoundary'],
        remaining: 2,
        removedTokens: 2,
        breakdown: { ...NONE, toolPairBoundary: 2 },
      }),
    ]);
    expect(getHistory(state)).toEqual([user('u0'), next]);
    expect(getPositions(state)).toEqual([0, 3]);
  });

  it('is removed whole when another tool-call message arrives, which stays open', () => {
    const other = assistant('', call('c3'));
    const { state, effects } = feed(strict(), [request, other]);
    expect(effects).toEqual([
      trimmed({
        removed: [request],
        positions: [0],
        rules: ['toolPairBoundary'],
        remaining: 1,
        removedTokens: 1,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([other]);
  });

  it('a group that can never be answered (a call without an id, a shared id) is removed at once', () => {
    const anonymous = assistant('', { name: 'calc', parameters: {} });
    const bare: Message = { role: 'tool', content: 'nid' };
    let { state, effects } = feed(strict(), [user('u0'), anonymous]);
    expect(effects).toEqual([
      trimmed({
        removed: [anonymous],
        positions: [1],
        rules: ['toolPairBoundary'],
        remaining: 1,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([user('u0')]);
    ({ state, effects } = feed(state, [bare, user('u1')]));
    expect(effects).toEqual([
      trimmed({
        removed: [bare],
        positions: [2],
        rules: ['toolPairBoundary'],
        remaining: 1,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(contents(getHistory(state))).toEqual(['u0', 'u1']);
    const twins = assistant('', call('c1'), call('c1'));
    expect(getHistory(feed(strict(), [user('u0'), twins, tool('r', 'c1')]).state)).toEqual([
      user('u0'),
    ]);
  });
});

describe('strict: addMessages plans the whole batch once', () => {
  it('removes orphans and unanswered groups inside the batch, in window order', () => {
    const request = assistant('', call('c1'));
    const stray = tool('st', 'c9');
    const cut = assistant('', call('c2'));
    const batch = [user('u0'), request, stray, tool('r1', 'c1'), cut, user('u1')];
    const { state, effects } = addMessages(strict(), batch);
    expect(effects).toEqual([
      trimmed({
        removed: [stray, cut],
        positions: [2, 4],
        rules: ['toolPairBoundary', 'toolPairBoundary'],
        remaining: 4,
        breakdown: { ...NONE, toolPairBoundary: 2 },
      }),
    ]);
    expect(getHistory(state)).toEqual([user('u0'), request, tool('r1', 'c1'), user('u1')]);
    expect(getPositions(state)).toEqual([0, 1, 3, 5]);
    expect(state.nextPosition).toBe(6);
  });

  it('merges the pairing and the limit removals: indices ascending, rules parallel', () => {
    const stray = tool('st', 'c9');
    const { state, effects } = addMessages(strict({ maxMessages: 2 }), [
      user('u0'),
      stray,
      user('u1'),
      user('u2'),
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [user('u0'), stray],
        positions: [0, 1],
        rules: ['messageLimit', 'toolPairBoundary'],
        remaining: 2,
        breakdown: { ...NONE, messageLimit: 1, toolPairBoundary: 1 },
      }),
    ]);
    expect(contents(getHistory(state))).toEqual(['u1', 'u2']);
    expect(getPositions(state)).toEqual([2, 3]);
  });

  it('the results of an open group may arrive in a later batch', () => {
    const request = assistant('', call('c1'), call('c2'));
    let { state, effects } = addMessages(strict(), [user('u0'), request, tool('r1', 'c1')]);
    expect(effects).toEqual([]);
    ({ state, effects } = addMessages(state, [tool('r2', 'c2'), user('u1')]));
    expect(effects).toEqual([]);
    expect(contents(getHistory(state))).toEqual(['u0', '', 'r1', 'r2', 'u1']);
  });

  it('an empty batch on a settled state changes nothing', () => {
    const { state } = feed(strict({ maxMessages: 2 }), [user('u0'), user('u1')]);
    const next = addMessages(state, []);
    expect(next.state).toBe(state);
    expect(next.effects).toEqual([]);
  });
});

describe('pinSystem: system messages are never removed, and still counted', () => {
  it('the count rule skips them; they count toward maxMessages', () => {
    const sys = system('sys');
    const { state, effects } = feed(strict({ maxMessages: 2, pinSystem: true }), [
      sys,
      user('u0'),
      user('u1'),
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [user('u0')],
        positions: [1],
        rules: ['messageLimit'],
        remaining: 2,
        breakdown: { ...NONE, messageLimit: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([sys, user('u1')]);
    expect(getPositions(state)).toEqual([0, 2]);
  });

  it('without pinSystem the system message is removed like any other', () => {
    const { state } = feed(strict({ maxMessages: 2 }), [system('rules'), user('u0'), user('u1')]);
    expect(contents(getHistory(state))).toEqual(['u0', 'u1']);
  });

  it('they count toward maxTokens', () => {
    const sys = system(words('sys', 2));
    const { state, effects } = feed(strict({ maxTokens: 3, pinSystem: true }), [
      sys,
      user(words('u0', 1)),
      user(words('u1', 1)),
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [user(words('u0', 1))],
        positions: [1],
        rules: ['tokenLimit'],
        remaining: 2,
        removedTokens: 1,
        remainingTokens: 3,
        breakdown: { ...NONE, tokenLimit: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([sys, user(words('u1', 1))]);
    expect(state.totalTokens).toBe(3);
  });

  it('removals skip a pinned message in the middle (not a prefix of the window)', () => {
    const sys = system('mid');
    const { state, effects } = feed(strict({ maxMessages: 3, pinSystem: true }), [
      user('u0'),
      sys,
      user('u1'),
      user('u2'),
      user('u3'),
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [user('u0')],
        positions: [0],
        rules: ['messageLimit'],
        remaining: 3,
        breakdown: { ...NONE, messageLimit: 1 },
      }),
      trimmed({
        removed: [user('u1')],
        positions: [2],
        rules: ['messageLimit'],
        remaining: 3,
        breakdown: { ...NONE, messageLimit: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([sys, user('u2'), user('u3')]);
    expect(getPositions(state)).toEqual([1, 3, 4]);
  });

  it('limits may be exceeded only by pinned messages plus the newest unit', () => {
    const request = assistant(words('ask', 1), call('c1'));
    const result = tool(words('res', 1), 'c1');
    const { state, effects } = feed(strict({ maxMessages: 2, maxTokens: 2, pinSystem: true }), [
      system(words('s1', 1)),
      user(words('u0', 1)),
      system(words('s2', 1)),
      request,
      result,
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [user(words('u0', 1))],
        positions: [1],
        rules: ['messageLimit'],
        remaining: 3,
        removedTokens: 1,
        remainingTokens: 3,
        breakdown: { ...NONE, messageLimit: 1 },
      }),
    ]);
    // Two pinned system messages and the newest group: 4 messages and 4 tokens, over both limits.
    expect(contents(getHistory(state))).toEqual([
      words('s1', 1),
      words('s2', 1),
      words('ask', 1),
      words('res', 1),
    ]);
    expect(state.totalTokens).toBe(4);
    expect(enforceLimits(state).state).toBe(state);
  });

  it('a memory of pinned messages only is never trimmed', () => {
    const { state, effects } = feed(strict({ maxMessages: 1, maxTokens: 1, pinSystem: true }), [
      system(words('a', 2)),
      system(words('b', 2)),
      system(words('c', 2)),
    ]);
    expect(effects).toEqual([]);
    expect(getHistory(state)).toHaveLength(3);
  });

  it('also applies under the reference policy: the boundary rule looks past pinned messages', () => {
    const sys = system('sys');
    const request = assistant('', call('c1'));
    const result = tool('r1', 'c1');
    const { state, effects } = feed(
      createMemory({ tokenizer: 'heuristic', maxMessages: 3, pinSystem: true }),
      [sys, user('u0'), request, result, user('u1')],
    );
    expect(effects).toEqual([
      // result: u0 leaves by count, then the window (after sys) starts with the tool-call message.
      trimmed({
        removed: [user('u0'), request],
        positions: [1, 2],
        rules: ['messageLimit', 'toolPairBoundary'],
        remaining: 2,
        breakdown: { ...NONE, messageLimit: 1, toolPairBoundary: 1 },
      }),
      // u1: the window (after sys) starts with a tool result, and more than it remains.
      trimmed({
        removed: [result],
        positions: [3],
        rules: ['toolPairBoundary'],
        remaining: 2,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([sys, user('u1')]);
    expect(getPositions(state)).toEqual([0, 4]);
  });
});

describe("startOn: 'user': after the limits, the window starts with a user message", () => {
  it('removes a leading assistant message once a user message follows', () => {
    const { state, effects } = addMessages(strict({ startOn: 'user' }), [
      assistant('hi'),
      user('u0'),
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [assistant('hi')],
        positions: [0],
        rules: ['startOn'],
        remaining: 1,
        breakdown: { ...NONE, startOn: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([user('u0')]);
  });

  it('removes the newest unit too when no user message is left: only pinned messages stay', () => {
    const { state, effects } = feed(strict({ startOn: 'user' }), [assistant('a0')]);
    expect(getHistory(state)).toEqual([]);
    expect(effects).toEqual([
      trimmed({
        removed: [assistant('a0')],
        positions: [0],
        rules: ['startOn'],
        remaining: 0,
        breakdown: { ...NONE, startOn: 1 },
      }),
    ]);
    const pinned = feed(strict({ startOn: 'user', pinSystem: true }), [
      system('s'),
      assistant('', call('c1')),
    ]);
    expect(getHistory(pinned.state)).toEqual([system('s')]);
  });

  it('runs after the count rule: a message limit, then startOn, in one effect', () => {
    const { state, effects } = feed(strict({ maxMessages: 2, startOn: 'user' }), [
      user('u0'),
      assistant('a0'),
      assistant('a1'),
    ]);
    // The window would start with an assistant message: startOn removes it, the newest included.
    expect(effects).toEqual([
      trimmed({
        removed: [user('u0'), assistant('a0'), assistant('a1')],
        positions: [0, 1, 2],
        rules: ['messageLimit', 'startOn', 'startOn'],
        remaining: 0,
        breakdown: { ...NONE, messageLimit: 1, startOn: 2 },
      }),
    ]);
    expect(getHistory(state)).toEqual([]);
  });

  it('removes a leading group whole', () => {
    const request = assistant('', call('c1'));
    const result = tool('r1', 'c1');
    const { state, effects } = addMessages(strict({ startOn: 'user' }), [
      request,
      result,
      assistant('a0'),
      user('u0'),
    ]);
    expect(effects).toEqual([
      trimmed({
        removed: [request, result, assistant('a0')],
        positions: [0, 1, 2],
        rules: ['startOn', 'startOn', 'startOn'],
        remaining: 1,
        breakdown: { ...NONE, startOn: 3 },
      }),
    ]);
    expect(getHistory(state)).toEqual([user('u0')]);
  });

  it('removes a leading system message unless it is pinned', () => {
    const sys = system('sys');
    const loose = addMessages(strict({ startOn: 'user' }), [sys, user('u0')]);
    expect(loose.effects).toEqual([
      trimmed({
        removed: [sys],
        positions: [0],
        rules: ['startOn'],
        remaining: 1,
        breakdown: { ...NONE, startOn: 1 },
      }),
    ]);
    const pinned = addMessages(strict({ startOn: 'user', pinSystem: true }), [
      sys,
      assistant('a0'),
      user('u0'),
    ]);
    // The first message that is not pinned must be the user's.
    expect(getHistory(pinned.state)).toEqual([sys, user('u0')]);
    expect(pinned.effects).toEqual([
      trimmed({
        removed: [assistant('a0')],
        positions: [1],
        rules: ['startOn'],
        remaining: 2,
        breakdown: { ...NONE, startOn: 1 },
      }),
    ]);
  });

  it('applies under the reference policy too (single messages)', () => {
    const { state, effects } = addMessages(
      createMemory({ tokenizer: 'heuristic', startOn: 'user' }),
      [assistant('a0'), assistant('', call('c1')), tool('r1', 'c1'), user('u0')],
    );
    expect(effects).toEqual([
      trimmed({
        removed: [assistant('a0'), assistant('', call('c1')), tool('r1', 'c1')],
        positions: [0, 1, 2],
        rules: ['startOn', 'startOn', 'startOn'],
        remaining: 1,
        breakdown: { ...NONE, startOn: 3 },
      }),
    ]);
    expect(getHistory(state)).toEqual([user('u0')]);
  });
});

describe('strict with pinSystem and startOn together', () => {
  it('a worked conversation: every rule in turn, positions kept', () => {
    const sys = system(words('sys', 1));
    const q1 = user(words('q1', 1));
    const request = assistant(words('ask', 1), call('a'), call('b'));
    const ra = tool(words('ra', 1), 'a');
    const rb = tool(words('rb', 1), 'b');
    const answer = assistant(words('ans', 1));
    const q2 = user(words('q2', 2));
    const stray = tool(words('x', 1), 'zz');
    const options: MemoryOptions = {
      maxMessages: 5,
      maxTokens: 6,
      pinSystem: true,
      startOn: 'user',
    };
    let { state, effects } = feed(strict(options), [sys, q1, request, rb, ra]);
    // [sys, q1, request, rb, ra]: 5 messages, 5 tokens, within both limits.
    expect(effects).toEqual([]);
    expect(getPositions(state)).toEqual([0, 1, 2, 3, 4]);

    // answer: 6 messages → q1 leaves by count; then the window starts on the group: startOn
    // removes it, and answer too (not a user message): only the pinned system message stays.
    ({ state, effects } = addMessage(state, answer));
    expect(effects).toEqual([
      trimmed({
        removed: [q1, request, rb, ra, answer],
        positions: [1, 2, 3, 4, 5],
        rules: ['messageLimit', 'startOn', 'startOn', 'startOn', 'startOn'],
        remaining: 1,
        removedTokens: 5,
        remainingTokens: 1,
        breakdown: { ...NONE, messageLimit: 1, startOn: 4 },
      }),
    ]);
    expect(getHistory(state)).toEqual([sys]);
    expect(getPositions(state)).toEqual([0]);

    // stray: removed at once (its call is not in the window); q2 starts the window.
    ({ state, effects } = addMessages(state, [stray, q2]));
    expect(effects).toEqual([
      trimmed({
        removed: [stray],
        positions: [6],
        rules: ['toolPairBoundary'],
        remaining: 2,
        removedTokens: 1,
        remainingTokens: 3,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(state)).toEqual([sys, q2]);
    expect(getPositions(state)).toEqual([0, 7]);
    expect(state.nextPosition).toBe(8);
    expect(state.totalTokens).toBe(3);
  });
});

describe('positions', () => {
  it('rise from 0 in order of entry and are never reused, even after clearMemory', () => {
    let { state } = feed(strict({ maxMessages: 2 }), [user('a'), user('b'), user('c')]);
    expect(getPositions(state)).toEqual([1, 2]);
    const cleared = clearMemory(state).state;
    expect(getPositions(cleared)).toEqual([]);
    expect(cleared.nextPosition).toBe(3);
    state = addMessages(cleared, [user('d'), user('e')]).state;
    expect(getPositions(state)).toEqual([3, 4]);
    expect(state.nextPosition).toBe(5);
  });

  it('getPositions is parallel to getHistory and is the state’s own array', () => {
    const { state } = feed(strict(), [user('a'), tool('x', 'none'), user('b')]);
    expect(getHistory(state)).toHaveLength(getPositions(state).length);
    expect(getPositions(state)).toBe(getPositions(state));
    expect(Object.isFrozen(getPositions(state))).toBe(true);
    expect(getPositions(state)).toEqual([0, 2]);
  });
});

describe('enforceLimits, fixToolPairBoundary and planTrim on strict states', () => {
  // A window no add would leave: an orphan in the middle, over its message limit, and an open
  // group at the end.
  const request = assistant('', call('c1'));
  const result = tool('r1', 'c1');
  const stray = tool('st', 'c9');
  const open = assistant('', call('c2'));
  const window = [user('u0'), stray, request, result, user('u1'), open];
  const state = raw(window, { maxMessages: 2 });

  it('planTrim tells what enforceLimits removes, by index and rule', () => {
    expect(planTrim(state)).toEqual({
      removed: [0, 1, 2, 3],
      rules: ['messageLimit', 'toolPairBoundary', 'messageLimit', 'messageLimit'],
      remainingTokens: 0,
    });
    const { state: next, effects } = enforceLimits(state);
    expect(effects).toEqual([
      trimmed({
        removed: [user('u0'), stray, request, result],
        positions: [0, 1, 2, 3],
        rules: ['messageLimit', 'toolPairBoundary', 'messageLimit', 'messageLimit'],
        remaining: 2,
        breakdown: { ...NONE, messageLimit: 3, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(next)).toEqual([user('u1'), open]);
    expect(getPositions(next)).toEqual([4, 5]);
    expect(planTrim(next)).toEqual({ removed: [], rules: [], remainingTokens: 0 });
    expect(enforceLimits(next).state).toBe(next);
  });

  it('fixToolPairBoundary applies the pairing rules only, not the limits', () => {
    const { state: next, effects } = fixToolPairBoundary(state);
    expect(effects).toEqual([
      trimmed({
        removed: [stray],
        positions: [1],
        rules: ['toolPairBoundary'],
        remaining: 5,
        breakdown: { ...NONE, toolPairBoundary: 1 },
      }),
    ]);
    expect(getHistory(next)).toEqual([user('u0'), request, result, user('u1'), open]);
    expect(getPositions(next)).toEqual([0, 2, 3, 4, 5]);
    expect(fixToolPairBoundary(next).state).toBe(next);
  });

  it('unanswered groups in the middle of a window are found by the full scan', () => {
    const cut = assistant('', call('c5'), call('c6'));
    const partial = tool('r5', 'c5');
    const s = raw([cut, partial, user('u0'), result]);
    expect(planTrim(s)).toEqual({
      removed: [0, 1, 3],
      rules: ['toolPairBoundary', 'toolPairBoundary', 'toolPairBoundary'],
      remainingTokens: 0,
    });
    const next = enforceLimits(s).state;
    expect(getHistory(next)).toEqual([user('u0')]);
    expect(getPositions(next)).toEqual([2]);
  });

  it('planTrim has the token rule and startOn in it, with the tokens that remain', () => {
    const s = raw([user(words('u', 2)), assistant(words('a', 2)), assistant(words('b', 2))], {
      maxTokens: 4,
      startOn: 'user',
    });
    // The token rule removes the user message; startOn then removes both assistant messages.
    expect(planTrim(s)).toEqual({
      removed: [0, 1, 2],
      rules: ['tokenLimit', 'startOn', 'startOn'],
      remainingTokens: 0,
    });
  });

  it('planTrim of a settled state plans nothing, and the reducers return the same state', () => {
    const { state: settled } = feed(strict({ maxMessages: 4, pinSystem: true, startOn: 'user' }), [
      system('s'),
      user(words('u', 3)),
      request,
      result,
    ]);
    expect(planTrim(settled)).toEqual({ removed: [], rules: [], remainingTokens: 3 });
    for (const reducer of [enforceLimits, fixToolPairBoundary]) {
      const next = reducer(settled);
      expect(next.state).toBe(settled);
      expect(next.effects).toEqual([]);
    }
  });
});

describe('pinSystem on windows larger than the small-window copy (over 48 messages)', () => {
  // Past 48 elements the kept window is made by one bulk copy, the pinned prefix moved up over the
  // removed block, and the start cut in place: the result must be what the small path gives.
  const users = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => user(`u${from + i}`));

  for (const toolPairs of ['reference', 'strict'] as const) {
    it(`${toolPairs}: one add at a time keeps the pinned prompts and the newest messages`, () => {
      let state = createMemory({
        maxMessages: 50,
        pinSystem: true,
        tokenizer: 'heuristic',
        toolPairs,
      });
      state = addMessages(state, [system('S1'), system('S2')]).state;
      for (const message of users(0, 70)) state = addMessage(state, message).state;
      expect(contents(state.messages)).toEqual(['S1', 'S2', ...contents(users(22, 70))]);
      expect(getPositions(state)).toEqual([0, 1, ...Array.from({ length: 48 }, (_, i) => 24 + i)]);
      expect(state.tokenCounts).toHaveLength(50);
    });

    it(`${toolPairs}: a batch removes a block behind the pinned prompt in one copy`, () => {
      let state = createMemory({
        maxMessages: 60,
        pinSystem: true,
        tokenizer: 'heuristic',
        toolPairs,
      });
      state = addMessages(state, [system('S'), ...users(0, 59)]).state;
      const { state: next, effects } = addMessages(state, users(59, 71));
      expect(contents(next.messages)).toEqual(['S', ...contents(users(12, 71))]);
      expect(effects[0]?.type === 'memory/trimmed' && effects[0].positions).toEqual(
        Array.from({ length: 12 }, (_, i) => 1 + i),
      );
      // The state it came from is unchanged.
      expect(contents(state.messages)).toEqual(['S', ...contents(users(0, 59))]);
    });
  }
});
