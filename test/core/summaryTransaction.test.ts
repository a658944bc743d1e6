import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  applySummary,
  clearMemory,
  commitSummary,
  ConversationMemory,
  createMemory,
  fromDict,
  getHistory,
  getPendingSummary,
  getPositions,
  getSummary,
  holdForSummary,
  MemoryArgumentError,
  setSummary,
  toDict,
  type MemoryEffect,
  type MemoryOptions,
  type MemoryState,
  type Message,
  type SummaryCoverage,
  type TrimmedEffect,
} from 'conversation-memory';
import { MAX_SUMMARY_CHARS } from 'conversation-memory/constants';
import { MAX_PENDING_MESSAGES, MAX_SUMMARY_COVERAGE } from 'conversation-memory/store-kit';
import { assistant, call, system, tool, user } from '../helpers';

/**
 * Summarize-on-trim as a two-phase transaction (issue #6 §3 and §6): `holdForSummary` keeps what a
 * trim removed, `commitSummary` commits a summary of it, and nothing is lost when the summary
 * fails or comes back empty.
 */

const memory = (options: MemoryOptions = {}): MemoryState =>
  createMemory({ tokenizer: 'heuristic', ...options });

const trimsOf = (effects: readonly MemoryEffect[]): TrimmedEffect[] =>
  effects.filter((e): e is TrimmedEffect => e.type === 'memory/trimmed');

/** Adds the messages one by one, holding whatever each add trims (as the agent runtime does). */
const addAndHold = (state: MemoryState, messages: readonly Message[]): MemoryState => {
  for (const message of messages) {
    const added = addMessage(state, message);
    state = added.state;
    for (const trim of trimsOf(added.effects)) state = holdForSummary(state, trim).state;
  }
  return state;
};

/** The single trimmed effect of an add. */
const onlyTrim = (effects: readonly MemoryEffect[]): TrimmedEffect => {
  const trims = trimsOf(effects);
  expect(trims).toHaveLength(1);
  return trims[0] as TrimmedEffect;
};

const users = (count: number, from = 0): Message[] =>
  Array.from({ length: count }, (_, i) => user(`m${from + i}`));

