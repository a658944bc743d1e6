// The versioned envelope keeps the knowledge: a state's envelope, and an event log's (its initial
// state, its knowledge actions, its snapshots rebuilt on load), each decode to what was encoded.
import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  appendAction,
  createMemory,
  decodeEnvelope,
  encodeEnvelope,
  type EventLog,
  type MemoryState,
  seek,
} from 'conversation-memory';
import { fromState, logSnapshots } from '../../../src/log/eventLog';
import { conversationStepsArb, playSteps } from '../../arbitraries/knowledgeActions';
import { user } from '../../helpers';

const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const decoded = (input: unknown) => {
  const result = decodeEnvelope(viaJson(input));
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

const decodedState = (state: MemoryState): MemoryState => {
  const result = decoded(encodeEnvelope(state));
  if (result.kind !== 'state') throw new Error(`expected a state, got a ${result.kind}`);
  return result.state;
};

const decodedLog = (log: EventLog): EventLog => {
  const result = decoded(encodeEnvelope(log));
  if (result.kind !== 'log') throw new Error(`expected a log, got a ${result.kind}`);
  return result.log;
};

/** Every step of a log, and its snapshots, equal those of the other. */
const expectSameLog = (actual: EventLog, expected: EventLog): void => {
  expect(actual.length).toBe(expected.length);
  expect(actual.snapshotEvery).toBe(expected.snapshotEvery);
  for (let n = 0; n <= expected.length; n++)
    expect(seek(actual, n)).toStrictEqual(seek(expected, n));
  expect(logSnapshots(actual)).toStrictEqual(logSnapshots(expected));
};

describe('envelopes keep the knowledge', () => {
  it('a state’s envelope decodes to the state, knowledge included', () => {
    fc.assert(
      fc.property(conversationStepsArb(25), (steps) => {
        for (const state of playSteps(steps).states) {
          expect(decodedState(state)).toStrictEqual(state);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a log’s envelope replays its knowledge actions, from an initial state with knowledge', () => {
    fc.assert(
      fc.property(
        conversationStepsArb(12),
        conversationStepsArb(25),
        fc.integer({ min: 1, max: 4 }),
        (before, after, every) => {
          // The log starts where a first conversation ended (its knowledge is in the initial
          // state), and records a second one.
          const initial = playSteps(before).states.at(-1) ?? createMemory();
          const { actions, states } = playSteps(after, initial);
          let log = fromState(initial, every);
          for (const action of actions) log = appendAction(log, action);
          states.forEach((state, i) => expect(seek(log, i + 1)).toStrictEqual(state));
          expectSameLog(decodedLog(log), log);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an example: the facts and their history survive a state and a log', () => {
    const start = addMessages(createMemory(), [user('I work at Acme'), user('Now Globex')]).state;
    const { actions, states } = playSteps(
      [
        { knowledge: { kind: 'relations', share: 1, limited: false, items: [works('Acme')] } },
        { knowledge: { kind: 'relations', share: 1, limited: false, items: [works('Globex')] } },
      ],
      start,
    );
    const last = states.at(-1);
    expect(last?.knowledge?.relations.map((r) => [r.object, r.retiredBy])).toEqual([
      ['Acme', 'superseded'],
      ['Globex', null],
    ]);
    expect(last && decodedState(last)).toStrictEqual(last);
    let log = fromState(start, 1);
    for (const action of actions) log = appendAction(log, action);
    expectSameLog(decodedLog(log), log);
  });
});

const works = (object: string) => ({
  subject: 'Alice',
  relation: 'works_at',
  object,
  confidence: 1,
});
