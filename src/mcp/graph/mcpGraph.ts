import type { Entity, EntityAttribute, Relation } from '../../model/knowledge';

/**
 * An entity as the MCP reference memory server shows it: a name, a type and its observations,
 * in the order they were added.
 *
 * @example
 * ```ts
 * const ada: McpEntity = { name: 'Ada', entityType: 'person', observations: ['writes code'] };
 * ```
 */
export interface McpEntity {
  readonly name: string;
  readonly entityType: string;
  readonly observations: readonly string[];
}

/**
 * A directed relation between two entity names, as the reference shows it.
 *
 * @example
 * ```ts
 * const knows: McpRelation = { from: 'Ada', to: 'Bob', relationType: 'knows' };
 * ```
 */
export interface McpRelation {
  readonly from: string;
  readonly to: string;
  readonly relationType: string;
}

/**
 * A knowledge graph in the reference's shape: the entities and relations in force.
 *
 * @example
 * ```ts
 * const empty: McpGraph = { entities: [], relations: [] };
 * ```
 */
export interface McpGraph {
  readonly entities: readonly McpEntity[];
  readonly relations: readonly McpRelation[];
}

/**
 * The id of the knowledge record the MCP server keeps its graph in, in its namespace.
 *
 * @example
 * ```ts
 * await store.load(MCP_GRAPH_ID, { namespace: 'project-a' });
 * ```
 */
export const MCP_GRAPH_ID = 'mcp-knowledge-graph';

/**
 * The attribute key an observation is kept under: an entity's observations are its attributes
 * with this key, in force or retired.
 *
 * @example
 * ```ts
 * OBSERVATION_KEY; // 'observation'
 * ```
 */
export const OBSERVATION_KEY = 'observation';

/** Whether an attribute is an observation in force. */
export const isObservation = (attribute: EntityAttribute): boolean =>
  attribute.key === OBSERVATION_KEY && attribute.retiredAt === null;

/** An entity in force, in the reference's shape (its observations in force, oldest first). */
export const mcpEntityOf = (entity: Entity): McpEntity => ({
  name: entity.name,
  entityType: entity.type,
  observations: entity.attributes.filter(isObservation).map((attribute) => attribute.value),
});

/** A relation, in the reference's shape. */
export const mcpRelationOf = (relation: Relation): McpRelation => ({
  from: relation.subject,
  to: relation.object,
  relationType: relation.relation,
});
