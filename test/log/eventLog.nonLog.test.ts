// Issue #15 item 7: every function that takes an event log refuses what is not one with our own
// error (MemoryArgumentError, code CM_ARGUMENT), never a TypeError; a log's JSON copy is a log.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  createMemory,
  encodeEnvelope,
  exportEventLog,
  fork,
  importEventLog,
  InMemoryEventStore,
  logActions,
  memoryActions,
  MemoryArgumentError,
  replay,
  seek,
  timeline,
  type EventLog,
  type EventStore,
} from 'conversation-memory';
import { user } from '../helpers';

const CONFIG = { maxMessages: 4, tokenizer: 'heuristic' } as const;

const logOf = (count: number, snapshotEvery = 4): EventLog => {
  let log = createEventLog(CONFIG, { snapshotEvery });
  for (let i = 0; i < count; i++)
    log = appendAction(log, memoryActions.messageAdded(user(`m${i}`)));
  return log;
};

/** Each listed function, given `value` where it takes a log: what it throws or rejects with. */
const uses: Record<string, (value: unknown) => unknown> = {
  replay: (value) => replay(value as EventLog),
  seek: (value) => seek(value as EventLog, 0),
  fork: (value) => fork(value as EventLog, 0),
  timeline: (value) => timeline(value as EventLog),
  logActions: (value) => logActions(value as EventLog),
  appendAction: (value) => appendAction(value as EventLog, memoryActions.cleared()),
  encodeEnvelope: (value) => encodeEnvelope(value as EventLog),
  importEventLog: (value) => importEventLog(new InMemoryEventStore(), 's', value as EventLog),
  exportEventLog: (value) => exportEventLog(value as EventStore, 's'),
};

const failureOf = async (use: (value: unknown) => unknown, value: unknown): Promise<unknown> => {
  try {
    await use(value);
  } catch (error) {
    return error;
  }
  return undefined;
};

const throwing = (): Record<string, unknown> => {
  const value: Record<string, unknown> = {};
  for (const key of ['snapshotEvery', 'length', 'head', 'actions', 'snapshots', 'load', 'append']) {
    Object.defineProperty(value, key, {
      enumerable: true,
      get: () => {
        throw new TypeError(`${key} is hostile`);
      },
    });
  }
  return value;
};

const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

const expectOurs = (error: unknown, name: string): void => {
  expect(error, name).toBeInstanceOf(MemoryArgumentError);
  expect((error as MemoryArgumentError).code).toBe('CM_ARGUMENT');
};

describe('non-logs', () => {
  const nonLogs: [string, () => unknown][] = [
    ['null', () => null],
    ['undefined', () => undefined],
    ['{}', () => ({})],
    ['a number', () => 7],
    ['an array', () => [logOf(1)]],
    ['a revoked Proxy', revoked],
    ['an object with throwing getters', throwing],
    [
      'a Proxy whose traps throw',
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error('trap');
            },
          },
        ),
    ],
    [
      'an event log of 0.1 (chunks)',
      () => ({
        snapshotEvery: 4,
        chunks: [[memoryActions.cleared()]],
        snapshots: [createMemory()],
        head: createMemory(),
        length: 1,
      }),
    ],
    ['a log whose length lies', () => ({ ...logOf(3), length: 5 })],
    ['a log whose snapshots lie', () => ({ ...logOf(9), snapshots: logOf(3).snapshots })],
  ];

  it('every listed function refuses each with MemoryArgumentError', async () => {
    for (const [name, use] of Object.entries(uses)) {
      for (const [what, make] of nonLogs)
        expectOurs(await failureOf(use, make()), `${name}(${what})`);
    }
  });

  it('a state is not a log (encodeEnvelope takes it as the state it is)', async () => {
    const state = createMemory(CONFIG);
    for (const [name, use] of Object.entries(uses)) {
      if (name === 'encodeEnvelope') continue;
      expectOurs(await failureOf(use, state), name);
    }
    expect(await failureOf(uses['replay'] as never, state)).toMatchObject({
      message: expect.stringContaining('received a memory state') as unknown,
    });
    expect(encodeEnvelope(state).kind).toBe('state');
  });

  it('property: anything at all is refused with our error, never a TypeError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.anything({ withObjectString: true, withNullPrototype: true }),
        async (value) => {
          for (const [name, use] of Object.entries(uses))
            expectOurs(await failureOf(use, value), name);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a damaged list inside a log is refused when reached, with our error', () => {
    const copy = JSON.parse(JSON.stringify(logOf(100))) as { actions: { root: unknown[] } };
    copy.actions.root[1] = 5;
    expect(() => logActions(copy as unknown as EventLog)).toThrow(MemoryArgumentError);
    expect(() => seek(copy as unknown as EventLog, 63)).toThrow('log is damaged');
    expect(() => timeline(copy as unknown as EventLog)).toThrow(MemoryArgumentError);
  });
});

describe('what a log is', () => {
  it("a log's JSON copy is a log: every function reads it as the log (the inspector page does)", () => {
    const log = logOf(77, 8);
    const copy = JSON.parse(JSON.stringify(log)) as EventLog;
    expect(replay(copy)).toEqual(replay(log));
    expect(logActions(copy)).toEqual(logActions(log));
    expect(seek(copy, 41)).toEqual(seek(log, 41));
    expect(timeline(fork(copy, 50))).toEqual(timeline(fork(log, 50)));
    expect(encodeEnvelope(copy)).toEqual(encodeEnvelope(log));
    const more = memoryActions.messageAdded(user('more'));
    expect(appendAction(copy, more)).toEqual(appendAction(log, more));
  });

  it('a log read through a Proxy that forwards is still a log', () => {
    const log = logOf(10);
    expect(replay(new Proxy(log, {}))).toBe(log.head);
    expect(logActions(new Proxy(log, {}))).toEqual(logActions(log));
  });
});
