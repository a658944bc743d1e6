/**
 * A simulator of the reference's knowledge graph (selectools' `KnowledgeGraphMemory` with its
 * `InMemoryTripleStore`, as `/work/shared/reference/selectools-behaviour.md` section 7 describes
 * it), kept only as the knowledge benchmark's baseline; the reference is not a dependency. It
 * extracts with the same local extractor as ours, so the two differ only in what the memory does
 * with what was extracted:
 *
 * - after each run it re-reads the last `relevanceWindow` (10) messages that have content, and
 *   appends every triple extracted to a list: no check for a fact it already holds, no retirement
 *   of an old value;
 * - the list keeps the newest `maxTriples` (200), dropping the oldest (FIFO);
 * - `buildContext(query)`: with a query, the first `maxContextTriples` (15) triples, in store
 *   order, whose `"subject relation object"` contains, ignoring case, any of the query's
 *   whitespace-separated lower-case words of more than 2 characters (`query_relevant`; nothing
 *   matches: no block); without a query, the last 15. Lines are `- s --[r]--> o`, under
 *   `[Known Relationships]`.
 */
import type { Message } from '../../src/entries/index';
import { extractTriplesLocally, renderExtractionConversation } from '../../src/library';
import type { Triple } from './factTruth';

/**
 * What a memory injects before a model call: the block's text and the facts it shows, in order.
 *
 * @example
 * ```ts
 * const none: Injection = { text: '', facts: [] };
 * ```
 */
export interface Injection {
  readonly text: string;
  readonly facts: readonly Triple[];
}

/**
 * The reference knowledge graph's behaviour: re-extraction of a sliding window after every run,
 * an append-only FIFO store, keyword retrieval.
 *
 * @example
 * ```ts
 * const graph = new ReferenceKnowledgeGraph();
 * graph.afterRun([{ role: 'user', content: 'Priya works at Globex.' }]);
 * graph.afterRun([{ role: 'user', content: 'Priya works at Globex.' }, { role: 'assistant', content: 'Noted.' }]);
 * graph.stored().length; // 2: the same fact, twice
 * ```
 */
export class ReferenceKnowledgeGraph {
  #triples: Triple[] = [];

  constructor(
    readonly maxTriples = 200,
    readonly maxContextTriples = 15,
    readonly relevanceWindow = 10,
  ) {}

  /** The agent's step after a run: extract from the last messages, `store.add_many`. */
  afterRun(history: readonly Message[]): void {
    const text = renderExtractionConversation(history.slice(-this.relevanceWindow));
    if (text === '') return;
    for (const { subject, relation, object } of extractTriplesLocally(text)) {
      this.#triples.push({ subject, relation, object });
    }
    if (this.#triples.length > this.maxTriples) {
      this.#triples = this.#triples.slice(this.#triples.length - this.maxTriples);
    }
  }

  /** `build_context(query)`: the block injected before the model call. */
  buildContext(query: string): Injection {
    let facts: Triple[];
    if (query === '') {
      facts = this.#triples.slice(-this.maxContextTriples);
    } else {
      const keywords = query
        .toLowerCase()
        .split(/\s+/)
        .filter((word) => [...word].length > 2);
      facts = this.#triples
        .filter((t) => {
          const text = `${t.subject} ${t.relation} ${t.object}`.toLowerCase();
          return keywords.some((keyword) => text.includes(keyword));
        })
        .slice(0, this.maxContextTriples);
    }
    if (facts.length === 0) return { text: '', facts: [] };
    const lines = facts.map((t) => `- ${t.subject} --[${t.relation}]--> ${t.object}`);
    return { text: ['[Known Relationships]', ...lines].join('\n'), facts };
  }

  /** Every triple stored. */
  stored(): readonly Triple[] {
    return this.#triples;
  }
}
