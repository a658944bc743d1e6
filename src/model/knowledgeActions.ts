import type { JsonObject } from './message';
import type { ExtractedEntity, ExtractedTriple, KnowledgeLimits } from './knowledge';

/**
 * Which extractor produced facts: the entity extractor (entity memory) or the triple extractor
 * (the knowledge graph). Each has its own cursor.
 *
 * @example
 * ```ts
 * const source: ExtractionSource = 'relations';
 * ```
 */
export type ExtractionSource = 'entities' | 'relations';

/**
 * What `knowledge/factsExtracted` carries: who extracted, when (`at`, milliseconds since the
 * epoch), the message positions read (`from` to `to`, both included; the cursor moves past `to`),
 * the entities or triples found (reference defaults applied), and the limits and single-valued
 * relations to merge them under (defaults when absent), so that a replay merges exactly alike.
 *
 * @example
 * ```ts
 * const payload: FactsExtractedPayload = {
 *   source: 'entities', at: 0, from: 0, to: 1,
 *   entities: [{ name: 'Alice', type: 'person', attributes: {} }],
 * };
 * ```
 */
export interface FactsExtractedPayload {
  readonly source: ExtractionSource;
  readonly at: number;
  readonly from: number;
  readonly to: number;
  readonly entities?: readonly ExtractedEntity[];
  readonly triples?: readonly ExtractedTriple[];
  readonly limits?: Partial<KnowledgeLimits>;
  readonly singleValuedRelations?: readonly string[];
}

/**
 * What `knowledge/remembered` carries: the reference's `remember` arguments (content, category,
 * importance, persistent, TTL in days, metadata), the entry's id (the runtime makes one; the
 * reference's are uuid4 hex strings), when (`at`), and the entry limit to evict under.
 *
 * @example
 * ```ts
 * const payload: RememberedPayload = {
 *   id: 'k1', content: 'Prefers dark mode', category: 'preference', importance: 0.8,
 *   persistent: true, ttlDays: null, metadata: {}, at: 0,
 * };
 * ```
 */
export interface RememberedPayload {
  readonly id: string;
  readonly content: string;
  readonly category: string;
  readonly importance: number;
  readonly persistent: boolean;
  readonly ttlDays: number | null;
  readonly metadata: JsonObject;
  readonly at: number;
  readonly maxEntries?: number;
}

/**
 * What `knowledge/forgotten` carries: the entry's `id` (as `recall` shows it) or its exact
 * `content`, and when (`at`).
 *
 * @example
 * ```ts
 * const byId: ForgottenPayload = { id: 'k1', at: 0 };
 * const byText: ForgottenPayload = { content: 'Prefers dark mode', at: 0 };
 * ```
 */
export type ForgottenPayload =
  { readonly id: string; readonly at: number } | { readonly content: string; readonly at: number };

/**
 * The knowledge reducers as data, replayable by an event log like the memory's own actions.
 *
 * | action                       | reducer          | payload                    |
 * | ---------------------------- | ---------------- | -------------------------- |
 * | `knowledge/factsExtracted`   | `factsExtracted` | {@link FactsExtractedPayload} |
 * | `knowledge/remembered`       | `remembered`     | {@link RememberedPayload}  |
 * | `knowledge/forgotten`        | `forgotten`      | {@link ForgottenPayload}   |
 * | `knowledge/cleared`          | `clearKnowledge` | none                       |
 *
 * @example
 * ```ts
 * const action: KnowledgeAction = { type: 'knowledge/forgotten', payload: { id: 'k1', at: 0 } };
 * ```
 */
export type KnowledgeAction =
  | { readonly type: 'knowledge/factsExtracted'; readonly payload: FactsExtractedPayload }
  | { readonly type: 'knowledge/remembered'; readonly payload: RememberedPayload }
  | { readonly type: 'knowledge/forgotten'; readonly payload: ForgottenPayload }
  | { readonly type: 'knowledge/cleared' };
