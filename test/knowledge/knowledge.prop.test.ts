// Laws of the knowledge reducers over random sequences of actions: the cached index (owned by the
// newest state and updated in place) never changes a result; identical facts are stored once; a
// single-valued relation has one object in force; limits hold; every fact ever added is in the
// state or reported as dropped.
import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { decodeKnowledgeState } from '../../src/codec/knowledgeState';
import { describe, expect, it } from 'vitest';
import { createKnowledge } from '../../src/knowledge/createKnowledge';
import { knowledgeTransition } from '../../src/knowledge/knowledgeTransition';
import { normalizeContent, normalizeName, normalizeRelation } from '../../src/knowledge/normalize';
import type { KnowledgeState } from '../../src/model/knowledge';
import type { KnowledgeAction } from '../../src/model/knowledgeActions';

const NAMES = ['Alice', 'alice', 'Alicia', 'Bob', 'Rob', 'Acme', 'Acme Corp', 'Paris', 'Globex'];
const RELATIONS = ['works_at', 'knows', 'lives_in', 'likes'];
const LIMITS = { maxEntities: 4, maxRelations: 5, maxEntries: 3 };

const name = fc.constantFrom(...NAMES);
const entityItem = fc.record({
  name,
  type: fc.constantFrom('person', 'organization', 'other'),
  attributes: fc.dictionary(
    fc.constantFrom('city', 'role'),
    fc.constantFrom('Paris', 'Lyon', 'dev'),
  ),
});
const tripleItem = fc.record({
  subject: name,
  relation: fc.constantFrom(...RELATIONS),
  object: name,
  confidence: fc.constantFrom(1, 0.5),
});

