// Issue #15 item 4: building a log (appendAction) and loading one (decodeEnvelope) cost time
// linear in the log, whatever its snapshot distance says. Proven by counts, not times: the
// elements every array copy makes (slice, concat, flat, map, Array.from, and spreads or for-of
// through the array iterator) are counted while the work runs, and reducer calls by a tokenizer
// that counts the messages it is asked about.
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  createMemory,
  decodeEnvelope,
  fork,
  memoryActions,
  replay,
  seek,
  toDict,
  type EventLog,
  type MemoryAction,
} from 'conversation-memory';
import { registerTokenizer } from 'conversation-memory/tokens';
import { user } from '../helpers';

type Copier = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Runs `work` with every array-copying built-in counting the elements it produces, and returns
 * that count. Test-only instrumentation: the built-ins are put back before this returns.
 */
const countCopies = (work: () => void): number => {
  const proto = Array.prototype as unknown as Record<string | symbol, Copier>;
  const methods = ['slice', 'concat', 'flat', 'map'] as const;
  const saved = methods.map((name) => proto[name] as Copier);
  const savedIterator = proto[Symbol.iterator] as Copier;
  const savedFrom = Array.from;
  let copied = 0;
  methods.forEach((name, i) => {
    const original = saved[i] as Copier;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const out = original.apply(this, args) as unknown[];
      copied += out.length;
      return out;
    };
  });
  proto[Symbol.iterator] = function (this: unknown) {
    const inner = savedIterator.call(this) as Iterator<unknown>;
    return {
      next: () => {
        const step = inner.next();
        if (step.done !== true) copied++;
        return step;
      },
      [Symbol.iterator]() {
        return this;
      },
    };
  };
  Array.from = function (this: unknown, ...args: unknown[]) {
    const out = (savedFrom as Copier).apply(this, args) as unknown[];
    copied += out.length;
    return out;
  } as typeof Array.from;
  try {
    work();
  } finally {
    methods.forEach((name, i) => (proto[name] = saved[i] as Copier));
    proto[Symbol.iterator] = savedIterator;
    Array.from = savedFrom;
  }
  return copied;
};

/** Messages counted by the `counting` tokenizer: one per message a reducer admits. */
let counted = 0;
registerTokenizer('eventLog.linear:counting', () => {
  counted++;
  return 1;
});
const CONFIG = { maxMessages: 4, tokenizer: 'eventLog.linear:counting' } as const;

const adds = (count: number): MemoryAction[] =>
  Array.from({ length: count }, (_, i) => memoryActions.messageAdded(user(`m${i}`)));

/** What one append may copy: the tail of its list (≤ 31), a path every 32 appends, a window. */
const PER_APPEND = 64;

describe('appendAction copies O(1) elements amortized', () => {
  for (const snapshotEvery of [1, 256, 65_536]) {
    it(`snapshotEvery ${snapshotEvery}: the copies per append do not grow with the log`, () => {
      const actions = adds(12_000);
      let log = createEventLog(CONFIG, { snapshotEvery });
      const perAppend: number[] = [];
      for (const size of [2_000, 6_000, 12_000]) {
        const from = log.length;
        const copied = countCopies(() => {
          for (let i = from; i < size; i++) log = appendAction(log, actions[i] as MemoryAction);
        });
        perAppend.push(copied / (size - from));
      }
      expect(log.length).toBe(12_000);
      for (const cost of perAppend) expect(cost).toBeLessThan(PER_APPEND);
    });
  }

  it('appending to an older log (a branch) copies O(1) too, and never changes the newer one', () => {
    const actions = adds(5_000);
    let log = createEventLog(CONFIG, { snapshotEvery: 65_536 });
    for (const action of actions) log = appendAction(log, action);
    const older = fork(log, 4_000);
    const head = replay(log);
    let branches = 0;
    const copied = countCopies(() => {
      for (let i = 0; i < 1_000; i++) {
        const branch = appendAction(older, memoryActions.summaryApplied(`what if ${i}`));
        branches += branch.length === 4_001 ? 1 : 0;
      }
    });
    expect(branches).toBe(1_000);
    expect(copied / 1_000).toBeLessThan(PER_APPEND);
    expect(replay(log)).toBe(head);
    expect(log.length).toBe(5_000);
  });
});

describe('decodeEnvelope is linear whatever snapshot_every says', () => {
  const ACTIONS = 6_000;
  /** A log's envelope: a message now and then, short actions between (the hostile file). */
  const envelope = (snapshotEvery: number): unknown => ({
    schema: 'conversation-memory',
    version: 1,
    kind: 'log',
    data: {
      initial: toDict(createMemory(CONFIG)),
      snapshot_every: snapshotEvery,
      actions: Array.from({ length: ACTIONS }, (_, i) =>
        i % 4 === 0
          ? { type: 'memory/messageAdded', payload: { role: 'user', content: `m${i}` } }
          : { type: i % 2 === 0 ? 'memory/limitsEnforced' : 'memory/cleared' },
      ),
    },
  });

  for (const snapshotEvery of [1, 256, 65_536]) {
    it(`snapshot_every ${snapshotEvery}: one reducer call per action, O(1) copies per action`, () => {
      const input = JSON.parse(JSON.stringify(envelope(snapshotEvery))) as unknown;
      let log: EventLog | undefined;
      counted = 0;
      const copied = countCopies(() => {
        const decoded = decodeEnvelope(input);
        if (E.isRight(decoded) && decoded.right.kind === 'log') log = decoded.right.log;
      });
      expect(log?.length).toBe(ACTIONS);
      expect(counted).toBe(ACTIONS / 4);
      expect(copied / ACTIONS).toBeLessThan(PER_APPEND);
    });
  }
});

describe('seek', () => {
  it('replays fewer than snapshotEvery actions, from the nearest snapshot', () => {
    let log = createEventLog(CONFIG, { snapshotEvery: 64 });
    for (const action of adds(1_000)) log = appendAction(log, action);
    for (const n of [0, 1, 63, 64, 65, 500, 639, 640, 999]) {
      counted = 0;
      seek(log, n);
      expect(counted, `seek(log, ${n})`).toBe(n % 64);
    }
  });
});
