// Issue #15 item 7: appendAction records a checked, deep-frozen copy of a memory action (each
// field read once), leaves out what is not a memory action, and never keeps the caller's object.
import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  decodeEnvelope,
  encodeEnvelope,
  fork,
  getHistory,
  getSummary,
  InvalidMessageError,
  logActions,
  MemoryArgumentError,
  replay,
  seek,
  timeline,
  type EventLog,
  type MemoryAction,
  type MemoryActionType,
  type MemoryOptions,
  userMessage,
} from 'conversation-memory';
import { memoryActionArb } from '../arbitraries/actions';

/** Every memory action type. */
const memoryActionTypes = [
  'memory/messageAdded',
  'memory/messagesAdded',
  'memory/limitsEnforced',
  'memory/toolPairBoundaryFixed',
  'memory/summaryApplied',
  'memory/summarySet',
  'memory/cleared',
  'memory/trimHeld',
  'memory/summaryCommitted',
  'memory/reconfigured',
] as const satisfies readonly MemoryActionType[];

const CONFIG: MemoryOptions = { maxMessages: 4, tokenizer: 'heuristic' };

/** A caller's action as a plain, mutable object (what a JavaScript caller or JSON.parse gives). */
const mutable = (action: MemoryAction): Record<string, unknown> =>
  JSON.parse(JSON.stringify(action)) as Record<string, unknown>;

const append = (log: EventLog, action: unknown): EventLog =>
  appendAction(log, action as MemoryAction);

/** Everything a reader can see of a log, as plain data. */
const observed = (log: EventLog) => ({
  replay: replay(log),
  seek: Array.from({ length: log.length + 1 }, (_, n) => seek(log, n)),
  fork: Array.from({ length: log.length + 1 }, (_, n) => replay(fork(log, n))),
  timeline: timeline(log),
  actions: logActions(log),
  envelope: JSON.stringify(encodeEnvelope(log)),
});

/** Changes everything reachable in a caller's object: strings, numbers, lists and the type. */
const scramble = (value: unknown): void => {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach(scramble);
    value.push({ role: 'user', content: 'pushed later' });
    value.reverse();
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (key === 'type') record[key] = 'memory/cleared';
    else if (typeof field === 'string') record[key] = `${field} (changed)`;
    else if (typeof field === 'number') record[key] = field + 1;
    else scramble(field);
  }
};

