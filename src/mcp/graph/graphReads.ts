import type { KnowledgeState } from '../../model/knowledge';
import {
  mcpEntityOf,
  mcpRelationOf,
  type McpEntity,
  type McpGraph,
  type McpRelation,
} from './mcpGraph';

/** What reads of one state share, made once per state (a store that returns the same frozen
 * state until the next save, as the in-memory one does, makes each once per revision). */
interface Derived {
  readonly graph: McpGraph;
  /** Each entity's name, type and observations, lower-cased, joined by NUL: one string to scan. */
  readonly haystacks: readonly string[];
}

const derived = /* @__PURE__ */ new WeakMap<KnowledgeState, Derived>();

const derive = (state: KnowledgeState): Derived => {
  let known = derived.get(state);
  if (known === undefined) {
    const entities = state.entities.filter((e) => e.retiredAt === null).map(mcpEntityOf);
    const relations = state.relations.filter((r) => r.retiredAt === null).map(mcpRelationOf);
    known = {
      graph: { entities, relations },
      haystacks: entities.map((e) =>
        [e.name, e.entityType, ...e.observations].join('\u0000').toLowerCase(),
      ),
    };
    derived.set(state, known);
  }
  return known;
};

/**
 * The graph in force of a knowledge state, in the reference's shape and order: entities and
 * relations in the order they were created (a retired one left out), each entity's observations
 * in the order they were added. Made once per state object.
 *
 * @example
 * ```ts
 * graphInForce(createKnowledge()); // { entities: [], relations: [] }
 * ```
 */
export const graphInForce = (state: KnowledgeState): McpGraph => derive(state).graph;

/** The relations in force with an end among `names`, in creation order. */
const relationsTouching = (
  relations: readonly McpRelation[],
  names: ReadonlySet<string>,
): McpRelation[] => relations.filter((r) => names.has(r.from) || names.has(r.to));

/** The graph of `entities` (in force) and the relations in force from or to any of them. */
const subgraph = (graph: McpGraph, entities: readonly McpEntity[]): McpGraph => ({
  entities,
  relations: relationsTouching(graph.relations, new Set(entities.map((e) => e.name))),
});

/** Whether one field of `entity` contains `wanted` (lower case), as the reference tests it. */
const fieldContains = (entity: McpEntity, wanted: string): boolean =>
  entity.name.toLowerCase().includes(wanted) ||
  entity.entityType.toLowerCase().includes(wanted) ||
  entity.observations.some((o) => o.toLowerCase().includes(wanted));

/**
 * `search_nodes`, as the reference: the entities in force whose name, type or an observation in
 * force contains `query` (letter case ignored, `toLowerCase`), and the relations in force with an
 * end among them. Each entity's fields are scanned as one lower-cased string (made once per
 * state); a hit is confirmed field by field, so a match across two fields never counts.
 *
 * @internal
 */
export const searchNodes = (state: KnowledgeState, query: string): McpGraph => {
  const wanted = query.toLowerCase();
  const { graph, haystacks } = derive(state);
  const found = graph.entities.filter(
    (entity, i) =>
      (haystacks[i] as string).includes(wanted) &&
      // A query without NUL cannot span two fields; one with it is checked field by field.
      (!wanted.includes('\u0000') || fieldContains(entity, wanted)),
  );
  return subgraph(graph, found);
};

/**
 * `open_nodes`, as the reference: the entities in force with one of `names` (an unknown name is
 * skipped), and the relations in force with an end among them.
 *
 * @internal
 */
export const openNodes = (state: KnowledgeState, names: readonly string[]): McpGraph => {
  const wanted = new Set(names);
  const { graph } = derive(state);
  return subgraph(
    graph,
    graph.entities.filter((e) => wanted.has(e.name)),
  );
};