describe('holdForSummary: phase one keeps what a trim removed', () => {
  it('holds the removed messages with their positions, outside the window', () => {
    const start = addMessages(memory({ maxMessages: 2 }), users(2)).state;
    const added = addMessage(start, user('m2'));
    const trim = onlyTrim(added.effects);
    const { state, effects } = holdForSummary(added.state, trim);
    expect(effects).toEqual([{ type: 'memory/heldForSummary', positions: [0], pending: 1 }]);
    expect(getPendingSummary(state)).toEqual({ messages: [user('m0')], positions: [0] });
    expect(getHistory(state)).toEqual([user('m1'), user('m2')]);
    expect(getPositions(state)).toEqual([1, 2]);
    // The window itself is untouched.
    expect(state.messages).toBe(added.state.messages);
    expect(state.positionRuns).toBe(added.state.positionRuns);
  });

  it('holding the same effect twice changes nothing the second time', () => {
    const added = addMessages(memory({ maxMessages: 1 }), users(3));
    const once = holdForSummary(added.state, onlyTrim(added.effects)).state;
    const twice = holdForSummary(once, onlyTrim(added.effects));
    expect(twice.state).toBe(once);
    expect(twice.effects).toEqual([]);
  });

  it('keeps held messages sorted by position, whatever order effects are held in', () => {
    let state = memory({ maxMessages: 1 });
    const trims: TrimmedEffect[] = [];
    for (const message of users(4)) {
      const added = addMessage(state, message);
      state = added.state;
      trims.push(...trimsOf(added.effects));
    }
    expect(trims.map((t) => t.positions)).toEqual([[0], [1], [2]]);
    const a = holdForSummary(state, trims[2] as TrimmedEffect);
    const b = holdForSummary(a.state, trims[0] as TrimmedEffect);
    const c = holdForSummary(b.state, trims[1] as TrimmedEffect);
    expect(a.effects).toEqual([{ type: 'memory/heldForSummary', positions: [2], pending: 1 }]);
    expect(b.effects).toEqual([{ type: 'memory/heldForSummary', positions: [0], pending: 2 }]);
    expect(c.effects).toEqual([{ type: 'memory/heldForSummary', positions: [1], pending: 3 }]);
    expect(getPendingSummary(c.state)).toEqual({
      messages: users(3),
      positions: [0, 1, 2],
    });
  });

  it('sorts and dedupes the positions of one effect, keeping each message with its position', () => {
    const added = addMessages(memory({ maxMessages: 1 }), users(4));
    const trim = onlyTrim(added.effects);
    const shuffled: TrimmedEffect = {
      ...trim,
      removed: [user('m2'), user('m0'), user('m2'), user('m1')],
      positions: [2, 0, 2, 1],
    };
    const { state, effects } = holdForSummary(added.state, shuffled);
    expect(getPendingSummary(state)).toEqual({ messages: users(3), positions: [0, 1, 2] });
    expect(effects).toEqual([{ type: 'memory/heldForSummary', positions: [0, 1, 2], pending: 3 }]);
  });

  it('holds only the positions not held yet from an effect that overlaps', () => {
    const added = addMessages(memory({ maxMessages: 1 }), users(4));
    const trim = onlyTrim(added.effects);
    const partial: TrimmedEffect = { ...trim, removed: trim.removed.slice(1, 2), positions: [1] };
    const first = holdForSummary(added.state, partial).state;
    const { state, effects } = holdForSummary(first, trim);
    expect(effects).toEqual([{ type: 'memory/heldForSummary', positions: [0, 2], pending: 3 }]);
    expect(getPendingSummary(state).positions).toEqual([0, 1, 2]);
  });

  it('ignores a clear effect (a clear means forget) and an empty trim', () => {
    const state = addMessages(memory(), users(2)).state;
    const cleared = clearMemory(state);
    const clearEffect = onlyTrim(cleared.effects);
    expect(clearEffect.reason).toBe('clear');
    const held = holdForSummary(cleared.state, clearEffect);
    expect(held.state).toBe(cleared.state);
    expect(held.effects).toEqual([]);
    const empty: TrimmedEffect = {
      type: 'memory/trimmed',
      reason: 'enforce_limits',
      removed: [],
      positions: [],
      rules: [],
      remaining: 2,
      removedTokens: 0,
      remainingTokens: 0,
      breakdown: { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 },
    };
    expect(holdForSummary(state, empty)).toEqual({ state, effects: [] });
    expect(holdForSummary(state, empty).state).toBe(state);
  });

  it('keeps held pinned-system gaps: positions need not be contiguous', () => {
    const state = addAndHold(memory({ maxMessages: 2, pinSystem: true }), [
      user('m0'),
      system('s1'),
      user('m2'),
      user('m3'),
    ]);
    expect(getHistory(state)).toEqual([system('s1'), user('m3')]);
    expect(getPendingSummary(state)).toEqual({
      messages: [user('m0'), user('m2')],
      positions: [0, 2],
    });
  });

  it('holds what the strict pairing rules removed, too', () => {
    const state = addAndHold(memory({ toolPairs: 'strict' }), [
      user('u'),
      assistant('', call('c1')),
      user('v'),
      tool('late', 'c1'),
    ]);
    expect(getPendingSummary(state).positions).toEqual([1, 3]);
    expect(getHistory(state)).toEqual([user('u'), user('v')]);
  });

  it.each([
    ['a summary effect', { type: 'memory/summaryChanged', summary: 'x', previous: null }],
    ['null', null],
    ['a string', 'memory/trimmed'],
    [
      'removed and positions of different lengths',
      { type: 'memory/trimmed', reason: 'enforce_limits', removed: [user('a')], positions: [] },
    ],
    [
      'a negative position',
      { type: 'memory/trimmed', reason: 'enforce_limits', removed: [user('a')], positions: [-1] },
    ],
    [
      'a fractional position',
      { type: 'memory/trimmed', reason: 'enforce_limits', removed: [user('a')], positions: [0.5] },
    ],
    [
      'an unknown reason',
      { type: 'memory/trimmed', reason: 'other', removed: [user('a')], positions: [0] },
    ],
  ])('rejects %s with MemoryArgumentError', (_, value) => {
    const state = memory();
    expect(() => holdForSummary(state, value as never)).toThrow(MemoryArgumentError);
    expect(() => holdForSummary(state, value as never)).toThrow(
      /^\[conversation-memory\] holdForSummary: trimmed must be a memory\/trimmed effect \(with removed and positions\), received /,
    );
  });

  it(`holds at most MAX_PENDING_MESSAGES (${MAX_PENDING_MESSAGES}); the oldest overflow is reported`, () => {
    expect(MAX_PENDING_MESSAGES).toBe(1000);
    const all = users(MAX_PENDING_MESSAGES + 2);
    let state = memory({ maxMessages: 1 });
    const holds: (readonly MemoryEffect[])[] = [];
    for (const message of all) {
      const added = addMessage(state, message);
      state = added.state;
      for (const trim of trimsOf(added.effects)) {
        const held = holdForSummary(state, trim);
        state = held.state;
        holds.push(held.effects);
      }
    }
    expect(holds).toHaveLength(MAX_PENDING_MESSAGES + 1);
    // Up to exactly 1000 held, nothing is discarded.
    expect(holds[MAX_PENDING_MESSAGES - 1]).toEqual([
      { type: 'memory/heldForSummary', positions: [MAX_PENDING_MESSAGES - 1], pending: 1000 },
    ]);
    expect(
      holds
        .slice(0, -1)
        .flat()
        .filter((e) => e.type !== 'memory/heldForSummary'),
    ).toEqual([]);
    const last = holds[MAX_PENDING_MESSAGES];
    // 1001 trimmed in all: the 1001st hold discarded position 0.
    expect(last).toEqual([
      { type: 'memory/heldForSummary', positions: [MAX_PENDING_MESSAGES], pending: 1000 },
      {
        type: 'memory/pendingDiscarded',
        reason: 'overflow',
        messages: [user('m0')],
        positions: [0],
      },
    ]);
    const { messages, positions } = getPendingSummary(state);
    expect(positions).toHaveLength(MAX_PENDING_MESSAGES);
    expect(positions[0]).toBe(1);
    expect(positions[positions.length - 1]).toBe(MAX_PENDING_MESSAGES);
    expect(messages[0]).toEqual(user('m1'));
  });

  it('an overflow inside one hold loses nothing: held plus discarded is what was trimmed', () => {
    const count = MAX_PENDING_MESSAGES + 300;
    const added = addMessages(memory({ maxMessages: 1 }), users(count));
    const trim = onlyTrim(added.effects);
    expect(trim.positions).toHaveLength(count - 1);
    const { state, effects } = holdForSummary(added.state, trim);
    const discarded = effects.find((e) => e.type === 'memory/pendingDiscarded');
    expect(discarded).toEqual({
      type: 'memory/pendingDiscarded',
      reason: 'overflow',
      messages: users(299),
      positions: Array.from({ length: 299 }, (_, i) => i),
    });
    const pending = getPendingSummary(state);
    expect(pending.positions).toEqual(Array.from({ length: 1000 }, (_, i) => i + 299));
    expect(pending.messages).toEqual(users(1000, 299));
    expect(effects.find((e) => e.type === 'memory/heldForSummary')).toEqual({
      type: 'memory/heldForSummary',
      positions: Array.from({ length: 1000 }, (_, i) => i + 299),
      pending: 1000,
    });
  });

  it('holding an effect again after its commit changes nothing (an event log replayed twice)', () => {
    const added = addMessages(memory({ maxMessages: 1 }), users(3));
    const trim = onlyTrim(added.effects);
    const held = holdForSummary(added.state, trim).state;
    const committed = commitSummary(held, 'S', 1).state;
    expect(committed.summaryCoverage).toEqual([{ from: 0, to: 1, count: 2 }]);
    const again = holdForSummary(committed, trim);
    expect(again.state).toBe(committed);
    expect(again.effects).toEqual([]);
  });

  it('a coverage record with gaps does not stop a later hold of a position inside it', () => {
    const state = { ...memory(), nextPosition: 9, summaryCoverage: [{ from: 0, to: 8, count: 2 }] };
    const trim = { ...onlyTrim(addMessages(memory({ maxMessages: 1 }), users(5)).effects) };
    const { state: next } = holdForSummary(state, trim);
    expect(getPendingSummary(next).positions).toEqual([0, 1, 2, 3]);
  });

  it('ignores an effect of another memory (a branch): positions still in the window or never given out', () => {
    const facade = new ConversationMemory({ maxMessages: 3, tokenizer: 'heuristic' });
    facade.addMany(users(3));
    const branchTrim = onlyTrim(facade.branch().add(user('d')));
    expect(branchTrim.positions).toEqual([0]);
    expect(facade.holdForSummary(branchTrim)).toEqual([]);
    expect(facade.pendingSummary.positions).toEqual([]);
    const foreign = { ...branchTrim, positions: [7] };
    expect(holdForSummary(facade.state, foreign).state).toBe(facade.state);
    expect(E.isRight(fromDict(toDict(facade.state)))).toBe(true);
  });
});

