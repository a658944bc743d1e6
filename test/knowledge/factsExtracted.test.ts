import { describe, expect, it } from 'vitest';
import { createKnowledge } from '../../src/knowledge/createKnowledge';
import { factsExtracted } from '../../src/knowledge/factsExtracted';
import type { KnowledgeState } from '../../src/model/knowledge';
import type { FactsExtractedPayload } from '../../src/model/knowledgeActions';
import { MemoryArgumentError } from '../../src/errors/memoryErrors';

const DAY = 24 * 60 * 60 * 1000;

const triples = (
  state: KnowledgeState,
  at: number,
  from: number,
  to: number,
  list: NonNullable<FactsExtractedPayload['triples']>,
  extra: Partial<FactsExtractedPayload> = {},
) => factsExtracted(state, { source: 'relations', at, from, to, triples: list, ...extra });

const entities = (
  state: KnowledgeState,
  at: number,
  from: number,
  to: number,
  list: NonNullable<FactsExtractedPayload['entities']>,
  extra: Partial<FactsExtractedPayload> = {},
) => factsExtracted(state, { source: 'entities', at, from, to, entities: list, ...extra });

const inForce = <F extends { retiredAt: number | null }>(facts: readonly F[]): F[] =>
  facts.filter((f) => f.retiredAt === null);

describe('factsExtracted: relations', () => {
  it('stores an identical triple once: its mentions and sources grow (the duplicate-extraction repro)', () => {
    let state = createKnowledge();
    const fact = { subject: 'Alice', relation: 'works_at', object: 'Acme', confidence: 1 };
    state = triples(state, 1000, 0, 1, [fact]).state;
    // The same fact reported again by later extractions over other messages.
    for (let turn = 1; turn <= 5; turn++) {
      const step = triples(state, 1000 + turn, 2 * turn, 2 * turn + 1, [
        { ...fact, subject: 'alice', relation: 'Works At' },
      ]);
      expect(step.effects).toContainEqual({
        type: 'knowledge/merged',
        kind: 'relation',
        id: 'r1',
        rule: 'identical',
      });
      state = step.state;
    }
    expect(state.relations).toHaveLength(1);
    expect(state.relations[0]).toMatchObject({
      mentions: 6,
      lastMentioned: 1005,
      recordedAt: 1000,
    });
    expect(state.relations[0]?.sources).toEqual([
      { from: 0, to: 1 },
      { from: 2, to: 3 },
      { from: 4, to: 5 },
      { from: 6, to: 7 },
      { from: 8, to: 9 },
      { from: 10, to: 11 },
    ]);
  });

  it('retires (never deletes) the old object of a single-valued relation, with both time ranges', () => {
    let state = triples(createKnowledge(), 1000, 0, 1, [
      { subject: 'Alice', relation: 'works_at', object: 'Acme', confidence: 1 },
    ]).state;
    const step = triples(state, 5000, 2, 3, [
      {
        subject: 'Alice',
        relation: 'works_at',
        object: 'Globex',
        confidence: 0.9,
        validFrom: 4000,
      },
    ]);
    state = step.state;
    expect(state.relations).toHaveLength(2);
    expect(state.relations[0]).toMatchObject({
      object: 'Acme',
      validFrom: 1000,
      validTo: 4000,
      recordedAt: 1000,
      retiredAt: 5000,
      retiredBy: 'superseded',
      supersededBy: 'r2',
    });
    expect(state.relations[1]).toMatchObject({
      object: 'Globex',
      validFrom: 4000,
      validTo: null,
      retiredAt: null,
    });
    expect(step.effects).toContainEqual({
      type: 'knowledge/retired',
      kind: 'relation',
      id: 'r1',
      reason: 'superseded',
      by: 'r2',
    });
  });

  it('accumulates a relation that is not single-valued (knows Bob, then knows Carol)', () => {
    let state = triples(createKnowledge(), 1, 0, 0, [
      { subject: 'Alice', relation: 'knows', object: 'Bob', confidence: 1 },
    ]).state;
    state = triples(state, 2, 1, 1, [
      { subject: 'Alice', relation: 'knows', object: 'Carol', confidence: 1 },
    ]).state;
    expect(inForce(state.relations).map((r) => r.object)).toEqual(['Bob', 'Carol']);
  });

  it('follows singleValuedRelations when given: knows becomes one-at-a-time, works_at accumulates', () => {
    const policy = { singleValuedRelations: ['knows'] };
    let state = triples(
      createKnowledge(),
      1,
      0,
      0,
      [
        { subject: 'A', relation: 'knows', object: 'B', confidence: 1 },
        { subject: 'A', relation: 'works_at', object: 'X', confidence: 1 },
      ],
      policy,
    ).state;
    state = triples(
      state,
      2,
      1,
      1,
      [
        { subject: 'A', relation: 'knows', object: 'C', confidence: 1 },
        { subject: 'A', relation: 'works_at', object: 'Y', confidence: 1 },
      ],
      policy,
    ).state;
    expect(inForce(state.relations).map((r) => `${r.relation}:${r.object}`)).toEqual([
      'works_at:X',
      'knows:C',
      'works_at:Y',
    ]);
  });

  it('reads each message once: a payload that ends before the cursor changes nothing', () => {
    const first = triples(createKnowledge(), 1, 0, 5, [
      { subject: 'A', relation: 'knows', object: 'B', confidence: 1 },
    ]);
    expect(first.state.cursors).toEqual({ entities: 0, relations: 6 });
    expect(first.effects[0]).toEqual({
      type: 'knowledge/cursorMoved',
      source: 'relations',
      from: 0,
      to: 5,
    });
    const again = triples(first.state, 2, 0, 5, [
      { subject: 'A', relation: 'knows', object: 'B', confidence: 1 },
    ]);
    expect(again.state).toBe(first.state);
    expect(again.effects).toEqual([]);
  });

  it('evicts by keep score beyond maxRelations, never a fact stated in the same payload', () => {
    let state = createKnowledge();
    const limits = { maxRelations: 2 };
    // r1 stated three times (high score), r2 once long ago, then a new one.
    state = triples(
      state,
      0,
      0,
      0,
      [{ subject: 'A', relation: 'knows', object: 'B', confidence: 1 }],
      { limits },
    ).state;
    state = triples(
      state,
      DAY,
      1,
      1,
      [{ subject: 'A', relation: 'knows', object: 'C', confidence: 1 }],
      { limits },
    ).state;
    state = triples(
      state,
      2 * DAY,
      2,
      2,
      [{ subject: 'A', relation: 'knows', object: 'B', confidence: 1 }],
      { limits },
    ).state;
    state = triples(
      state,
      3 * DAY,
      3,
      3,
      [{ subject: 'A', relation: 'knows', object: 'B', confidence: 1 }],
      { limits },
    ).state;
    const step = triples(
      state,
      4 * DAY,
      4,
      4,
      [{ subject: 'A', relation: 'knows', object: 'D', confidence: 1 }],
      { limits },
    );
    const evicted = step.effects.find((e) => e.type === 'knowledge/retired');
    expect(evicted).toMatchObject({ kind: 'relation', id: 'r2', reason: 'evicted' });
    expect(inForce(step.state.relations).map((r) => r.object)).toEqual(['B', 'D']);
  });

  it('refuses a malformed payload, naming the field', () => {
    expect(() =>
      factsExtracted(createKnowledge(), { source: 'relations', at: 1, from: 3, to: 2 }),
    ).toThrow(/action.payload.to \(2\) must not be below action.payload.from \(3\)/);
    expect(() =>
      factsExtracted(createKnowledge(), {
        source: 'relations',
        at: 1,
        from: 0,
        to: 0,
        triples: [{ subject: 'A', relation: 'r', object: 'B', confidence: 2 }],
      }),
    ).toThrow(MemoryArgumentError);
  });
});

