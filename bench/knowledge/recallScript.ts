/**
 * The knowledge benchmark's driver: runs scripted conversations through knowledge graphs (ours and
 * the reference simulator), turn by turn as an agent does (the block for the user's message before
 * the model call, extraction after the run), and scores what each injected and stored against the
 * ground truth.
 */
import type { Message } from '../../src/library';
import { FactTruth, factKey, type Triple } from './factTruth';
import { OurKnowledgeGraph } from './ourKnowledge';
import { type Injection, ReferenceKnowledgeGraph } from './referenceKnowledge';
import { scriptConversation, type ScriptedConversation } from './scriptedConversations';

/**
 * What the benchmark needs of a knowledge graph.
 *
 * @example
 * ```ts
 * const graph: KnowledgeUnderTest = new ReferenceKnowledgeGraph();
 * ```
 */
export interface KnowledgeUnderTest {
  afterRun(history: readonly Message[], at: number): void;
  buildContext(query: string, now: number): Injection;
  stored(): readonly Triple[];
}

/**
 * The scores of one system over a set of conversations (sums over conversations):
 *
 * - `currentFacts`, `recalled`: the facts in force at each end, and how many of them the queries
 *   `What do you remember about <person>` (one per person) retrieved;
 * - `staleInjected`, `turnsWithStale`, `duplicatesInjected`, `unknownInjected`: over the block of
 *   every user turn, facts superseded by then, turns with at least one, facts shown twice, facts
 *   never stated; `staleAtEnd`: superseded facts in the end queries' blocks;
 * - `storedFacts`, `duplicatesStored`: what each graph holds at the end (ours: in force), and how
 *   many of those are copies of another;
 * - `tokensPerTurn`: the tokens of every turn's block (0 when none).
 *
 * @example
 * ```ts
 * const [ours] = measureKnowledgeRecall({ conversations: 1, countTokens: (t) => t.length });
 * ours.recalled / ours.currentFacts; // 1
 * ```
 */
export interface RecallReport {
  readonly system: string;
  readonly conversations: number;
  readonly turns: number;
  readonly currentFacts: number;
  readonly recalled: number;
  readonly staleInjected: number;
  readonly turnsWithStale: number;
  readonly duplicatesInjected: number;
  readonly unknownInjected: number;
  readonly staleAtEnd: number;
  readonly storedFacts: number;
  readonly duplicatesStored: number;
  readonly tokensPerTurn: readonly number[];
}

/** The first conversation's clock (2026-01-01 UTC); a turn takes a minute. */
const START = Date.UTC(2026, 0, 1);
const TURN_MS = 60_000;

/**
 * The seed of the first scripted conversation; conversation `i` uses `FIRST_SEED + i`.
 *
 * @example
 * ```ts
 * scriptConversation(FIRST_SEED); // the first conversation of every run
 * ```
 */
export const FIRST_SEED = 20_260_000;

/**
 * The query that asks a graph for everything about one person at the end.
 *
 * @example
 * ```ts
 * recallQuery('Priya'); // 'What do you remember about Priya'
 * ```
 */
export const recallQuery = (person: string): string => `What do you remember about ${person}`;

interface Tally {
  currentFacts: number;
  recalled: number;
  staleInjected: number;
  turnsWithStale: number;
  duplicatesInjected: number;
  unknownInjected: number;
  staleAtEnd: number;
  storedFacts: number;
  duplicatesStored: number;
  tokensPerTurn: number[];
}

const newTally = (): Tally => ({
  currentFacts: 0,
  recalled: 0,
  staleInjected: 0,
  turnsWithStale: 0,
  duplicatesInjected: 0,
  unknownInjected: 0,
  staleAtEnd: 0,
  storedFacts: 0,
  duplicatesStored: 0,
  tokensPerTurn: [],
});