type Step = { kind: 'entities' | 'relations' | 'remember' | 'forget' | 'clear'; data: unknown };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('entities' as const),
    data: fc.array(entityItem, { maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('relations' as const),
    data: fc.array(tripleItem, { maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('remember' as const),
    data: fc.record({
      content: fc.constantFrom('likes tea', 'Likes Tea', 'lives in Lyon', 'has a cat', 'vegan'),
      importance: fc.constantFrom(0.2, 0.5, 0.9),
      persistent: fc.boolean(),
      ttlDays: fc.constantFrom(null, 1),
    }),
  }),
  fc.record({
    kind: fc.constant('forget' as const),
    data: fc.constantFrom('likes tea', 'vegan', 'k1'),
  }),
  fc.record({ kind: fc.constant('clear' as const), data: fc.constant(null) }),
);

const HOUR = 3_600_000;

const toActions = (steps: readonly Step[]): KnowledgeAction[] => {
  const cursors = { entities: 0, relations: 0 };
  return steps.map((s, i): KnowledgeAction => {
    const at = i * 7 * HOUR;
    if (s.kind === 'entities' || s.kind === 'relations') {
      const from = cursors[s.kind];
      cursors[s.kind] = from + 2;
      return {
        type: 'knowledge/factsExtracted',
        payload: {
          source: s.kind,
          at,
          from,
          to: from + 1,
          limits: LIMITS,
          ...(s.kind === 'entities' ? { entities: s.data as never } : { triples: s.data as never }),
        },
      };
    }
    if (s.kind === 'remember') {
      const d = s.data as {
        content: string;
        importance: number;
        persistent: boolean;
        ttlDays: number | null;
      };
      return {
        type: 'knowledge/remembered',
        payload: {
          id: `k${i}`,
          category: 'general',
          metadata: {},
          at,
          maxEntries: LIMITS.maxEntries,
          ...d,
        },
      };
    }
    if (s.kind === 'forget') {
      const which = s.data as string;
      return {
        type: 'knowledge/forgotten',
        payload: /^k\d+$/.test(which) ? { id: which, at } : { content: which, at },
      };
    }
    return { type: 'knowledge/cleared' };
  });
};

const checkInvariants = (state: KnowledgeState): void => {
  const ids = [
    ...state.entities.flatMap((e) => [e.id, ...e.attributes.map((a) => a.id)]),
    ...state.relations.map((r) => r.id),
    ...state.entries.map((e) => e.id),
  ];
  expect(new Set(ids).size).toBe(ids.length);
  const live = <F extends { retiredAt: number | null }>(list: readonly F[]) =>
    list.filter((f) => f.retiredAt === null);
  for (const fact of [...state.entities, ...state.relations, ...state.entries]) {
    expect(fact.retiredAt === null).toBe(fact.retiredBy === null);
  }
  const names = live(state.entities).flatMap((e) => [e.name, ...e.aliases].map(normalizeName));
  expect(new Set(names).size).toBe(names.length);
  const triples = live(state.relations).map(
    (r) =>
      `${normalizeName(r.subject)}|${normalizeRelation(r.relation)}|${normalizeName(r.object)}`,
  );
  expect(new Set(triples).size).toBe(triples.length);
  for (const single of ['works_at', 'lives_in']) {
    const subjects = live(state.relations)
      .filter((r) => normalizeRelation(r.relation) === single)
      .map((r) => normalizeName(r.subject));
    expect(new Set(subjects).size).toBe(subjects.length);
  }
  const contents = live(state.entries).map((e) => normalizeContent(e.content));
  expect(new Set(contents).size).toBe(contents.length);
  expect(live(state.entities).length).toBeLessThanOrEqual(Math.max(LIMITS.maxEntities, 3));
  expect(live(state.relations).length).toBeLessThanOrEqual(Math.max(LIMITS.maxRelations, 3));
  expect(live(state.entries).filter((e) => !e.persistent).length).toBeLessThanOrEqual(
    LIMITS.maxEntries,
  );
  for (const entity of state.entities) {
    const keys = live(entity.attributes).map((a) => normalizeRelation(a.key));
    expect(new Set(keys).size).toBe(keys.length);
  }
};

describe('knowledge reducers: laws', () => {
  it('the cached index never changes a result: a chain equals each step applied to a fresh copy', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        let chained = createKnowledge();
        let fresh = createKnowledge();
        for (const action of toActions(steps)) {
          const previous = chained;
          chained = knowledgeTransition(chained, action).state;
          // A branch from the previous state (time travel): its index was taken by the first call.
          expect(knowledgeTransition(previous, action).state).toEqual(chained);
          // A JSON copy has no cached index: the reducer builds one from scratch.
          const copy = JSON.parse(JSON.stringify(fresh)) as KnowledgeState;
          fresh = knowledgeTransition(copy, action).state;
          expect(fresh).toEqual(chained);
          checkInvariants(chained);
          // What the reducers make, the stores' codec reads back unchanged.
          const decoded = decodeKnowledgeState(JSON.parse(JSON.stringify(chained)));
          expect(E.isRight(decoded) && decoded.right).toEqual(chained);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('conserves facts: every fact added is in the state or reported dropped', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        let state = createKnowledge();
        const added = new Set<string>();
        const dropped = new Set<string>();
        for (const action of toActions(steps)) {
          const result = knowledgeTransition(state, action);
          for (const effect of result.effects) {
            if (effect.type === 'knowledge/added') added.add(effect.fact.id);
            if (effect.type === 'knowledge/dropped') for (const id of effect.ids) dropped.add(id);
          }
          state = result.state;
        }
        const present = new Set([
          ...state.entities.flatMap((e) => [e.id, ...e.attributes.map((a) => a.id)]),
          ...state.relations.map((r) => r.id),
          ...state.entries.map((e) => e.id),
        ]);
        for (const id of added) expect(present.has(id) || dropped.has(id)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('is deterministic and never mutates its input', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 15 }), (steps) => {
        const actions = toActions(steps);
        let a = createKnowledge();
        const snapshots: string[] = [];
        for (const action of actions) {
          const before = JSON.stringify(a);
          const next = knowledgeTransition(a, action).state;
          expect(JSON.stringify(a)).toBe(before);
          expect(Object.isFrozen(next)).toBe(true);
          a = next;
          snapshots.push(JSON.stringify(a));
        }
        let b = createKnowledge();
        actions.forEach((action, i) => {
          b = knowledgeTransition(b, action).state;
          expect(JSON.stringify(b)).toBe(snapshots[i]);
        });
      }),
      { numRuns: 80 },
    );
  });
});