describe('factsExtracted: entities', () => {
  it('resolves by name, then alias, then near duplicate, naming each step', () => {
    let state = entities(createKnowledge(), 1, 0, 0, [
      { name: 'Alice Johnson', type: 'person', attributes: {} },
    ]).state;
    const byName = entities(state, 2, 1, 1, [
      { name: 'alice johnson', type: 'person', attributes: {} },
    ]);
    expect(byName.effects).toContainEqual({
      type: 'knowledge/merged',
      kind: 'entity',
      id: 'e1',
      rule: 'name',
      name: 'alice johnson',
    });
    const near = entities(byName.state, 3, 2, 2, [
      { name: 'Alice Johnsson', type: 'person', attributes: {} },
    ]);
    const merged = near.effects.find((e) => e.type === 'knowledge/merged');
    expect(merged).toMatchObject({ id: 'e1', rule: 'nearDuplicate', name: 'Alice Johnsson' });
    expect((merged as { similarity: number }).similarity).toBeGreaterThanOrEqual(0.8);
    state = near.state;
    expect(state.entities[0]).toMatchObject({ aliases: ['Alice Johnsson'], mentions: 3 });
    const byAlias = entities(state, 4, 3, 3, [
      { name: 'ALICE JOHNSSON', type: 'person', attributes: {} },
    ]);
    expect(byAlias.effects).toContainEqual({
      type: 'knowledge/merged',
      kind: 'entity',
      id: 'e1',
      rule: 'alias',
      name: 'ALICE JOHNSSON',
    });
    expect(byAlias.state.entities).toHaveLength(1);
  });

  it('keeps distinct names apart (Bob and Rob; a near name of another type)', () => {
    let state = entities(createKnowledge(), 1, 0, 0, [
      { name: 'Bob', type: 'person', attributes: {} },
      { name: 'Paris', type: 'location', attributes: {} },
    ]).state;
    state = entities(state, 2, 1, 1, [
      { name: 'Rob', type: 'person', attributes: {} },
      { name: 'Pariss', type: 'organization', attributes: {} },
    ]).state;
    expect(state.entities.map((e) => e.name)).toEqual(['Bob', 'Paris', 'Rob', 'Pariss']);
  });

  it('holds one value per attribute: a new value retires the old, the same value is a mention', () => {
    let state = entities(createKnowledge(), 1, 0, 0, [
      { name: 'Alice', type: 'person', attributes: { city: 'Paris' } },
    ]).state;
    state = entities(state, 2, 1, 1, [
      { name: 'Alice', type: 'person', attributes: { city: 'paris' } },
    ]).state;
    const moved = entities(state, 3, 2, 2, [
      { name: 'Alice', type: 'person', attributes: { City: 'Berlin' } },
    ]);
    const alice = moved.state.entities[0];
    expect(alice?.attributes).toMatchObject([
      {
        key: 'city',
        value: 'Paris',
        mentions: 2,
        retiredBy: 'superseded',
        retiredAt: 3,
        validTo: 3,
      },
      { key: 'City', value: 'Berlin', retiredAt: null },
    ]);
    expect(moved.effects).toContainEqual({
      type: 'knowledge/retired',
      kind: 'attribute',
      id: alice?.attributes[0]?.id,
      reason: 'superseded',
      by: alice?.attributes[1]?.id,
    });
  });

  it('a vague type gives way to a precise one; a precise one stays (the reference never changes it)', () => {
    let state = entities(createKnowledge(), 1, 0, 0, [
      { name: 'Acme', type: 'other', attributes: {} },
    ]).state;
    state = entities(state, 2, 1, 1, [
      { name: 'Acme', type: 'organization', attributes: {} },
    ]).state;
    state = entities(state, 3, 2, 2, [{ name: 'Acme', type: 'location', attributes: {} }]).state;
    expect(state.entities[0]?.type).toBe('organization');
  });

  it('evicts the entity with the lowest keep score beyond maxEntities', () => {
    const limits = { maxEntities: 2 };
    let state = entities(
      createKnowledge(),
      0,
      0,
      0,
      [{ name: 'Old', type: 'person', attributes: {} }],
      { limits },
    ).state;
    state = entities(state, 1, 1, 1, [{ name: 'Kept', type: 'person', attributes: {} }], {
      limits,
    }).state;
    state = entities(state, 2, 2, 2, [{ name: 'Kept', type: 'person', attributes: {} }], {
      limits,
    }).state;
    const step = entities(state, 3, 3, 3, [{ name: 'New', type: 'person', attributes: {} }], {
      limits,
    });
    expect(step.effects).toContainEqual(
      expect.objectContaining({
        type: 'knowledge/retired',
        kind: 'entity',
        id: 'e1',
        reason: 'evicted',
      }),
    );
    expect(inForce(step.state.entities).map((e) => e.name)).toEqual(['Kept', 'New']);
    // Retired, not deleted: it is still in the state, and a new mention makes a new entity.
    expect(step.state.entities[0]).toMatchObject({
      name: 'Old',
      retiredBy: 'evicted',
      retiredAt: 3,
    });
  });
});