describe('commitSummary: phase two commits a summary of the held messages', () => {
  /** Four messages trimmed (positions 0–3) and held; the window holds 4 and 5. */
  const held = addAndHold(memory({ maxMessages: 2 }), users(6));

  it('commits the text, removes what it covers, records the coverage', () => {
    expect(getPendingSummary(held).positions).toEqual([0, 1, 2, 3]);
    const { state, effects } = commitSummary(held, 'Four messages.', 3);
    const coverage: SummaryCoverage = { from: 0, to: 3, count: 4 };
    expect(effects).toEqual([
      { type: 'memory/summaryChanged', summary: 'Four messages.', previous: null, coverage },
    ]);
    expect(getSummary(state)).toBe('Four messages.');
    expect(getPendingSummary(state)).toEqual({ messages: [], positions: [] });
    expect(state.summaryCoverage).toEqual([coverage]);
    // The window and positions are untouched.
    expect(state.messages).toBe(held.messages);
    expect(getPositions(state)).toEqual([4, 5]);
  });

  it('covers only the held messages up to `through`; the rest stay held', () => {
    const { state, effects } = commitSummary(held, 'Two.', 1);
    expect(effects).toEqual([
      {
        type: 'memory/summaryChanged',
        summary: 'Two.',
        previous: null,
        coverage: { from: 0, to: 1, count: 2 },
      },
    ]);
    expect(getPendingSummary(state)).toEqual({ messages: users(2, 2), positions: [2, 3] });
    const next = commitSummary(state, 'Two more.', 3);
    expect(getSummary(next.state)).toBe('Two. Two more.');
    expect(next.state.summaryCoverage).toEqual([
      { from: 0, to: 1, count: 2 },
      { from: 2, to: 3, count: 2 },
    ]);
    expect(next.effects).toEqual([
      {
        type: 'memory/summaryChanged',
        summary: 'Two. Two more.',
        previous: 'Two.',
        coverage: { from: 2, to: 3, count: 2 },
      },
    ]);
  });

  it('a `through` between held positions, or past them all, covers what lies at or below it', () => {
    const gaps = addAndHold(memory({ maxMessages: 2, pinSystem: true }), [
      user('m0'),
      system('s1'),
      user('m2'),
      user('m3'),
      user('m4'),
    ]);
    expect(getPendingSummary(gaps).positions).toEqual([0, 2, 3]);
    expect(commitSummary(gaps, 'S', 1).state.summaryCoverage).toEqual([
      { from: 0, to: 0, count: 1 },
    ]);
    // 1 is pinned (in the window), so the record spans 0..2 with two messages.
    expect(commitSummary(gaps, 'S', 2).state.summaryCoverage).toEqual([
      { from: 0, to: 2, count: 2 },
    ]);
    const all = commitSummary(gaps, 'S', 1_000_000).state;
    expect(all.summaryCoverage).toEqual([{ from: 0, to: 3, count: 3 }]);
    expect(getPendingSummary(all).positions).toEqual([]);
  });

  it.each([
    ['an empty text', '', 3],
    ['a whitespace-only text', ' \n\t ', 3],
    ['a `through` below every held position', 'Summary.', -1],
    ['a `through` when nothing is held', 'Summary.', 99],
  ])(
    'commits nothing for %s: same state, no effects, everything still held',
    (_, text, through) => {
      const state = through === 99 ? addMessages(memory(), users(2)).state : held;
      const result = commitSummary(state, text, through);
      expect(result.state).toBe(state);
      expect(result.effects).toEqual([]);
    },
  );

  it('a failed attempt loses nothing: the next attempt covers the old and the new', () => {
    // The summarizer failed (no commit) or answered '' (committed nothing).
    const failed = commitSummary(held, '', 3).state;
    const more = addAndHold(failed, users(2, 6));
    expect(getPendingSummary(more).positions).toEqual([0, 1, 2, 3, 4, 5]);
    const { state } = commitSummary(more, 'Everything.', 5);
    expect(state.summaryCoverage).toEqual([{ from: 0, to: 5, count: 6 }]);
    expect(getPendingSummary(state).positions).toEqual([]);
  });

  it('joins the text as applySummary does, keeping the newest 4000 characters', () => {
    const withSummary = applySummary(held, 'a'.repeat(3000)).state;
    const { state } = commitSummary(withSummary, 'b'.repeat(1500), 3);
    expect(MAX_SUMMARY_CHARS).toBe(4000);
    expect(getSummary(state)).toBe(`${'a'.repeat(2499)} ${'b'.repeat(1500)}`);
    expect(getSummary(state)).toBe(getSummary(applySummary(withSummary, 'b'.repeat(1500)).state));
  });

  it(`keeps the newest ${MAX_SUMMARY_COVERAGE} coverage records`, () => {
    expect(MAX_SUMMARY_COVERAGE).toBe(100);
    let state = memory({ maxMessages: 1 });
    for (let i = 0; i <= MAX_SUMMARY_COVERAGE + 1; i++) {
      state = addAndHold(state, [user(`m${i}`)]);
      const pending = getPendingSummary(state).positions;
      if (pending.length > 0) state = commitSummary(state, `s${i}`, pending[0] as number).state;
    }
    // Messages 0..100 were trimmed and each committed alone: 101 records, the oldest dropped.
    expect(state.summaryCoverage).toHaveLength(MAX_SUMMARY_COVERAGE);
    expect(state.summaryCoverage[0]).toEqual({ from: 1, to: 1, count: 1 });
    expect(state.summaryCoverage[MAX_SUMMARY_COVERAGE - 1]).toEqual({
      from: 100,
      to: 100,
      count: 1,
    });
  });

  it.each([
    ['a non-string text', 42, 3, 'commitSummary: text must be a string, received 42'],
    [
      'a fractional through',
      'S',
      1.5,
      'commitSummary: through must be an integer position, received 1.5',
    ],
    [
      'a NaN through',
      'S',
      Number.NaN,
      'commitSummary: through must be an integer position, received NaN',
    ],
    [
      'a string through',
      'S',
      '3',
      'commitSummary: through must be an integer position, received "3"',
    ],
  ])('rejects %s with MemoryArgumentError', (_, text, through, message) => {
    expect(() => commitSummary(held, text as never, through as never)).toThrow(MemoryArgumentError);
    expect(() => commitSummary(held, text as never, through as never)).toThrow(message);
  });
});

