import type {
  Entity,
  EntityAttribute,
  KnowledgeEntry,
  KnowledgeState,
  Relation,
} from '../../model/knowledge';
import type { FactKind } from '../../model/knowledgeEffects';
import type { FactRef } from './knowledgeTypes';

/**
 * One fact in a line, as the inspector lists it: an entity `Alice [person]`, an attribute
 * `Alice role: engineer` (with its entity's name), a relation `Alice --[works_at]--> Acme` (the
 * reference's arrow), an entry `[preference] Likes tea` (no tag for `general`). The text is the
 * file's own, not escaped.
 *
 * @param kind - the fact's kind
 * @param fact - the fact
 * @param entityName - for an attribute, the name of its entity
 * @returns the line
 * @example
 * ```ts
 * factText('relation', relation); // 'Alice --[works_at]--> Acme'
 * ```
 */
export const factText = (
  kind: FactKind,
  fact: Entity | EntityAttribute | Relation | KnowledgeEntry,
  entityName = '?',
): string => {
  switch (kind) {
    case 'entity': {
      const { name, type } = fact as Entity;
      return `${name} [${type}]`;
    }
    case 'attribute': {
      const { key, value } = fact as EntityAttribute;
      return `${entityName} ${key}: ${value}`;
    }
    case 'relation': {
      const { subject, relation, object } = fact as Relation;
      return `${subject} --[${relation}]--> ${object}`;
    }
    case 'entry': {
      const { category, content } = fact as KnowledgeEntry;
      return category === 'general' ? content : `[${category}] ${content}`;
    }
  }
};

/**
 * Every fact of a knowledge state, retired ones included, by kind and id (`'relation:r4'`), each
 * as a {@link FactRef}.
 *
 * @param knowledge - the knowledge, if any
 * @returns the facts by `${kind}:${id}`
 * @example
 * ```ts
 * factRefs(state.knowledge).get('relation:r4')?.text; // 'Alice --[works_at]--> Acme'
 * ```
 */
export const factRefs = (knowledge: KnowledgeState | undefined): Map<string, FactRef> => {
  const refs = new Map<string, FactRef>();
  if (knowledge === undefined) return refs;
  const put = (
    kind: FactKind,
    fact: Entity | EntityAttribute | Relation | KnowledgeEntry,
    name?: string,
  ) => refs.set(`${kind}:${fact.id}`, { kind, id: fact.id, text: factText(kind, fact, name) });
  for (const entity of knowledge.entities) {
    put('entity', entity);
    for (const attribute of entity.attributes) put('attribute', attribute, entity.name);
  }
  for (const relation of knowledge.relations) put('relation', relation);
  for (const entry of knowledge.entries) put('entry', entry);
  return refs;
};
