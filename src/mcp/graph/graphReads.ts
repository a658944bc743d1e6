import type { KnowledgeState } from '../../model/knowledge';
import { mcpEntityOf, mcpRelationOf, type McpEntity, type McpGraph } from './mcpGraph';

/** The relations in force with an end among `names`, in creation order. */
const relationsTouching = (state: KnowledgeState, names: ReadonlySet<string>) =>
  state.relations
    .filter((r) => r.retiredAt === null && (names.has(r.subject) || names.has(r.object)))
    .map(mcpRelationOf);

/** The graph of `entities` (in force) and the relations in force from or to any of them. */
const subgraph = (state: KnowledgeState, entities: readonly McpEntity[]): McpGraph => ({
  entities,
  relations: relationsTouching(state, new Set(entities.map((e) => e.name))),
});

/**
 * `search_nodes`, as the reference: the entities in force whose name, type or an observation in
 * force contains `query` (letter case ignored, `toLowerCase`), and the relations in force with an
 * end among them.
 *
 * @internal
 */
export const searchNodes = (state: KnowledgeState, query: string): McpGraph => {
  const wanted = query.toLowerCase();
  const found = state.entities
    .filter((e) => e.retiredAt === null)
    .map(mcpEntityOf)
    .filter(
      (e) =>
        e.name.toLowerCase().includes(wanted) ||
        e.entityType.toLowerCase().includes(wanted) ||
        e.observations.some((o) => o.toLowerCase().includes(wanted)),
    );
  return subgraph(state, found);
};

/**
 * `open_nodes`, as the reference: the entities in force with one of `names` (an unknown name is
 * skipped), and the relations in force with an end among them.
 *
 * @internal
 */
export const openNodes = (state: KnowledgeState, names: readonly string[]): McpGraph => {
  const wanted = new Set(names);
  return subgraph(
    state,
    state.entities.filter((e) => e.retiredAt === null && wanted.has(e.name)).map(mcpEntityOf),
  );
};