describe('appendAction records a copy', () => {
  it("the issue's example: changing the action afterwards changes no reader of the log", () => {
    const action = { type: 'memory/messageAdded', payload: { role: 'user', content: 'A' } };
    const log = append(createEventLog(CONFIG), action);
    action.payload.content = 'B';
    expect(getHistory(replay(log))[0]?.content).toBe('A');
    expect(getHistory(seek(log, 1))[0]?.content).toBe('A');
    expect(
      getHistory(replay(fork(appendAction(log, { type: 'memory/cleared' }), 1)))[0]?.content,
    ).toBe('A');
    expect(timeline(log)[0]?.action).toEqual({
      type: 'memory/messageAdded',
      payload: { role: 'user', content: 'A' },
    });
    expect(logActions(log)[0]).toMatchObject({ payload: { content: 'A' } });
    expect(JSON.stringify(encodeEnvelope(log))).toContain('"content":"A"');
    expect(JSON.stringify(encodeEnvelope(log))).not.toContain('"content":"B"');
  });

  it('a list, a type or a payload replaced afterwards changes nothing either', () => {
    const added = { type: 'memory/messagesAdded', payload: [{ role: 'user', content: 'one' }] };
    const summary = { type: 'memory/summaryApplied', payload: 'S' };
    let log = append(append(createEventLog(CONFIG), added), summary);
    added.payload.push({ role: 'user', content: 'two' });
    added.type = 'memory/cleared';
    summary.payload = 'T';
    log = append(log, { type: 'memory/limitsEnforced' });
    expect(timeline(log).map((step) => step.action.type)).toEqual([
      'memory/messagesAdded',
      'memory/summaryApplied',
      'memory/limitsEnforced',
    ]);
    expect(getHistory(seek(log, 1)).map((m) => m.content)).toEqual(['one']);
    expect(getSummary(seek(log, 2))).toBe('S');
  });

  it('a getter that changes its answer is read once: what is kept is what was applied', () => {
    let reads = 0;
    const action = {
      type: 'memory/summaryApplied',
      get payload() {
        reads++;
        return reads === 1 ? 'A' : 'B';
      },
    };
    const log = append(createEventLog(CONFIG), action);
    expect(reads).toBe(1);
    expect(getSummary(replay(log))).toBe('A');
    expect(timeline(log)[0]?.action).toEqual({ type: 'memory/summaryApplied', payload: 'A' });
    expect(getSummary(seek(log, 1))).toBe('A');
    expect(encodeEnvelope(log).data).toMatchObject({ actions: [{ payload: 'A' }] });
  });

  it('what is recorded is plain and deep-frozen, and taken again as it is', () => {
    const log = append(createEventLog(CONFIG), {
      type: 'memory/trimHeld',
      payload: { removed: [{ role: 'user', content: 'x' }], positions: [0] },
      meta: { fromRedux: true },
    });
    const [recorded] = logActions(log);
    expect(recorded).toEqual({
      type: 'memory/trimHeld',
      payload: { removed: [{ role: 'user', content: 'x' }], positions: [0] },
    });
    const held = recorded as Extract<MemoryAction, { type: 'memory/trimHeld' }>;
    expect(Object.isFrozen(held)).toBe(true);
    expect(Object.isFrozen(held.payload)).toBe(true);
    expect(Object.isFrozen(held.payload.removed)).toBe(true);
    expect(Object.isFrozen(held.payload.removed[0])).toBe(true);
    expect(Object.isFrozen(held.payload.positions)).toBe(true);
    expect(logActions(appendAction(createEventLog(CONFIG), held))[0]).toBe(held);
  });

  it('property: changing the caller’s actions after appending never changes what the log says', () => {
    fc.assert(
      fc.property(
        fc.array(memoryActionArb, { maxLength: 16 }),
        fc.integer({ min: 1, max: 5 }),
        (actions, snapshotEvery) => {
          const start = createEventLog(CONFIG, { snapshotEvery });
          const callers = actions.map(mutable);
          const log = callers.reduce(append, start);
          const before = observed(log);
          callers.forEach(scramble);
          expect(observed(log)).toEqual(before);
          expect(before).toEqual(observed(actions.map(mutable).reduce(append, start)));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('appendAction and what is not a memory action', () => {
  it("leaves out Redux's @@redux/INIT and other slices' actions: the same log comes back", () => {
    const log = append(createEventLog(CONFIG), { type: 'memory/cleared' });
    for (const other of [
      { type: '@@redux/INITi.8.x.y' },
      { type: 'chats/messageAdded', payload: { conversationId: 'c' } },
      { type: '' },
      { type: 'memoryish/cleared' },
    ]) {
      expect(append(log, other)).toBe(log);
    }
  });

  // #17 §3: what is not an action at all, or an unknown memory/* type, is refused (#15 left it
  // out, so `appendAction(log, userMessage('x'))` lost the message silently).
  it('refuses a value that is not an action, naming appendAction and the value', () => {
    const log = append(createEventLog(CONFIG), { type: 'memory/cleared' });
    for (const value of [{}, null, undefined, 'memory/cleared', 42, () => undefined, { type: 7 }]) {
      expect(() => append(log, value)).toThrow(MemoryArgumentError);
      expect(() => append(log, value)).toThrow(
        'appendAction: action must be an action (an object with a string type)',
      );
    }
    expect(() => append(log, userMessage('x'))).toThrow(
      'appendAction: action must be an action (an object with a string type): wrap a message in an action, memoryActions.messageAdded(message), received',
    );
    expect(log.length).toBe(1);
  });

  it('refuses an unknown memory/* type with a did-you-mean', () => {
    const log = createEventLog(CONFIG);
    expect(() => append(log, { type: 'memory/mesageAdded', payload: userMessage('x') })).toThrow(
      'appendAction: action.type "memory/mesageAdded" is not a memory or knowledge action type (did you mean memory/messageAdded?); expected memory/messageAdded,',
    );
    expect(() => append(log, { type: 'memory/unknown' })).toThrow(
      'appendAction: action.type "memory/unknown" is not a memory or knowledge action type; expected',
    );
  });

  it('property: a near-miss memory type is refused and names the type meant', () => {
    const types = memoryActionTypes;
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.nat(),
        fc.constantFrom('a', 'x', 'Q'),
        (type, at, letter) => {
          // One letter of the name after `memory/` changed, dropped or doubled.
          const name = type.slice('memory/'.length);
          const i = at % name.length;
          const slips = [
            name.slice(0, i) + letter + name.slice(i + 1),
            name.slice(0, i) + name.slice(i + 1),
            name.slice(0, i) + name.charAt(i) + name.slice(i),
          ].map((slip) => `memory/${slip}`);
          for (const slip of slips) {
            if ((types as readonly string[]).includes(slip)) continue;
            let message = '';
            try {
              append(createEventLog(CONFIG), { type: slip });
            } catch (error) {
              message = (error as Error).message;
            }
            // messageAdded and messagesAdded are one letter apart: a slip may be nearer the other.
            if (/messages?Added$/.test(type)) {
              expect(message).toMatch(/\(did you mean memory\/messages?Added\?\)/);
            } else {
              expect(message).toContain(`(did you mean ${type}?)`);
            }
          }
        },
      ),
    );
  });

  it('a log that saw other actions still saves and loads back whole', () => {
    let log = createEventLog(CONFIG);
    log = append(log, { type: 'memory/summaryApplied', payload: 'before' });
    log = append(log, { type: '@@redux/INIT' });
    log = append(log, { type: 'chats/opened' });
    log = append(log, { type: 'memory/messageAdded', payload: { role: 'user', content: 'after' } });
    const back = decodeEnvelope(JSON.parse(JSON.stringify(encodeEnvelope(log))));
    expect(E.isRight(back)).toBe(true);
    if (E.isLeft(back) || back.right.kind !== 'log') return;
    expect(logActions(back.right.log)).toEqual(logActions(log));
    expect(replay(back.right.log)).toEqual(replay(log));
  });

  it('property: whatever is appended, a saved log loads back with every action it holds', () => {
    const anything = fc.oneof(
      { arbitrary: memoryActionArb.map(mutable), weight: 4 },
      { arbitrary: fc.anything(), weight: 2 },
      { arbitrary: fc.record({ type: fc.string(), payload: fc.anything() }), weight: 2 },
    );
    fc.assert(
      fc.property(fc.array(anything, { maxLength: 12 }), (values) => {
        let log = createEventLog(CONFIG);
        for (const value of values) {
          try {
            log = append(log, value);
          } catch (error) {
            // Not an action, an unknown memory/* type, or a bad payload: our error, log unchanged.
            expect((error as { code?: unknown }).code).toMatch(/^CM_/);
          }
        }
        const back = decodeEnvelope(JSON.parse(JSON.stringify(encodeEnvelope(log))));
        expect(E.isRight(back) && back.right.kind === 'log' && logActions(back.right.log)).toEqual(
          logActions(log),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a memory action whose payload is not one, naming the field; the log is unchanged', () => {
    const log = createEventLog(CONFIG);
    const refused = (action: unknown) => () => append(log, action);
    expect(refused({ type: 'memory/summaryApplied', payload: 5 })).toThrow(
      'appendAction: action.payload must be a string for memory/summaryApplied, received 5',
    );
    expect(
      refused({ type: 'memory/summaryCommitted', payload: { text: 'x', through: -1 } }),
    ).toThrow('action.payload.through must be an integer ≥ 0, received -1');
    expect(refused({ type: 'memory/trimHeld', payload: { removed: [], positions: [1] } })).toThrow(
      'one position per removed message, received 0 messages and 1 positions',
    );
    expect(refused({ type: 'memory/messagesAdded', payload: 'hi' })).toThrow(MemoryArgumentError);
    expect(
      refused({ type: 'memory/messageAdded', payload: { role: 'USER', content: 'x' } }),
    ).toThrow(InvalidMessageError);
    expect(refused({ type: 'memory/summarySet', payload: ['\u0000<b>'] })).toThrow(
      'received an array of length 1',
    );
    expect(log.length).toBe(0);
  });

  it('a field that throws when read, or a revoked Proxy, is our error, not the caller’s', () => {
    const log = createEventLog(CONFIG);
    const boom = {
      type: 'memory/summaryApplied',
      get payload(): string {
        throw new TypeError('boom');
      },
    };
    expect(() => append(log, boom)).toThrow(MemoryArgumentError);
    expect(() => append(log, boom)).toThrow('action.payload could not be read: TypeError: boom');
    const { proxy, revoke } = Proxy.revocable({ type: 'memory/cleared' }, {});
    revoke();
    expect(() => append(log, proxy)).toThrow(MemoryArgumentError);
    const trap = new Proxy(
      { type: 'memory/trimHeld', payload: { removed: [], positions: [] } },
      {
        get: (target, key) => {
          if (key === 'payload') throw new Error('trap');
          return Reflect.get(target, key) as unknown;
        },
      },
    );
    expect(() => append(log, trap)).toThrow('action.payload could not be read: Error: trap');
  });
});
