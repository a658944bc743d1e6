import { MAX_ENTITY_PARTS, MAX_KNOWLEDGE_FACTS, newFact, retiredFact } from '../../library';
import type { Entity, EntityAttribute, KnowledgeState, Relation } from '../../model/knowledge';
import { McpToolError } from '../mcpErrors';
import {
  isObservation,
  mcpEntityOf,
  OBSERVATION_KEY,
  type McpEntity,
  type McpRelation,
} from './mcpGraph';

/**
 * What a change to the graph gives: the next state (the same object when nothing changed) and
 * the tool's result.
 *
 * @internal
 */
export interface GraphChange<R> {
  readonly state: KnowledgeState;
  readonly result: R;
}

/** Hands out fact ids (`e<n>`, `a<n>`, `r<n>`) from a state's `nextId`. */
class Ids {
  constructor(public next: number) {}
  take(letter: 'e' | 'a' | 'r'): string {
    return `${letter}${this.next++}`;
  }
}

const observation = (ids: Ids, value: string, at: number): EntityAttribute => ({
  ...newFact(ids.take('a'), at, at, null, 1),
  key: OBSERVATION_KEY,
  value,
});

const sameRelation = (relation: Relation, wanted: McpRelation): boolean =>
  relation.subject === wanted.from &&
  relation.object === wanted.to &&
  relation.relation === wanted.relationType;

/** The id of the first entity in force named `name`, or `null`. */
const entityIdOf = (entities: readonly Entity[], name: string): string | null =>
  entities.find((e) => e.retiredAt === null && e.name === name)?.id ?? null;

/**
 * `create_entities`: each entity whose name no entity in force has is added (with its
 * observations as given); the result lists those added. As the reference: two of the same name in
 * one call are both added.
 *
 * @internal
 */
export const createEntities = (
  state: KnowledgeState,
  entities: readonly McpEntity[],
  at: number,
): GraphChange<McpEntity[]> => {
  const taken = new Set(state.entities.filter((e) => e.retiredAt === null).map((e) => e.name));
  const added = entities.filter((entity) => !taken.has(entity.name));
  if (added.length === 0) return { state, result: [] };
  const ids = new Ids(state.nextId);
  const made = added.map((entity): Entity => ({
    ...newFact(ids.take('e'), at, at, null, 1),
    name: entity.name,
    aliases: [],
    type: entity.entityType,
    attributes: entity.observations.map((value) => observation(ids, value, at)),
    lastMentioned: at,
  }));
  return {
    state: { ...state, entities: [...state.entities, ...made], nextId: ids.next },
    result: added.map((e) => ({ ...e, observations: [...e.observations] })),
  };
};

/**
 * `create_relations`: each relation not already in force is added (an end need not be an
 * entity, as in the reference); the result lists those added.
 *
 * @internal
 */
export const createRelations = (
  state: KnowledgeState,
  relations: readonly McpRelation[],
  at: number,
): GraphChange<McpRelation[]> => {
  const inForce = state.relations.filter((r) => r.retiredAt === null);
  const added = relations.filter((wanted) => !inForce.some((r) => sameRelation(r, wanted)));
  if (added.length === 0) return { state, result: [] };
  const ids = new Ids(state.nextId);
  const made = added.map((wanted): Relation => ({
    ...newFact(ids.take('r'), at, at, null, 1),
    subject: wanted.from,
    relation: wanted.relationType,
    object: wanted.to,
    subjectId: entityIdOf(state.entities, wanted.from),
    objectId: entityIdOf(state.entities, wanted.to),
    lastMentioned: at,
  }));
  return {
    state: { ...state, relations: [...state.relations, ...made], nextId: ids.next },
    result: added.map((r) => ({ from: r.from, to: r.to, relationType: r.relationType })),
  };
};

/** One item of `add_observations`' result. */
export interface AddedObservations {
  readonly entityName: string;
  readonly addedObservations: readonly string[];
}

/**
 * `add_observations`: to the first entity in force of each name, the contents it does not hold
 * yet. An unknown name fails the whole call (nothing changes) with the reference's message
 * `Entity with name NAME not found`.
 *
 * @throws McpToolError for an unknown entity
 * @internal
 */
export const addObservations = (
  state: KnowledgeState,
  observations: readonly { readonly entityName: string; readonly contents: readonly string[] }[],
  at: number,
): GraphChange<AddedObservations[]> => {
  const entities = state.entities.slice();
  const ids = new Ids(state.nextId);
  const result = observations.map(({ entityName, contents }) => {
    const i = entities.findIndex((e) => e.retiredAt === null && e.name === entityName);
    if (i < 0) throw new McpToolError(`Entity with name ${entityName} not found`);
    const entity = entities[i] as Entity;
    const held = mcpEntityOf(entity).observations;
    const fresh = contents.filter((content) => !held.includes(content));
    if (fresh.length > 0) {
      entities[i] = {
        ...entity,
        attributes: [...entity.attributes, ...fresh.map((value) => observation(ids, value, at))],
        lastMentioned: at,
      };
    }
    return { entityName, addedObservations: fresh };
  });
  if (ids.next === state.nextId) return { state, result };
  return { state: { ...state, entities, nextId: ids.next }, result };
};

