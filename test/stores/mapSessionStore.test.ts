import { describe, expect, it } from 'vitest';
import { sessionStoreConformance } from 'conversation-memory/store-kit/testing';
import { MapSessionStore } from './mapSessionStore';
import { sampleState } from './storeSamples';

/**
 * The published suite, as a third party runs it: imported by its package name (under
 * `TEST_DIST=1`, the built `dist/store-kit-testing.js`) against a store written outside src/ on
 * the public entries only, with the hooks a persisting store gives (a record damaged in the
 * store's own way, the records kept aside).
 */
sessionStoreConformance('MapSessionStore', {
  make: async (options) => new MapSessionStore(options),
  corrupt: async (store, key) => {
    (store as MapSessionStore).records.set(key, '{"revision": 1, "createdAt": 1, "memo');
  },
  asideCount: async (store) => (store as MapSessionStore).aside.length,
});

describe('MapSessionStore', () => {
  it('keeps each session as the JSON text of its record', async () => {
    const store = new MapSessionStore({ now: () => 1_764_500_000 });
    await store.save('s1', sampleState(['hello']), { namespace: 'u1' });
    expect(JSON.parse(store.records.get('u1:s1') ?? '')).toMatchObject({
      revision: 1,
      createdAt: 1_764_500_000,
      memory: { summary: 'earlier: greetings' },
    });
  });
});
