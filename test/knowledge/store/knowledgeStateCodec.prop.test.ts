import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError, MemoryDecodeError } from 'conversation-memory';
import {
  createKnowledge,
  decodeKnowledgeState,
  type KnowledgeState,
  MAX_ENTITY_PARTS,
  MAX_KNOWLEDGE_FACTS,
  MAX_KNOWLEDGE_TEXT_LENGTH,
} from 'conversation-memory/knowledge';
import { knowledgeStateArb, sampleKnowledge } from '../../arbitraries/knowledge';

/** The JSON a store would keep of a state, parsed back (mutable, for the mutations). */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const asJson = (state: KnowledgeState): Json => JSON.parse(JSON.stringify(state)) as Json;

const problemsOf = (input: unknown): readonly string[] => {
  const decoded = decodeKnowledgeState(input);
  if (decoded._tag === 'Right') return [];
  expect(decoded.left).toBeInstanceOf(MemoryDecodeError);
  expect(isConversationMemoryError(decoded.left)).toBe(true);
  return decoded.left.problems;
};

const isDeeplyFrozen = (value: unknown): boolean =>
  typeof value !== 'object' ||
  value === null ||
  (Object.isFrozen(value) && Object.values(value).every(isDeeplyFrozen));

describe('decodeKnowledgeState', () => {
  it('decodes the JSON of any valid state to an equal, fresh, deeply frozen state', () => {
    fc.assert(
      fc.property(knowledgeStateArb, (state) => {
        const decoded = decodeKnowledgeState(JSON.parse(JSON.stringify(state)));
        expect(decoded).toEqual({ _tag: 'Right', right: state });
        if (decoded._tag === 'Right') expect(isDeeplyFrozen(decoded.right)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('decodes the empty state and a sample with every field', () => {
    expect(decodeKnowledgeState(asJson(createKnowledge()))).toEqual({
      _tag: 'Right',
      right: createKnowledge(),
    });
    expect(decodeKnowledgeState(asJson(sampleKnowledge()))).toEqual({
      _tag: 'Right',
      right: sampleKnowledge(),
    });
  });

  /** One way to break a rule: what it does to the JSON, and the path its problem must name. */
  interface Mutation {
    /** The path (or, for a mutation that adds an item, the path computed from the result). */
    readonly path: string | ((json: Json) => string);
    readonly apply: (json: Json) => void;
  }
  const mutations: readonly Mutation[] = [
    { path: 'entities[0].mentions', apply: (j) => (j.entities[0].mentions = 0) },
    { path: 'entities[0].mentions', apply: (j) => (j.entities[0].mentions = 1.5) },
    { path: 'relations[0].confidence', apply: (j) => (j.relations[0].confidence = 1.01) },
    { path: 'entries[0].importance', apply: (j) => (j.entries[0].importance = -0.1) },
    { path: 'entries[0].importance', apply: (j) => (j.entries[0].importance = '0.5') },
    {
      path: 'entities[0].retiredAt',
      apply: (j) => {
        j.entities[0].retiredAt = j.entities[0].recordedAt - 1;
        j.entities[0].retiredBy = 'evicted';
      },
    },
    {
      path: 'relations[0].retiredBy',
      apply: (j) => {
        j.relations[0].retiredAt = null;
        j.relations[0].retiredBy = 'evicted';
      },
    },
    {
      path: 'entries[0].retiredBy',
      apply: (j) => {
        j.entries[0].retiredAt = j.entries[0].recordedAt;
        j.entries[0].retiredBy = null;
      },
    },
    { path: 'entities[0].retiredBy', apply: (j) => (j.entities[0].retiredBy = 'deleted') },
    {
      path: 'entities[0].validTo',
      apply: (j) => (j.entities[0].validTo = j.entities[0].validFrom - 1),
    },
    {
      path: 'entities[0].attributes[0].validTo',
      apply: (j) =>
        (j.entities[0].attributes[0].validTo = j.entities[0].attributes[0].validFrom - 0.5),
    },
    {
      path: (j) => `entries[${j.entries.length - 1}].id`,
      apply: (j) => j.entries.push({ ...j.entries[0] }),
    },
    {
      path: 'entities[0].attributes[0].id',
      apply: (j) => (j.entities[0].attributes[0].id = j.entities[0].id),
    },
    { path: 'nextId', apply: (j) => (j.nextId = 1) },
    { path: 'nextId', apply: (j) => (j.nextId = 0) },
    { path: 'cursors.entities', apply: (j) => (j.cursors.entities = -1) },
    { path: 'cursors.relations', apply: (j) => (j.cursors.relations = 1.5) },
    {
      path: 'entities[0].sources[0].to',
      apply: (j) => (j.entities[0].sources = [{ from: 5, to: 4 }]),
    },
    {
      path: 'relations[0].sources',
      apply: (j) =>
        (j.relations[0].sources = Array.from({ length: 11 }, () => ({ from: 0, to: 0 }))),
    },
    {
      path: 'entities[0].name',
      apply: (j) => (j.entities[0].name = 'x'.repeat(MAX_KNOWLEDGE_TEXT_LENGTH + 1)),
    },
    {
      path: 'entities[0].aliases',
      apply: (j) => (j.entities[0].aliases = new Array(MAX_ENTITY_PARTS + 1)),
    },
    { path: 'entries[0].id', apply: (j) => (j.entries[0].id = 'e77') },
    { path: 'entities[0].id', apply: (j) => (j.entities[0].id = 'e01') },
    { path: 'relations[0].subjectId', apply: (j) => (j.relations[0].subjectId = 'r1') },
    { path: 'entries[0].ttlDays', apply: (j) => (j.entries[0].ttlDays = -1) },
    { path: 'entries[0].persistent', apply: (j) => (j.entries[0].persistent = 1) },
    { path: 'entries[0].metadata', apply: (j) => (j.entries[0].metadata = [1]) },
    { path: 'relations[0].object', apply: (j) => delete j.relations[0].object },
    { path: 'entities', apply: (j) => (j.entities = new Array(MAX_KNOWLEDGE_FACTS + 1)) },
    { path: 'entries[0].updatedAt', apply: (j) => (j.entries[0].updatedAt = 1e300) },
  ];

  /** States with at least one entity (with an attribute), relation and entry. */
  const fullStateArb = knowledgeStateArb.filter(
    (s) =>
      s.relations.length > 0 &&
      s.entries.length > 0 &&
      s.entities.length > 0 &&
      (s.entities[0]?.attributes.length ?? 0) > 0,
  );

  it('refuses any mutation that breaks a rule, naming the path and the value', () => {
    fc.assert(
      fc.property(fullStateArb, fc.constantFrom(...mutations), (state, mutation) => {
        const json = asJson(state);
        mutation.apply(json);
        const path = typeof mutation.path === 'string' ? mutation.path : mutation.path(json);
        const problems = problemsOf(json);
        const named = problems.filter((p) => p.startsWith(path));
        expect(named, `${path} in ${problems.join(' | ')}`).not.toHaveLength(0);
        expect(named.some((p) => /received|got|is already/.test(p))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('phrases problems readably', () => {
    const json = asJson(sampleKnowledge());
    json.entities[0].mentions = 0;
    json.relations[0].id = 'e1';
    json.entries[0].retiredAt = 5;
    expect(problemsOf(json)).toEqual([
      'entities[0].mentions must be an integer ≥ 1, received 0',
      'relations[0].id must be a relation id (r<n>), received "e1"',
    ]);
    const rules = asJson(sampleKnowledge());
    rules.entries[0].id = 'e1';
    rules.entries[0].id = 'k1';
    rules.entities[0].id = 'e9';
    rules.entries[0].retiredAt = 5;
    expect(problemsOf(rules)).toEqual([
      'entries[0].retiredBy must name why the fact was retired at 5, received null',
      'entries[0].retiredAt must not be before recordedAt (1764500000000), received 5',
      'nextId must be greater than every id number (entities[0].id has 9), received 5',
    ]);
  });

  it('refuses what is not a state without throwing, and stops looking after 1,000 problems', () => {
    for (const input of [null, 'state', [], 5, { entities: 'no' }]) {
      expect(problemsOf(input)).not.toHaveLength(0);
    }
    const hostile = asJson(createKnowledge());
    hostile.entries = Array.from({ length: 5000 }, () => ({ id: 7 }));
    const decoded = decodeKnowledgeState(hostile);
    expect(decoded._tag).toBe('Left');
    if (decoded._tag === 'Left') expect(decoded.left.countComplete).toBe(false);
    const getter = {
      ...asJson(createKnowledge()),
      get nextId(): number {
        throw new Error('boom');
      },
    };
    expect(problemsOf(getter)[0]).toContain('could not read the input');
  });

  it('ignores unknown keys and never copies them (a "__proto__" key stays data)', () => {
    const json = JSON.parse(
      '{"entities":[],"relations":[],"entries":[],"cursors":{"entities":0,"relations":0},"nextId":1,"__proto__":{"polluted":true},"extra":1}',
    ) as unknown;
    const decoded = decodeKnowledgeState(json);
    expect(decoded).toEqual({ _tag: 'Right', right: createKnowledge() });
    if (decoded._tag === 'Right') {
      expect(Object.keys(decoded.right)).toEqual([
        'entities',
        'relations',
        'entries',
        'cursors',
        'nextId',
      ]);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    }
  });
});