/**
 * `delete_entities`: every entity in force with one of the names, and every relation in force
 * from or to one of them, is retired (`forgotten`): it stays in the history with `retiredAt`.
 *
 * @internal
 */
export const deleteEntities = (
  state: KnowledgeState,
  names: readonly string[],
  at: number,
): GraphChange<undefined> => {
  const gone = new Set(names);
  let changed = false;
  const entities = state.entities.map((e) => {
    if (e.retiredAt !== null || !gone.has(e.name)) return e;
    changed = true;
    return retiredFact(e, at, 'forgotten', null, at);
  });
  const relations = state.relations.map((r) => {
    if (r.retiredAt !== null || !(gone.has(r.subject) || gone.has(r.object))) return r;
    changed = true;
    return retiredFact(r, at, 'forgotten', null, at);
  });
  return { state: changed ? { ...state, entities, relations } : state, result: undefined };
};

/**
 * `delete_observations`: from the first entity in force of each name, the observations listed
 * are retired (`forgotten`); an unknown name is skipped, as in the reference.
 *
 * @internal
 */
export const deleteObservations = (
  state: KnowledgeState,
  deletions: readonly { readonly entityName: string; readonly observations: readonly string[] }[],
  at: number,
): GraphChange<undefined> => {
  const entities = state.entities.slice();
  let changed = false;
  for (const { entityName, observations } of deletions) {
    const i = entities.findIndex((e) => e.retiredAt === null && e.name === entityName);
    if (i < 0) continue;
    const entity = entities[i] as Entity;
    const gone = new Set(observations);
    let touched = false;
    const attributes = entity.attributes.map((attribute) => {
      if (!isObservation(attribute) || !gone.has(attribute.value)) return attribute;
      touched = true;
      return retiredFact(attribute, at, 'forgotten', null, at);
    });
    if (touched) {
      entities[i] = { ...entity, attributes };
      changed = true;
    }
  }
  return { state: changed ? { ...state, entities } : state, result: undefined };
};

/**
 * `delete_relations`: every relation in force equal to one listed is retired (`forgotten`).
 *
 * @internal
 */
export const deleteRelations = (
  state: KnowledgeState,
  relations: readonly McpRelation[],
  at: number,
): GraphChange<undefined> => {
  let changed = false;
  const next = state.relations.map((r) => {
    if (r.retiredAt !== null || !relations.some((wanted) => sameRelation(r, wanted))) return r;
    changed = true;
    return retiredFact(r, at, 'forgotten', null, at);
  });
  return { state: changed ? { ...state, relations: next } : state, result: undefined };
};

/**
 * `state` within the bounds a stored knowledge state keeps (`MAX_KNOWLEDGE_FACTS` entities and
 * relations, `MAX_ENTITY_PARTS` attributes per entity, retired ones counted): the oldest retired
 * facts leave the history first; what is in force never does. A state whose facts in force alone
 * are over a bound is a tool error naming it.
 *
 * @throws McpToolError when the facts in force exceed a bound
 * @internal
 */
export const withinBounds = (state: KnowledgeState): KnowledgeState => {
  const trim = <F extends { readonly retiredAt: number | null }>(
    facts: readonly F[],
    max: number,
    what: () => string,
  ): readonly F[] => {
    if (facts.length <= max) return facts;
    let over = facts.length - max;
    const kept = facts.filter((fact) => fact.retiredAt === null || over-- <= 0);
    if (kept.length > max) throw new McpToolError(what());
    return kept;
  };
  let changed = false;
  const entities = trim(
    state.entities,
    MAX_KNOWLEDGE_FACTS,
    () => `the graph would hold more than ${MAX_KNOWLEDGE_FACTS} entities`,
  ).map((entity) => {
    const attributes = trim(
      entity.attributes,
      MAX_ENTITY_PARTS,
      () => `Entity with name ${entity.name} would hold more than ${MAX_ENTITY_PARTS} observations`,
    );
    if (attributes === entity.attributes) return entity;
    changed = true;
    return { ...entity, attributes };
  });
  const relations = trim(
    state.relations,
    MAX_KNOWLEDGE_FACTS,
    () => `the graph would hold more than ${MAX_KNOWLEDGE_FACTS} relations`,
  );
  if (!changed && entities.length === state.entities.length && relations === state.relations) {
    return state;
  }
  return { ...state, entities, relations };
};