describe('an evicted entity takes its attributes with it', () => {
  it('retires each attribute in force with the entity, for the same reason', () => {
    const limits = { maxEntities: 1 };
    let state = factsExtracted(createKnowledge(), {
      source: 'entities',
      at: 1,
      from: 0,
      to: 0,
      entities: [{ name: 'Old', type: 'person', attributes: { city: 'Lyon' } }],
      limits,
    }).state;
    state = factsExtracted(state, {
      source: 'entities',
      at: 2,
      from: 1,
      to: 1,
      entities: [{ name: 'New', type: 'person', attributes: {} }],
      limits,
    }).state;
    expect(state.entities[0]?.attributes[0]).toMatchObject({ retiredBy: 'evicted', retiredAt: 2 });
  });
});

describe('singleValuedRelations are compared in the relations own form', () => {
  it('a policy name in another Unicode form (fullwidth) still names works_at', () => {
    const policy = { singleValuedRelations: ['ｗｏｒｋｓ ａｔ'] };
    let state = triples(
      createKnowledge(),
      1,
      0,
      0,
      [{ subject: 'A', relation: 'works_at', object: 'X', confidence: 1 }],
      policy,
    ).state;
    state = triples(
      state,
      2,
      1,
      1,
      [{ subject: 'A', relation: 'works-at', object: 'Y', confidence: 1 }],
      policy,
    ).state;
    expect(inForce(state.relations).map((r) => r.object)).toEqual(['Y']);
  });
});
