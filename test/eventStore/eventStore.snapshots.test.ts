import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendAction, createEventLog, encodeEnvelope, replay } from 'conversation-memory';
import { readSnapshotJson, encodeSnapshotJson, sameConfig } from 'conversation-memory/store-kit';
import { memoryActionArb } from '../arbitraries/actions';
import { CONFIG } from '../stores/storeSamples';

const stateArb = fc
  .array(memoryActionArb, { maxLength: 12 })
  .map((actions) => replay(actions.reduce(appendAction, createEventLog(CONFIG))));
const placeArb = fc.record({
  stream: fc.oneof(fc.constantFrom('s', 'u1:s', 'u1%3A:s', 's '), fc.string({ minLength: 1 })),
  version: fc.integer({ min: 1, max: 1_000_000 }),
});
const config = replay(createEventLog(CONFIG)).config;

describe('event store snapshots are bound to their stream and version', () => {
  it('property: a snapshot reads back at its own place, and nowhere else', () => {
    fc.assert(
      fc.property(stateArb, placeArb, placeArb, (state, own, other) => {
        // Bound to the stream's config: a state after a reconfigure (another config) reads back.
        const json = encodeSnapshotJson(state, { ...own, config });
        expect(readSnapshotJson(json, config, own)).toEqual(state);
        expect(readSnapshotJson(json, { ...config, maxMessages: 99 }, own)).toBeUndefined();
        // Unbound (as written before configs were bound): its state's config must be the stream's.
        const unbound = readSnapshotJson(encodeSnapshotJson(state, own), config, own);
        expect(unbound).toEqual(sameConfig(state.config, config) ? state : undefined);
        const elsewhere = readSnapshotJson(json, config, other);
        if (other.stream === own.stream && other.version === own.version) {
          expect(elsewhere).toEqual(state);
        } else {
          expect(elsewhere).toBeUndefined();
        }
        // The same place with another version, and another stream at the same version.
        expect(
          readSnapshotJson(json, config, { ...own, version: own.version + 1 }),
        ).toBeUndefined();
        expect(
          readSnapshotJson(json, config, { ...own, stream: `${own.stream}x` }),
        ).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('passes over an unbound snapshot, a damaged one, and one of another config', () => {
    const state = replay(createEventLog(CONFIG));
    const at = { stream: 's1', version: 4 };
    expect(readSnapshotJson(JSON.stringify(encodeEnvelope(state)), config, at)).toBeUndefined();
    for (const json of ['not json', '[]', 'null', '{"stream":"s1","version":4}', 42]) {
      expect(readSnapshotJson(json, config, at)).toBeUndefined();
    }
    const bound = JSON.parse(encodeSnapshotJson(state, at)) as Record<string, unknown>;
    expect(Object.keys(bound)).toEqual(['stream', 'version', 'envelope']);
    expect(
      readSnapshotJson(JSON.stringify({ ...bound, version: '4' }), config, at),
    ).toBeUndefined();
    expect(
      readSnapshotJson(encodeSnapshotJson(state, at), { ...config, maxMessages: 99 }, at),
    ).toBeUndefined();
  });
});
