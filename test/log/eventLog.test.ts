import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  createMemory,
  decodeEnvelope,
  encodeEnvelope,
  fork,
  getPositions,
  logActions,
  memoryActions,
  MemoryArgumentError,
  memoryTransition,
  memoryReducer,
  replay,
  seek,
  timeline,
  toDict,
  type EventLog,
  type MemoryAction,
  type MemoryOptions,
  type MemoryState,
} from 'conversation-memory';
import { ENVELOPE_VERSION } from 'conversation-memory/store-kit';
import { memoryActionArb } from '../arbitraries/actions';
import { user } from '../helpers';

const CONFIG: MemoryOptions = { maxMessages: 4, tokenizer: 'heuristic', toolPairs: 'strict' };

const logOf = (actions: readonly MemoryAction[], snapshotEvery: number): EventLog =>
  actions.reduce(appendAction, createEventLog(CONFIG, { snapshotEvery }));

/**
 * The states through `memoryTransition` (which builds every effect), while the log replays with
 * `memoryReducer` (which skips building the adds' effects): the two must agree.
 */
const fold = (actions: readonly MemoryAction[]): MemoryState =>
  actions.reduce((state, action) => memoryTransition(state, action).state, createMemory(CONFIG));

describe('event log', () => {
  it('replay equals folding the actions; seek(n) equals folding the first n; fork then replay its own', () => {
    fc.assert(
      fc.property(
        fc.array(memoryActionArb, { maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        fc.nat(),
        (actions, every, pick) => {
          const log = logOf(actions, every);
          expect(log.length).toBe(actions.length);
          expect(logActions(log)).toEqual(actions);
          expect(replay(log)).toEqual(fold(actions));
          const n = pick % (actions.length + 1);
          expect(seek(log, n)).toEqual(fold(actions.slice(0, n)));
          const branch = fork(log, n);
          expect(logActions(branch)).toEqual(actions.slice(0, n));
          expect(replay(branch)).toEqual(fold(actions.slice(0, n)));
          const extra = memoryActions.messageAdded(user('branch'));
          expect(replay(appendAction(branch, extra))).toEqual(
            fold([...actions.slice(0, n), extra]),
          );
          expect(replay(log)).toEqual(fold(actions)); // the fork changed nothing of the log
        },
      ),
    );
  });

  it('keeps a snapshot every K actions only, and branches share every full leaf of actions and snapshots', () => {
    const actions = Array.from({ length: 100 }, (_, i) =>
      memoryActions.messageAdded(user(`m${i}`)),
    );
    const log = logOf(actions, 2);
    expect(log.snapshots.size).toBe(51); // after 0, 2, 4, … 100 actions
    expect(logOf(actions.slice(0, 10), 4).snapshots.size).toBe(3); // after 0, 4 and 8
    const branch = fork(log, 90);
    expect(branch.actions.root[0]).toBe(log.actions.root[0]);
    expect(branch.actions.root[1]).toBe(log.actions.root[1]);
    expect(branch.snapshots.root[0]).toBe(log.snapshots.root[0]);
    expect(fork(log, 100)).toBe(log);
  });

  it('timeline gives each step its action, the state after it, and its effects', () => {
    const actions = ['a', 'b', 'c', 'd', 'e'].map((t) => memoryActions.messageAdded(user(t)));
    const steps = timeline(logOf(actions, 2));
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3, 4, 5]);
    expect(steps[4]?.action).toEqual(actions[4]);
    expect(Object.isFrozen(steps[4]?.action)).toBe(true);
    expect(getPositions(steps[4]?.state as MemoryState)).toEqual([1, 2, 3, 4]);
    expect(steps[4]?.effects).toMatchObject([
      { type: 'memory/trimmed', positions: [0], rules: ['messageLimit'] },
    ]);
    steps.forEach((s, i) => expect(s.state).toEqual(fold(actions.slice(0, i + 1))));
  });

  it('seek and fork refuse a step outside the log, naming the range', () => {
    const log = logOf([memoryActions.cleared()], 2);
    expect(() => seek(log, 2)).toThrow(MemoryArgumentError);
    expect(() => seek(log, -1)).toThrow('n must be an integer from 0 to 1');
    expect(() => fork(log, 0.5)).toThrow(RangeError);
    expect(() => createEventLog(CONFIG, { snapshotEvery: 0 })).toThrow(
      'options.snapshotEvery must be an integer from 1 to 65536, received 0',
    );
  });
});

