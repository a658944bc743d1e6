import { describe, expect, it } from 'vitest';
import { createKnowledge } from '../../src/knowledge/createKnowledge';
import { remembered } from '../../src/knowledge/remembered';
import { forgotten } from '../../src/knowledge/forgotten';
import type { KnowledgeState } from '../../src/model/knowledge';
import type { RememberedPayload } from '../../src/model/knowledgeActions';

const DAY = 24 * 60 * 60 * 1000;

const entry = (
  id: string,
  content: string,
  at: number,
  extra: Partial<RememberedPayload> = {},
): RememberedPayload => ({
  id,
  content,
  category: 'general',
  importance: 0.5,
  persistent: false,
  ttlDays: null,
  metadata: {},
  at,
  ...extra,
});

const contents = (state: KnowledgeState) =>
  state.entries.filter((e) => e.retiredAt === null).map((e) => e.content);

describe('remembered', () => {
  it('never stores the same entry twice: a mention, the higher importance, persistent if either', () => {
    let state = remembered(createKnowledge(), entry('k1', 'Prefers dark mode', 1)).state;
    const again = remembered(
      state,
      entry('k2', '  prefers DARK mode ', 2, { importance: 0.9, persistent: true }),
    );
    expect(again.effects).toEqual([
      { type: 'knowledge/merged', kind: 'entry', id: 'k1', rule: 'identical' },
    ]);
    state = again.state;
    expect(state.entries).toHaveLength(1);
    expect(state.entries[0]).toMatchObject({
      id: 'k1',
      mentions: 2,
      importance: 0.9,
      persistent: true,
      updatedAt: 2,
      recordedAt: 1,
    });
  });

  it('evicts beyond maxEntries by keep score, never a persistent entry, never the new one', () => {
    let state = remembered(
      createKnowledge(),
      entry('k3', 'pinned', 0, { persistent: true, importance: 0.1, maxEntries: 2 }),
    ).state;
    state = remembered(state, entry('k4', 'k4', 0, { importance: 0.2, maxEntries: 2 })).state;
    const step = remembered(state, entry('k5', 'k5', 1, { importance: 0.1, maxEntries: 2 }));
    expect(step.effects).toContainEqual(
      expect.objectContaining({ type: 'knowledge/retired', id: 'k4', reason: 'evicted' }),
    );
    expect(contents(step.state)).toEqual(['pinned', 'k5']);
  });

  it('retires entries whose TTL ran out, with validTo at the expiry', () => {
    let state = remembered(createKnowledge(), entry('k6', 'short-lived', 0, { ttlDays: 1 })).state;
    state = remembered(state, entry('k7', 'later', 2 * DAY)).state;
    expect(state.entries[0]).toMatchObject({
      retiredBy: 'expired',
      validTo: DAY,
      retiredAt: 2 * DAY,
    });
  });

  it('refuses an id already used and an id shaped like a generated one', () => {
    const state = remembered(createKnowledge(), entry('k1', 'a', 1)).state;
    expect(() => remembered(state, entry('k1', 'b', 2))).toThrow(
      /"k1" is the id of an entry already stored/,
    );
    expect(() => remembered(state, entry('e12', 'b', 2))).toThrow(
      /action.payload.id must be an entry id \(k<n> or a 32-digit hex uuid\), received "e12"/,
    );
    // The failed call left the state usable (its index is rebuilt).
    expect(contents(remembered(state, entry('k2', 'b', 3)).state)).toEqual(['a', 'b']);
  });
});

describe('forgotten', () => {
  const base = remembered(
    remembered(createKnowledge(), entry('k8', 'Likes tea', 1, { persistent: true })).state,
    entry('k9', 'Lives in Lyon', 2),
  ).state;

  it('retires by id (persistent protects from eviction, not from forget)', () => {
    const { state, effects } = forgotten(base, { id: 'k8', at: 5 });
    expect(effects).toEqual([
      { type: 'knowledge/retired', kind: 'entry', id: 'k8', reason: 'forgotten' },
    ]);
    expect(state.entries[0]).toMatchObject({
      id: 'k8',
      retiredAt: 5,
      retiredBy: 'forgotten',
      validTo: null,
    });
    expect(state.entries).toHaveLength(2);
  });

  it('retires by content, case and spaces aside; an unknown one changes nothing', () => {
    expect(forgotten(base, { content: 'lives in  LYON', at: 5 }).state.entries[1]?.retiredBy).toBe(
      'forgotten',
    );
    const none = forgotten(base, { content: 'nothing like it', at: 5 });
    expect(none.state).toBe(base);
    expect(none.effects).toEqual([]);
  });

  it('an entry forgotten can be remembered again, as a new entry', () => {
    const gone = forgotten(base, { id: 'k9', at: 5 }).state;
    const back = remembered(gone, entry('k10', 'Lives in Lyon', 6)).state;
    expect(contents(back)).toEqual(['Likes tea', 'Lives in Lyon']);
    expect(back.entries.map((e) => e.id)).toEqual(['k8', 'k9', 'k10']);
  });
});