describe('clearMemory, setSummary and applySummary with held messages and coverage', () => {
  const held = addAndHold(memory({ maxMessages: 2 }), users(5));
  const committed = commitSummary(held, 'First two.', 1).state;

  it('clearMemory drops held messages (reported), coverage and summary; keeps nextPosition', () => {
    expect(getPendingSummary(committed).positions).toEqual([2]);
    const { state, effects } = clearMemory(committed);
    expect(effects).toEqual([
      {
        type: 'memory/trimmed',
        reason: 'clear',
        removed: users(2, 3),
        positions: [3, 4],
        remaining: 0,
        removedTokens: 0,
        remainingTokens: 0,
      },
      {
        type: 'memory/pendingDiscarded',
        reason: 'clear',
        messages: [user('m2')],
        positions: [2],
      },
      { type: 'memory/summaryChanged', summary: null, previous: 'First two.' },
    ]);
    expect(state).toMatchObject({
      messages: [],
      positionRuns: [],
      nextPosition: 5,
      summary: null,
      pendingMessages: [],
      pendingPositions: [],
      summaryCoverage: [],
    });
    expect(getPositions(addMessage(state, user('m5')).state)).toEqual([5]);
  });

  it('clearMemory reports held messages even when the window is empty', () => {
    const onlyHeld = { ...held, messages: [], tokenCounts: [], positionRuns: [], totalTokens: 0 };
    const { effects } = clearMemory(onlyHeld);
    expect(effects).toEqual([
      {
        type: 'memory/pendingDiscarded',
        reason: 'clear',
        messages: users(3),
        positions: [0, 1, 2],
      },
    ]);
  });

  it('setSummary replaces the text and drops the coverage records', () => {
    const { state, effects } = setSummary(committed, 'Mine.');
    expect(effects).toEqual([
      { type: 'memory/summaryChanged', summary: 'Mine.', previous: 'First two.' },
    ]);
    expect(state.summaryCoverage).toEqual([]);
    // Held messages are not the summary's business: they stay.
    expect(getPendingSummary(state).positions).toEqual([2]);
    expect(setSummary(committed, 'First two.').state).toBe(committed);
  });

  it('applySummary appends a chunk and keeps the coverage records', () => {
    const { state } = applySummary(committed, 'Note.');
    expect(getSummary(state)).toBe('First two. Note.');
    expect(state.summaryCoverage).toEqual([{ from: 0, to: 1, count: 2 }]);
  });
});

