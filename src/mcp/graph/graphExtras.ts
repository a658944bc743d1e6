import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bm25Idf, bm25Part, sanitizeKnowledgeText, searchWords } from '../../library';
import { graphInForce } from './graphReads';
import type { KnowledgeState } from '../../model/knowledge';
import { pageOf, type PageRequest } from './graphPages';
import { OBSERVATION_KEY, type McpEntity, type McpGraph, type McpRelation } from './mcpGraph';

type Item = { readonly entity: McpEntity } | { readonly relation: McpRelation };

/**
 * A page of `graph` (its entities, then its relations, in order) for a read with `limit`,
 * `cursor` or `maxTokens`: `{ entities, relations, nextCursor? }`, the text as the reference
 * formats a graph.
 *
 * @internal
 */
export const graphPage = (
  graph: McpGraph,
  request: PageRequest,
  count: (text: string) => number,
): CallToolResult => {
  const items: Item[] = [
    ...graph.entities.map((entity) => ({ entity })),
    ...graph.relations.map((relation) => ({ relation })),
  ];
  const shape = (page: readonly Item[], nextCursor: string | undefined) => ({
    entities: page.flatMap((item) => ('entity' in item ? [item.entity] : [])),
    relations: page.flatMap((item) => ('relation' in item ? [item.relation] : [])),
    ...(nextCursor === undefined ? {} : { nextCursor }),
  });
  const { page, nextCursor, text } = pageOf(
    items,
    request,
    (p, next) => JSON.stringify(shape(p, next), null, 2),
    count,
    (item) =>
      'entity' in item
        ? `entity ${JSON.stringify(item.entity.name)}`
        : `relation ${JSON.stringify(item.relation.from)} → ${JSON.stringify(item.relation.to)}`,
  );
  return { content: [{ type: 'text', text }], structuredContent: shape(page, nextCursor) };
};

/** One answer of `recall`. */
export interface RecalledObservation {
  readonly entityName: string;
  readonly entityType: string;
  readonly observation: string;
  readonly score: number;
}

/**
 * `recall`: the observations in force that best match `query` by Okapi BM25 (the knowledge
 * retrieval's parameters, idf, stemming and stop words; the collection is the observations in
 * force), each read with its entity's name, best first (ties: the graph's order), at most
 * `limit`, none that shares no word with the query. The index is made once per state object;
 * a query reads only its words' postings. Texts are sanitized as the knowledge blocks' are:
 * they go to a model.
 *
 * @internal
 */
export const recallObservations = (
  state: KnowledgeState,
  query: string,
  limit: number,
): RecalledObservation[] => {
  const index = recallIndexOf(state);
  const scores = new Map<number, number>();
  const size = index.found.length;
  for (const term of new Set(searchWords(query))) {
    const postings = index.postings.get(term);
    if (postings === undefined) continue;
    const idf = bm25Idf(size, postings.length / 2);
    for (let p = 0; p < postings.length; p += 2) {
      const doc = postings[p] as number;
      const frequency = postings[p + 1] as number;
      const part = bm25Part(idf, frequency, index.lengths[doc] as number, index.averageLength);
      scores.set(doc, (scores.get(doc) ?? 0) + part);
    }
  }
  return [...scores]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([doc, score]) => {
      const { entity, observation } = index.found[doc] as RecallDocument;
      return {
        entityName: sanitizeKnowledgeText(entity.name),
        entityType: sanitizeKnowledgeText(entity.entityType),
        observation: sanitizeKnowledgeText(observation),
        score: Math.round(score * 1e6) / 1e6,
      };
    });
};

/** One observation in force, with its entity: a document of the recall index. */
interface RecallDocument {
  readonly entity: McpEntity;
  readonly observation: string;
}

/** The observations of a state, indexed for BM25: made once per state object. */
interface RecallIndexOfState {
  readonly found: readonly RecallDocument[];
  /** Per word: document, frequency, document, frequency, … */
  readonly postings: ReadonlyMap<string, readonly number[]>;
  readonly lengths: readonly number[];
  readonly averageLength: number;
}

const recallIndexes = /* @__PURE__ */ new WeakMap<KnowledgeState, RecallIndexOfState>();

/** Each observation is read with its entity's name (a question naming the entity finds it). */
const recallIndexOf = (state: KnowledgeState): RecallIndexOfState => {
  const known = recallIndexes.get(state);
  if (known !== undefined) return known;
  const found: RecallDocument[] = [];
  for (const entity of graphInForce(state).entities) {
    for (const observation of entity.observations) found.push({ entity, observation });
  }
  const postings = new Map<string, number[]>();
  const lengths = found.map(({ entity, observation }, doc) => {
    const words = searchWords(`${entity.name} ${observation}`);
    const frequencies = new Map<string, number>();
    for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
    for (const [word, frequency] of frequencies) {
      let list = postings.get(word);
      if (list === undefined) postings.set(word, (list = []));
      list.push(doc, frequency);
    }
    return words.length;
  });
  const averageLength = lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, lengths.length);
  const index = { found, postings, lengths, averageLength };
  recallIndexes.set(state, index);
  return index;
};

/**
 * `read_history`: every entity (with every observation) and relation ever recorded, in force or
 * retired, each with `recordedAt` and `retiredAt`.
 *
 * @internal
 */
export const graphHistory = (state: KnowledgeState) => ({
  entities: state.entities.map((e) => ({
    name: e.name,
    entityType: e.type,
    observations: e.attributes
      .filter((a) => a.key === OBSERVATION_KEY)
      .map((a) => ({ text: a.value, recordedAt: a.recordedAt, retiredAt: a.retiredAt })),
    recordedAt: e.recordedAt,
    retiredAt: e.retiredAt,
  })),
  relations: state.relations.map((r) => ({
    from: r.subject,
    to: r.object,
    relationType: r.relation,
    recordedAt: r.recordedAt,
    retiredAt: r.retiredAt,
  })),
});
