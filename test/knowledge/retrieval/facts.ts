import type {
  Entity,
  EntityAttribute,
  FactRecord,
  KnowledgeEntry,
  KnowledgeState,
  Relation,
} from '../../../src/model/knowledge';
import { createKnowledge } from '../../../src/knowledge/createKnowledge';

/** A fact in force, learned at time 0, with the given overrides. */
export const fact = (id: string, overrides: Partial<FactRecord> = {}): FactRecord => ({
  id,
  sources: [{ from: 0, to: 0 }],
  confidence: 1,
  mentions: 1,
  validFrom: 0,
  validTo: null,
  recordedAt: 0,
  retiredAt: null,
  retiredBy: null,
  supersededBy: null,
  ...overrides,
});

/** A retired fact's fields. */
export const retired: Partial<FactRecord> = { retiredAt: 5, retiredBy: 'superseded', validTo: 5 };

export const attribute = (
  id: string,
  key: string,
  value: string,
  overrides: Partial<EntityAttribute> = {},
): EntityAttribute => ({ ...fact(id), key, value, ...overrides });

export const entity = (
  id: string,
  name: string,
  type: string,
  overrides: Partial<Entity> = {},
): Entity => ({
  ...fact(id),
  name,
  aliases: [],
  type,
  attributes: [],
  lastMentioned: 0,
  ...overrides,
});

export const relation = (
  id: string,
  subject: string,
  rel: string,
  object: string,
  overrides: Partial<Relation> = {},
): Relation => ({
  ...fact(id),
  subject,
  relation: rel,
  object,
  subjectId: null,
  objectId: null,
  lastMentioned: 0,
  ...overrides,
});

export const entry = (
  id: string,
  content: string,
  overrides: Partial<KnowledgeEntry> = {},
): KnowledgeEntry => ({
  ...fact(id),
  content,
  category: 'general',
  importance: 0.5,
  persistent: false,
  ttlDays: null,
  metadata: {},
  updatedAt: 0,
  ...overrides,
});

export const stateOf = (parts: Partial<KnowledgeState>): KnowledgeState => ({
  ...createKnowledge(),
  ...parts,
});