/** Runs one conversation through one graph, adding its scores to `tally`. */
const runConversation = (
  conversation: ScriptedConversation,
  index: number,
  graph: KnowledgeUnderTest,
  countTokens: (text: string) => number,
  tally: Tally,
): void => {
  const truth = new FactTruth();
  const history: Message[] = [];
  conversation.turns.forEach((turn, i) => {
    const now = START + index * 100 * TURN_MS + i * TURN_MS;
    const injected = graph.buildContext(turn.user, now);
    const check = truth.check(injected.facts);
    tally.staleInjected += check.stale;
    tally.turnsWithStale += check.stale > 0 ? 1 : 0;
    tally.duplicatesInjected += check.duplicates;
    tally.unknownInjected += check.unknown;
    tally.tokensPerTurn.push(injected.text === '' ? 0 : countTokens(injected.text));
    history.push(
      { role: 'user', content: turn.user },
      { role: 'assistant', content: turn.assistant },
    );
    for (const fact of turn.states) truth.state(fact);
    graph.afterRun(history, now + TURN_MS / 2);
  });
  const final = truth.current().map(factKey);
  if (final.join('\n') !== conversation.finalFacts.map(factKey).join('\n'))
    throw new Error(
      `conversation ${conversation.seed}: the replayed truth differs from the script's`,
    );
  const end = START + (index + 1) * 100 * TURN_MS;
  for (const person of conversation.people) {
    const injected = graph.buildContext(recallQuery(person), end);
    const shown = new Set(injected.facts.map(factKey));
    const wanted = truth.currentAbout(person);
    tally.currentFacts += wanted.length;
    tally.recalled += wanted.filter((fact) => shown.has(factKey(fact))).length;
    tally.staleAtEnd += truth.check(injected.facts).stale;
  }
  const stored = graph.stored();
  tally.storedFacts += stored.length;
  tally.duplicatesStored += truth.check(stored).duplicates;
};

/**
 * Runs `conversations` scripted conversations (seeds from `firstSeed`, by default
 * {@link FIRST_SEED}) through three
 * graphs, each conversation with fresh ones: ours with each of `budgets` (default 200 tokens),
 * ours without one (the reference's 15 triples), and the reference simulator. Blocks are counted with
 * `countTokens` (the benchmark passes o200k_base).
 *
 * @param options - how many conversations, the tokenizer, the budgets, the first seed
 * @returns one report per graph: ours with each budget, ours without, the reference
 * @example
 * ```ts
 * const reports = measureKnowledgeRecall({ conversations: 20, countTokens: (t) => estimateTokens(t, 'gpt-4o') });
 * ```
 */
export const measureKnowledgeRecall = (options: {
  readonly conversations: number;
  readonly countTokens: (text: string) => number;
  readonly budgets?: readonly number[];
  readonly firstSeed?: number;
}): RecallReport[] => {
  const { conversations, countTokens } = options;
  const firstSeed = options.firstSeed ?? FIRST_SEED;
  const systems: { name: string; make: () => KnowledgeUnderTest }[] = [
    ...(options.budgets ?? [200]).map((budget) => ({
      name: `ours, budget ${budget} tokens`,
      make: () => new OurKnowledgeGraph({ budget, countTokens, relevanceWindow: 10 }),
    })),
    {
      name: 'ours, no budget (15 triples)',
      make: () => new OurKnowledgeGraph({ budget: undefined, countTokens, relevanceWindow: 10 }),
    },
    { name: 'reference (simulated)', make: () => new ReferenceKnowledgeGraph() },
  ];
  const tallies = systems.map(newTally);
  for (let i = 0; i < conversations; i++) {
    const conversation = scriptConversation(firstSeed + i);
    systems.forEach((system, s) =>
      runConversation(conversation, i, system.make(), countTokens, tallies[s] as Tally),
    );
  }
  return systems.map((system, s) => ({
    system: system.name,
    conversations,
    turns: (tallies[s] as Tally).tokensPerTurn.length,
    ...(tallies[s] as Tally),
  }));
};