describe('envelopes', () => {
  const decoded = (value: unknown) => {
    const result = decodeEnvelope(JSON.parse(JSON.stringify(value)));
    if (E.isLeft(result)) throw result.left;
    return result.right;
  };

  it('round-trips a state and a log through JSON, exactly', () => {
    fc.assert(
      fc.property(fc.array(memoryActionArb, { maxLength: 20 }), (actions) => {
        const log = logOf(actions, 3);
        const state = replay(log);
        expect(encodeEnvelope(state)).toMatchObject({
          schema: 'conversation-memory',
          version: ENVELOPE_VERSION,
          kind: 'state',
        });
        expect(decoded(encodeEnvelope(state))).toEqual({ kind: 'state', state });
        const back = decoded(encodeEnvelope(log));
        expect(back.kind).toBe('log');
        if (back.kind !== 'log') return;
        expect(logActions(back.log)).toEqual(actions);
        expect(replay(back.log)).toEqual(state);
        expect(back.log.snapshotEvery).toBe(3);
      }),
    );
  });

  it('refuses a newer version with kind "version", leaving the decision to the caller', () => {
    const result = decodeEnvelope({
      schema: 'conversation-memory',
      version: 99,
      kind: 'state',
      data: {},
    });
    expect(E.isLeft(result) && result.left.kind).toBe('version');
    expect(E.isLeft(result) && result.left.problems).toEqual([
      'version: written by a newer conversation-memory (envelope version 99); this one reads versions up to 1',
    ]);
  });

  it('names the path of a bad action inside a log', () => {
    const envelope = encodeEnvelope(logOf([memoryActions.messageAdded(user('a'))], 2));
    const data = envelope.data as { actions: unknown[] };
    data.actions.push({ type: 'memory/messageAdded', payload: { role: 'USER', content: 'x' } });
    const result = decodeEnvelope(JSON.parse(JSON.stringify(envelope)));
    expect(E.isLeft(result) && result.left.problems).toEqual([
      'data.actions[1].payload: message.role must be one of "user", "assistant", "system", "tool", received "USER"',
    ]);
  });

  it('migrates a bare toDict file and a raw 0.1.0 state', () => {
    const state = memoryReducer(
      createMemory({ tokenizer: 'heuristic' }),
      memoryActions.messageAdded(user('hi')),
    );
    expect(decoded(toDict(state))).toEqual({ kind: 'state', state });
    const raw010 = {
      config: { maxMessages: 20, maxTokens: null, tokenizer: 'heuristic' },
      messages: [{ role: 'user', content: 'hi' }],
      tokenCounts: [0],
      totalTokens: 0,
      summary: null,
    };
    expect(decoded(raw010)).toEqual({ kind: 'state', state });
    const bad = decodeEnvelope({ ...raw010, messages: [{ role: 'USER', content: 'x' }] });
    expect(E.isLeft(bad) && bad.left.problems[0]).toMatch(/^messages\[0\]\.role must be one of/);
  });

  it('a problem at the root of data reads "data: …"', () => {
    const result = decodeEnvelope({
      schema: 'conversation-memory',
      version: 1,
      kind: 'state',
      data: 5,
    });
    expect(E.isLeft(result) && result.left.problems[0]).toMatch(/^data: expected an object/);
  });

  it('never throws on hostile input', () => {
    for (const input of [
      null,
      42,
      'x',
      [],
      { schema: 'conversation-memory', version: 1, kind: 'nope' },
    ]) {
      expect(E.isLeft(decodeEnvelope(input))).toBe(true);
    }
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
        getOwnPropertyDescriptor: () => {
          throw new Error('trap');
        },
      },
    );
    expect(E.isLeft(decodeEnvelope(trap))).toBe(true);
  });
});

describe('review fixes: envelopes and logs', () => {
  it('reads a current MemoryState stored as it is, checking it whole', () => {
    const state = memoryReducer(
      createMemory({ tokenizer: 'heuristic' }),
      memoryActions.messageAdded(user('hi')),
    );
    const result = decodeEnvelope(JSON.parse(JSON.stringify(state)));
    expect(result).toEqual(E.right({ kind: 'state', state }));
    const corrupt = { ...(JSON.parse(JSON.stringify(state)) as object), totalTokens: 7 };
    expect(E.isLeft(decodeEnvelope(corrupt))).toBe(true);
  });

  it('bounds the snapshot distance (seek replays fewer actions than it)', () => {
    expect(() => createEventLog(CONFIG, { snapshotEvery: 70_000 })).toThrow(
      'options.snapshotEvery must be an integer from 1 to 65536, received 70000',
    );
    const envelope = encodeEnvelope(createEventLog(CONFIG));
    (envelope.data as { snapshot_every: number }).snapshot_every = Number.MAX_SAFE_INTEGER;
    const result = decodeEnvelope(JSON.parse(JSON.stringify(envelope)));
    expect(E.isLeft(result) && result.left.problems[0]).toMatch(
      /^data\.snapshot_every: expected an integer from 1 to 65536/,
    );
  });
});
