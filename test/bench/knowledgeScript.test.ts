// The knowledge benchmark's goals, on a fast subset of its script (bench/knowledge/): our graph
// recalls every fact in force at the end, never injects a superseded or repeated fact, never
// stores one twice, and keeps its budget; the reference simulator shows the duplicates and stale
// facts the benchmark exists to show, so neither side can degrade silently.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/library';
import { FactTruth } from '../../bench/knowledge/factTruth';
import { ReferenceKnowledgeGraph } from '../../bench/knowledge/referenceKnowledge';
import { measureKnowledgeRecall, type RecallReport } from '../../bench/knowledge/recallScript';
import { scriptConversation } from '../../bench/knowledge/scriptedConversations';

const countTokens = (text: string): number => estimateTokens(text, 'gpt-4o'); // o200k_base

/** What our graph must score on any set of scripted conversations. */
const expectGoalsMet = (report: RecallReport, budget: number | undefined): void => {
  expect(report.currentFacts).toBeGreaterThan(0);
  expect(report.recalled).toBe(report.currentFacts);
  expect(report.staleInjected).toBe(0);
  expect(report.staleAtEnd).toBe(0);
  expect(report.duplicatesInjected).toBe(0);
  expect(report.unknownInjected).toBe(0);
  expect(report.duplicatesStored).toBe(0);
  if (budget !== undefined) expect(Math.max(...report.tokensPerTurn)).toBeLessThanOrEqual(budget);
};

describe('knowledge benchmark script (20 conversations)', () => {
  const [budgeted, unbudgeted, reference] = measureKnowledgeRecall({
    conversations: 20,
    countTokens,
    budgets: [200],
  }) as [RecallReport, RecallReport, RecallReport];

  it('ours recalls every current fact and injects no stale or duplicate fact, with a budget', () => {
    expect(budgeted.turns).toBe(20 * 50);
    expectGoalsMet(budgeted, 200);
    // Blocks were injected at all (a graph that injects nothing would pass the stale checks).
    expect(budgeted.tokensPerTurn.filter((tokens) => tokens > 0).length).toBeGreaterThan(200);
  });

  it('ours meets the same goals without a budget (the reference limits)', () => {
    expectGoalsMet(unbudgeted, undefined);
  });

  it('the reference simulator stores duplicates and injects stale facts on the same script', () => {
    expect(reference.turns).toBe(budgeted.turns);
    expect(reference.currentFacts).toBe(budgeted.currentFacts);
    // A fact stated once is re-read by the next turns' windows: several copies of each.
    expect(reference.duplicatesStored).toBeGreaterThan(reference.storedFacts / 2);
    expect(reference.duplicatesInjected).toBeGreaterThan(0);
    expect(reference.staleInjected).toBeGreaterThan(0);
    expect(reference.recalled).toBeLessThan(reference.currentFacts);
  });
});

describe('knowledge benchmark script, any seed', () => {
  it('ours meets the goals on every scripted conversation, with a tight budget too', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(60, 200),
        (seed, budget) => {
          const [ours] = measureKnowledgeRecall({
            conversations: 1,
            firstSeed: seed,
            countTokens,
            budgets: [budget],
          }) as [RecallReport];
          expect(Math.max(...ours.tokensPerTurn)).toBeLessThanOrEqual(budget);
          expect(ours.staleInjected + ours.duplicatesInjected + ours.duplicatesStored).toBe(0);
          if (budget === 200) expect(ours.recalled).toBe(ours.currentFacts);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('the script and the reference simulator', () => {
  it('states, restates, updates and contradicts facts, and its truth retires superseded values', () => {
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 10; seed++) {
      for (const turn of scriptConversation(seed).turns) kinds.add(turn.kind);
    }
    expect([...kinds].sort()).toEqual(
      ['contradicted', 'restated', 'stated', 'unrelated', 'updated'].sort(),
    );
    const truth = new FactTruth();
    truth.state({ subject: 'Priya', relation: 'lives_in', object: 'Oslo' });
    truth.state({ subject: 'Priya', relation: 'likes', object: 'jazz' });
    truth.state({ subject: 'Priya', relation: 'lives_in', object: 'Lisbon' });
    truth.state({ subject: 'Priya', relation: 'likes', object: 'tea' });
    expect(truth.current().map((fact) => fact.object)).toEqual(['jazz', 'Lisbon', 'tea']);
    expect(
      truth.check([
        { subject: 'priya', relation: 'lives_in', object: 'oslo' },
        { subject: 'Priya', relation: 'likes', object: 'tea' },
        { subject: 'Priya', relation: 'likes', object: 'tea' },
        { subject: 'Priya', relation: 'works_at', object: 'Acme' },
      ]),
    ).toEqual({ current: 2, stale: 1, unknown: 1, duplicates: 1 });
  });

  it('the simulator re-reads its window, keeps the newest 200, and matches query words of 3+ characters', () => {
    const graph = new ReferenceKnowledgeGraph();
    const history = [
      { role: 'user' as const, content: 'Priya works at Globex.' },
      { role: 'assistant' as const, content: 'Noted.' },
    ];
    graph.afterRun(history);
    graph.afterRun([...history, { role: 'user', content: 'Hello.' }]);
    expect(graph.stored()).toHaveLength(2);
    expect(graph.buildContext('Where is Priya').facts).toHaveLength(2);
    expect(graph.buildContext('at').text).toBe('');
    expect(graph.buildContext('').text).toBe(
      '[Known Relationships]\n- Priya --[works_at]--> Globex\n- Priya --[works_at]--> Globex',
    );
    for (let i = 0; i < 250; i++) graph.afterRun(history);
    expect(graph.stored()).toHaveLength(200);
  });
});
