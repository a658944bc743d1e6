/**
 * Our knowledge graph as the agent runs it, for the knowledge benchmark: after each run, the
 * messages past the extraction cursor (the new ones only, at most the last `relevanceWindow`),
 * read by the local extractor and merged by `knowledge/factsExtracted` with their positions; before
 * each model call, the `[Known Relationships]` block for the user's message, by `knowledgeBlocks`,
 * within a token budget or with the reference's limits.
 */
import type { KnowledgeState, MemoryState, Message, Relation } from '../../src/library';
import {
  addMessages,
  createKnowledge,
  createMemory,
  extractTriplesLocally,
  knowledgeBlocks,
  memoryTransition,
  renderExtractionConversation,
} from '../../src/library';
import type { Triple } from './factTruth';
import type { Injection } from './referenceKnowledge';

/**
 * How our graph is run: `budget` (tokens for the block, counted with `countTokens`; none: the
 * reference's 15 triples), the tokenizer, and the extraction window.
 *
 * @example
 * ```ts
 * const options: OurGraphOptions = { budget: 200, countTokens: (text) => text.length, relevanceWindow: 10 };
 * ```
 */
export interface OurGraphOptions {
  readonly budget: number | undefined;
  readonly countTokens: (text: string) => number;
  readonly relevanceWindow: number;
}

/**
 * Our knowledge graph over one conversation: the memory state holding the facts, the extraction
 * step and the block.
 *
 * @example
 * ```ts
 * const graph = new OurKnowledgeGraph({ budget: 200, countTokens: estimateTokens, relevanceWindow: 10 });
 * graph.afterRun(history, Date.now());
 * graph.buildContext('Where does Priya work?', Date.now()).text;
 * ```
 */
export class OurKnowledgeGraph {
  #memory: MemoryState = createMemory({ maxMessages: 50, tokenizer: 'heuristic' });

  constructor(readonly options: OurGraphOptions) {}

  /** The facts as the conversation holds them. */
  get knowledge(): KnowledgeState {
    return this.#memory.knowledge ?? createKnowledge();
  }

  /** The agent's step after a run: read the messages past the cursor, merge what they state. */
  afterRun(history: readonly Message[], at: number): void {
    // The conversation's memory holds the messages (an extraction reads messages it has had).
    const added = history.slice(this.#memory.nextPosition);
    if (added.length > 0) this.#memory = addMessages(this.#memory, added).state;
    const to = history.length - 1;
    const from = Math.max(
      this.knowledge.cursors.relations,
      history.length - this.options.relevanceWindow,
    );
    if (from > to) return;
    const triples = extractTriplesLocally(renderExtractionConversation(history.slice(from)));
    this.#memory = memoryTransition(this.#memory, {
      type: 'knowledge/factsExtracted',
      payload: { source: 'relations', at, from, to, triples },
    }).state;
  }

  /** The `[Known Relationships]` block for the user's message `query`. */
  buildContext(query: string, now: number): Injection {
    const knowledge = this.knowledge;
    const { text, blocks } = knowledgeBlocks(knowledge, {
      query,
      now,
      countTokens: this.options.countTokens,
      graph: this.options.budget === undefined ? {} : { budget: this.options.budget },
    });
    const byId = new Map(knowledge.relations.map((relation) => [relation.id, relation]));
    const facts = (blocks[0]?.factIds ?? []).map((id) => {
      const { subject, relation, object } = byId.get(id) as Relation;
      return { subject, relation, object };
    });
    return { text, facts };
  }

  /** The relations in force (what the graph may inject). */
  stored(): readonly Triple[] {
    return this.knowledge.relations
      .filter((relation) => relation.retiredAt === null)
      .map(({ subject, relation, object }) => ({ subject, relation, object }));
  }
}