describe('ConversationMemory: the summary transaction on the object API', () => {
  it('holdForSummary, pendingSummary, commitSummary and getPositions, seen by listeners', () => {
    const mem = new ConversationMemory({ maxMessages: 2, tokenizer: 'heuristic' });
    const seen: MemoryEffect[][] = [];
    mem.subscribe((effects) => seen.push([...effects]));
    mem.addMany(users(2));
    const effects = mem.add(user('m2'));
    const trim = onlyTrim(effects);
    expect(mem.getPositions()).toEqual([1, 2]);

    expect(mem.holdForSummary(trim)).toEqual([
      { type: 'memory/heldForSummary', positions: [0], pending: 1 },
    ]);
    expect(mem.pendingSummary).toEqual({ messages: [user('m0')], positions: [0] });
    expect(mem.getHistory()).toEqual([user('m1'), user('m2')]);

    // A failed summary: nothing committed, nobody told, everything still held.
    const calls = seen.length;
    expect(mem.commitSummary('   ', 0)).toEqual([]);
    expect(seen).toHaveLength(calls);
    expect(mem.pendingSummary.positions).toEqual([0]);

    const committed = mem.commitSummary('The user said m0.', 0);
    expect(committed).toEqual([
      {
        type: 'memory/summaryChanged',
        summary: 'The user said m0.',
        previous: null,
        coverage: { from: 0, to: 0, count: 1 },
      },
    ]);
    expect(mem.summary).toBe('The user said m0.');
    expect(mem.pendingSummary).toEqual({ messages: [], positions: [] });
    expect(mem.state.summaryCoverage).toEqual([{ from: 0, to: 0, count: 1 }]);

    expect(seen).toEqual([
      [],
      [trim],
      [{ type: 'memory/heldForSummary', positions: [0], pending: 1 }],
      committed,
    ]);
  });

  it('getPositions returns a copy; clear reports held messages to listeners', () => {
    const mem = new ConversationMemory({ maxMessages: 1, tokenizer: 'heuristic' });
    mem.add(user('a'));
    const trim = onlyTrim(mem.add(user('b')));
    mem.holdForSummary(trim);
    const positions = mem.getPositions();
    positions.push(99);
    expect(mem.getPositions()).toEqual([1]);
    expect(getPositions(mem.state)).toEqual([1]);

    const seen: MemoryEffect[][] = [];
    mem.subscribe((effects) => seen.push([...effects]));
    mem.clear();
    expect(seen).toEqual([
      [
        {
          type: 'memory/trimmed',
          reason: 'clear',
          removed: [user('b')],
          positions: [1],
          remaining: 0,
          removedTokens: 0,
          remainingTokens: 0,
        },
        { type: 'memory/pendingDiscarded', reason: 'clear', messages: [user('a')], positions: [0] },
      ],
    ]);
    expect(mem.pendingSummary.positions).toEqual([]);
    mem.add(user('c'));
    expect(mem.getPositions()).toEqual([2]);
  });

  it('accepts the policy options and passes them to the state', () => {
    const mem = new ConversationMemory({ toolPairs: 'strict', startOn: 'user', pinSystem: true });
    expect(mem.state.config).toMatchObject({
      toolPairs: 'strict',
      startOn: 'user',
      pinSystem: true,
    });
    mem.add(tool('stray', 'c1'));
    expect(mem.length).toBe(0);
    expect(mem.lastTrimmed).toEqual([tool('stray', 'c1')]);
  });
});

