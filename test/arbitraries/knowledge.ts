import fc from 'fast-check';
import type {
  Entity,
  EntityAttribute,
  FactRecord,
  KnowledgeEntry,
  KnowledgeState,
  Relation,
} from 'conversation-memory/knowledge';

/** A fact without its id (ids are given once the whole state is drawn, so they stay unique). */
type Unnamed<T extends FactRecord> = Omit<T, 'id'>;

/** A number JSON keeps exactly (no `-0`). */
const noNegativeZero = (n: number): number => (n === 0 ? 0 : n);

/** A time in milliseconds, now and then fractional or before 1970. */
const timeArb = fc.oneof(
  fc.integer({ min: -2_000_000_000_000, max: 4_000_000_000_000 }),
  fc.double({ min: -1e15, max: 1e15, noNaN: true }).map(noNegativeZero),
);
const gapArb = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1e12 }));
const unitArb = fc.double({ min: 0, max: 1, noNaN: true });
const textArb = fc.string({ maxLength: 12, unit: 'binary' });
const positionArb = fc.integer({ min: 0, max: 2 ** 48 });

const sourcesArb = fc.array(
  fc
    .tuple(positionArb, positionArb)
    .map(([a, b]) => ({ from: Math.min(a, b), to: Math.max(a, b) })),
  { maxLength: 10 },
);

/** The fields every fact carries, with its time rules kept. */
const factArb: fc.Arbitrary<Unnamed<FactRecord>> = fc
  .record({
    sources: sourcesArb,
    confidence: unitArb,
    mentions: fc.integer({ min: 1, max: 1000 }),
    validFrom: timeArb,
    validFor: fc.option(gapArb, { nil: null }),
    recordedAt: timeArb,
    retired: fc.option(
      fc.record({
        after: gapArb,
        by: fc.constantFrom('superseded', 'evicted', 'forgotten', 'expired' as const),
        supersededBy: fc.option(fc.constantFrom('e1', 'r2', 'a9'), { nil: null }),
      }),
      { nil: null },
    ),
  })
  .map(({ validFor, retired, ...rest }) => ({
    sources: rest.sources,
    confidence: rest.confidence,
    mentions: rest.mentions,
    validFrom: rest.validFrom,
    validTo: validFor === null ? null : rest.validFrom + validFor,
    recordedAt: rest.recordedAt,
    retiredAt: retired === null ? null : rest.recordedAt + retired.after,
    retiredBy: retired === null ? null : retired.by,
    supersededBy: retired === null ? null : retired.supersededBy,
  }));

const attributeArb: fc.Arbitrary<Unnamed<EntityAttribute>> = fc
  .tuple(factArb, textArb, textArb)
  .map(([fact, key, value]) => ({ ...fact, key, value }));

const entityArb = fc
  .tuple(
    factArb,
    fc.record({
      name: textArb,
      aliases: fc.array(textArb, { maxLength: 3 }),
      type: fc.constantFrom('person', 'organization', 'location', 'other'),
      lastMentioned: timeArb,
    }),
    fc.array(attributeArb, { maxLength: 3 }),
  )
  .map(([fact, fields, attributes]) => ({ ...fact, ...fields, attributes }));

const relationArb = fc
  .tuple(
    factArb,
    fc.record({
      subject: textArb,
      relation: fc.constantFrom('works_at', 'knows', 'lives_in'),
      object: textArb,
      subjectId: fc.option(fc.constantFrom('e1', 'e2', 'e40'), { nil: null }),
      lastMentioned: fc.integer({ min: 0, max: 2_000_000_000_000 }),
      objectId: fc.option(fc.constantFrom('e1', 'e3'), { nil: null }),
    }),
  )
  .map(([fact, fields]) => ({ ...fact, ...fields }));

/** JSON metadata, passed through JSON once so that it is what JSON keeps (no `-0`). */
const metadataArb = fc
  .dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
  .map((value) => JSON.parse(JSON.stringify(value)) as KnowledgeEntry['metadata']);

const entryArb = fc
  .tuple(
    factArb,
    fc.record({
      content: textArb,
      category: fc.constantFrom('general', 'preference', 'fact'),
      importance: unitArb,
      persistent: fc.boolean(),
      ttlDays: fc.option(fc.integer({ min: 0, max: 3650 }), { nil: null }),
      metadata: metadataArb,
      updatedAt: timeArb,
    }),
    fc.boolean(),
    fc.stringMatching(/^[0-9a-f]{32}$/),
  )
  .map(([fact, fields, uuid, hex]) => ({ ...fact, ...fields, uuid: uuid ? hex : undefined }));

/**
 * Arbitrary valid {@link KnowledgeState}s: entities with attributes, relations and entries, facts
 * in force and retired ones, every rule of `decodeKnowledgeState` kept (unique ids, `e<n>`,
 * `a<n>`, `r<n>`, `k<n>` or a uuid, `nextId` above them all, the time rules), and every number
 * one that JSON keeps exactly.
 */
export const knowledgeStateArb: fc.Arbitrary<KnowledgeState> = fc
  .record({
    entities: fc.array(entityArb, { maxLength: 4 }),
    relations: fc.array(relationArb, { maxLength: 4 }),
    entries: fc.array(entryArb, { maxLength: 4 }),
    cursors: fc.record({ entities: positionArb, relations: positionArb }),
    spare: fc.integer({ min: 0, max: 5 }),
  })
  .map(({ entities, relations, entries, cursors, spare }) => {
    let next = 1;
    const usedHex = new Set<string>();
    const named = {
      entities: entities.map((entity): Entity => ({
        ...entity,
        id: `e${next++}`,
        attributes: entity.attributes.map((a): EntityAttribute => ({ ...a, id: `a${next++}` })),
      })),
      relations: relations.map((relation): Relation => ({ ...relation, id: `r${next++}` })),
      entries: entries.map(({ uuid, ...entry }): KnowledgeEntry => {
        const fresh = uuid !== undefined && !usedHex.has(uuid);
        if (fresh) usedHex.add(uuid);
        return { ...entry, id: fresh ? uuid : `k${next++}` };
      }),
    };
    return { ...named, cursors, nextId: next + spare };
  });

/** One entity, relation and entry with every field set: a base for hand-written cases. */
export const sampleKnowledge = (): KnowledgeState => {
  const fact = {
    sources: [{ from: 0, to: 1 }],
    confidence: 1,
    mentions: 1,
    validFrom: 1_764_500_000_000,
    validTo: null,
    recordedAt: 1_764_500_000_000,
    retiredAt: null,
    retiredBy: null,
    supersededBy: null,
  };
  return {
    entities: [
      {
        ...fact,
        id: 'e1',
        name: 'Alice',
        aliases: ['Al'],
        type: 'person',
        attributes: [{ ...fact, id: 'a2', key: 'role', value: 'engineer' }],
        lastMentioned: 1_764_500_000_000,
      },
    ],
    relations: [
      {
        ...fact,
        id: 'r3',
        subject: 'Alice',
        relation: 'works_at',
        object: 'Acme',
        subjectId: 'e1',
        lastMentioned: 1_764_500_000_000,
        objectId: null,
      },
    ],
    entries: [
      {
        ...fact,
        id: 'k4',
        content: 'Prefers dark mode',
        category: 'preference',
        importance: 0.8,
        persistent: true,
        ttlDays: null,
        metadata: { source: 'chat' },
        updatedAt: 1_764_500_000_000,
      },
    ],
    cursors: { entities: 2, relations: 2 },
    nextId: 5,
  };
};
