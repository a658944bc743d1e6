// Issue #27 item 9: two sessions committing extractions to one knowledge store record, in any
// interleaving of the store's calls, give the record that applying every extraction in the order
// of the revisions they were saved at gives: no update lost, none applied twice.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createEntityMemory,
  createKnowledge,
  createKnowledgeGraph,
  InMemoryKnowledgeStore,
  knowledgeTransition,
  type ExtractedEntity,
  type ExtractedTriple,
  type KnowledgeAction,
  type KnowledgeState,
  type KnowledgeStore,
} from '../../src/entries/knowledge';
import { SharedKnowledge } from '../../src/agent/knowledge/sharedKnowledge';

const tripleArb: fc.Arbitrary<ExtractedTriple> = fc.record({
  subject: fc.constantFrom('User', 'Alice'),
  relation: fc.constantFrom('lives_in', 'works_at', 'likes'),
  object: fc.constantFrom('Lyon', 'Berlin', 'Acme', 'Globex', 'tea'),
  confidence: fc.constant(1),
});

const entityArb: fc.Arbitrary<ExtractedEntity> = fc.record({
  name: fc.constantFrom('User', 'Alice', 'Acme'),
  type: fc.constantFrom('person', 'organization', 'other'),
  attributes: fc.dictionary(
    fc.constantFrom('lives_in', 'role'),
    fc.constantFrom('Lyon', 'Berlin', 'chef'),
    { maxKeys: 2 },
  ),
});

/** One extraction of a session: what it found (at least one fact, so that it always saves). */
type Step =
  | { readonly source: 'relations'; readonly triples: readonly ExtractedTriple[] }
  | { readonly source: 'entities'; readonly entities: readonly ExtractedEntity[] };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    source: fc.constant('relations' as const),
    triples: fc.array(tripleArb, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    source: fc.constant('entities' as const),
    entities: fc.array(entityArb, { minLength: 1, maxLength: 2 }),
  }),
);

/** At most 4 extractions a session: a commit then meets at most 4 conflicts (5 saves). */
const sessionArb = fc.array(stepArb, { maxLength: 4 });

/** A session's extractions as actions: two messages each, times apart from the other session's. */
const actionsOf = (steps: readonly Step[], session: number): KnowledgeAction[] =>
  steps.map((step, i) => ({
    type: 'knowledge/factsExtracted',
    payload: { ...step, at: 1_000 + i * 10 + session, from: 2 * i, to: 2 * i + 1 },
  }));

/** The record after `action`: the reducer's facts, the record's cursors unchanged. */
const applied = (state: KnowledgeState, action: KnowledgeAction): KnowledgeState => ({
  ...knowledgeTransition(state, action).state,
  cursors: state.cursors,
});

describe('SharedKnowledge: two sessions committing to one record', () => {
  it('any interleaving of the store calls saves each extraction once, in revision order, nothing lost', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), sessionArb, sessionArb, async (s, stepsA, stepsB) => {
        const real = new InMemoryKnowledgeStore();
        const saved: KnowledgeState[] = [];
        /** Each call waits its turn, and so does its reply: any order of calls and replies. */
        const delayed =
          <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
          async (...args: A): Promise<T> => {
            await s.schedule(Promise.resolve(), 'call');
            return s.schedule(call(...args), 'reply');
          };
        const store: KnowledgeStore = {
          load: delayed((id, options) => real.load(id, options)),
          save: delayed(async (id, state, options) => {
            const result = await real.save(id, state, options);
            saved[result.revision - 1] = state;
            return result;
          }),
          delete: (id, options) => real.delete(id, options),
          list: (options) => real.list(options),
          sweep: () => real.sweep(),
          deleteNamespace: (namespace) => real.deleteNamespace(namespace),
          close: () => real.close(),
        };
        const session = async (actions: readonly KnowledgeAction[]) => {
          const entities = createEntityMemory();
          const graph = createKnowledgeGraph();
          const record = new SharedKnowledge({ store, id: 'u1', namespace: undefined });
          record.modules.push(entities, graph);
          await record.load();
          for (const action of actions) {
            const source = action.type === 'knowledge/factsExtracted' && action.payload.source;
            await record.commit(source === 'entities' ? entities : graph, action);
          }
          return { entities, graph, record };
        };
        const actionsA = actionsOf(stepsA, 0);
        const actionsB = actionsOf(stepsB, 5);
        const [a, b] = await s.waitFor(Promise.all([session(actionsA), session(actionsB)]));

        // Each revision is the one before with exactly one session's next extraction applied.
        const pending = [actionsA.slice(), actionsB.slice()];
        let state = createKnowledge();
        for (const [i, stored] of saved.entries()) {
          const queue = pending.find(
            (q) =>
              q.length > 0 && isDeepStrictEqual(applied(state, q[0] as KnowledgeAction), stored),
          );
          expect(queue, `revision ${i + 1} applies one pending extraction`).toBeDefined();
          queue?.shift();
          state = stored;
        }
        expect(pending).toEqual([[], []]);
        const final = await real.load('u1');
        expect(final?.revision ?? 0).toBe(actionsA.length + actionsB.length);
        expect(final?.state ?? createKnowledge()).toEqual(state);
        // A session's modules show the record as it last read or saved it, with its own cursors.
        for (const { entities, graph, record } of [a, b]) {
          expect(entities.state.relations).toBe(graph.state.relations);
          expect(record.revision).toBeLessThanOrEqual(saved.length);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a record deleted between the load and the save is created with this change only', async () => {
    const store = new InMemoryKnowledgeStore();
    const entities = createEntityMemory();
    const graph = createKnowledgeGraph();
    const first = new SharedKnowledge({ store, id: 'u1', namespace: undefined });
    first.modules.push(entities, graph);
    const [lyon, tea] = actionsOf(
      [
        {
          source: 'relations',
          triples: [{ subject: 'User', relation: 'lives_in', object: 'Lyon', confidence: 1 }],
        },
        {
          source: 'relations',
          triples: [{ subject: 'User', relation: 'likes', object: 'tea', confidence: 1 }],
        },
      ],
      0,
    ) as [KnowledgeAction, KnowledgeAction];
    await first.load();
    await first.commit(graph, lyon);
    // The other module of the record shows the saved facts, with its own cursors.
    expect(entities.state.relations).toBe(graph.state.relations);
    expect(entities.state.cursors).toEqual({ entities: 0, relations: 0 });
    expect(graph.state.cursors).toEqual({ entities: 0, relations: 2 });
    expect(await store.delete('u1')).toBe(true);
    await first.commit(graph, tea);
    const loaded = await store.load('u1');
    expect(loaded?.revision).toBe(1);
    expect(loaded?.state.relations.map((r) => r.object)).toEqual(['tea']);
    // The record's own cursors are never moved.
    expect(loaded?.state.cursors).toEqual({ entities: 0, relations: 0 });
    expect(graph.state.relations.map((r) => r.object)).toEqual(['tea']);
  });
});