describe('property: hold and commit never lose a message', () => {
  type Op =
    | { kind: 'add'; count: number }
    | { kind: 'commit'; pick: number }
    | { kind: 'fail' }
    | { kind: 'clear' };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        count: fc.integer({ min: 1, max: 4 }),
      }),
      weight: 5,
    },
    { arbitrary: fc.record({ kind: fc.constant('commit' as const), pick: fc.nat() }), weight: 2 },
    { arbitrary: fc.constant({ kind: 'fail' as const }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'clear' as const }), weight: 1 },
  );

  it('every position is in the window, held, covered by a record, or discarded by a clear', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        fc.array(opArb, { maxLength: 30 }),
        (maxMessages, pinSystem, ops) => {
          let state = memory({ maxMessages, pinSystem });
          let next = 0;
          const covered = new Set<number>();
          const dropped = new Set<number>();
          const texts: string[] = [];
          for (const op of ops) {
            if (op.kind === 'add') {
              const batch = Array.from({ length: op.count }, (_, i) =>
                (next + i) % 3 === 0 ? system(`s${next + i}`) : user(`m${next + i}`),
              );
              next += op.count;
              state = addAndHold(state, batch);
            } else if (op.kind === 'commit' || op.kind === 'fail') {
              const pending = getPendingSummary(state).positions;
              if (pending.length === 0) continue;
              const through = pending[op.kind === 'fail' ? 0 : op.pick % pending.length] as number;
              const text = op.kind === 'fail' ? '' : `t${texts.length}`;
              const result = commitSummary(state, text, through);
              if (op.kind === 'fail') {
                expect(result.state).toBe(state);
                continue;
              }
              const gone = pending.filter((p) => p <= through);
              expect(result.state.summaryCoverage.at(-1)).toEqual({
                from: gone[0],
                to: gone[gone.length - 1],
                count: gone.length,
              });
              for (const p of gone) covered.add(p);
              texts.push(text);
              state = result.state;
            } else {
              const { effects } = clearMemory(state);
              for (const effect of effects) {
                if (effect.type === 'memory/trimmed' || effect.type === 'memory/pendingDiscarded') {
                  for (const p of effect.positions) dropped.add(p);
                }
              }
              state = clearMemory(state).state;
              texts.length = 0;
            }
            const { positions: pending, messages } = getPendingSummary(state);
            // Held: sorted, distinct, bounded, never in the window, each its own message.
            pending.forEach((p, i) => {
              if (i > 0) expect(p).toBeGreaterThan(pending[i - 1] as number);
              expect((messages[i] as Message).content?.slice(1)).toBe(String(p));
            });
            expect(pending.length).toBeLessThanOrEqual(MAX_PENDING_MESSAGES);
            const sets = [new Set(getPositions(state)), new Set(pending), covered, dropped];
            for (let p = 0; p < next; p++) {
              expect(
                sets.filter((s) => s.has(p)),
                `position ${p}`,
              ).toHaveLength(1);
            }
            expect(state.nextPosition).toBe(next);
            expect(getSummary(state)).toBe(texts.length === 0 ? null : texts.join(' '));
            if (pinSystem) {
              for (const m of messages) expect(m.role).not.toBe('system');
            }
          }
        },
      ),
    );
  });
});
