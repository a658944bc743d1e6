// The pruning benchmark's goals, on a fast subset of its script (bench/pruning/): at the same
// budget, `prune: 'redundant'` sends more distinct facts than `oldest` and loses no latest value
// that `oldest` keeps (with masking too); masking to fit (`untilFits`) sends more than `oldest`
// and loses no latest value the `oldest` view sends; every view keeps the budget and the upper
// bound; and the script itself plants what it says (re-reads, edits, repeated searches, the
// user's updates, sizes).
//
// Not asserted: the "redundant + masking ≥ 1.5× oldest". It is not met (see
// bench/results/pruning-distinct.md): masking by count (`keepLast: 2`) sends older results as
// placeholders, which the benchmark counts as absent; masking to fit reaches about 1.2×, under an
// upper bound for any view of 1.74× at 2,000 tokens and 1.35× at 4,000.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as root from 'conversation-memory';
import { countMessageTokens, estimateTokens } from 'conversation-memory/tokens';
import { AGENT_TURNS, scriptAgentConversation } from '../../bench/pruning/agentConversations';
import {
  measureDistinctFacts,
  PRUNING_FIRST_SEED,
  type DistinctReport,
} from '../../bench/pruning/distinctScript';
import { FactCatalog } from '../../bench/pruning/factCatalog';

const lib = { ...root, countMessageTokens };
const BUDGET = 2000;
const countTokens = (text: string): number => estimateTokens(text, 'gpt-4o'); // o200k_base

type Six = [
  DistinctReport,
  DistinctReport,
  DistinctReport,
  DistinctReport,
  DistinctReport,
  DistinctReport,
];

/**
 * The six reports in order: oldest, redundant, oldest + masking, redundant + masking, oldest +
 * masking to fit, redundant + masking to fit.
 */
const measure = (conversations: number, firstSeed?: number) =>
  measureDistinctFacts({
    lib,
    conversations,
    budget: BUDGET,
    ...(firstSeed === undefined ? {} : { firstSeed }),
  }) as Six;

/** The median tokens a configuration sent per turn's end. */
const median = (r: DistinctReport): number =>
  [...r.tokensSent].sort((a, b) => a - b)[r.tokensSent.length >> 1] as number;

/** What every set of conversations must score, whatever the seed. */
const expectNoLatestLost = (reports: readonly DistinctReport[]): void => {
  const [oldest, redundant, , both, oldestFit, bothFit] = reports as Six;
  expect(redundant.distinct).toBeGreaterThan(oldest.distinct);
  expect(redundant.latest).toBeGreaterThan(oldest.latest);
  expect(redundant.lostInMemory).toBe(0);
  expect(redundant.lostInView).toBe(0);
  expect(both.lostInMemory).toBe(0);
  expect(bothFit.lostInMemory).toBe(0);
  // Masking to fit keeps what a plain view of the same budget sends, and more.
  expect(oldestFit.lostInView).toBe(0);
  expect(bothFit.lostInView).toBe(0);
  expect(oldestFit.distinct).toBeGreaterThanOrEqual(oldest.distinct);
  expect(bothFit.distinct).toBeGreaterThanOrEqual(oldest.distinct);
  for (const report of reports) {
    expect(report.staleOnly).toBe(0);
    expect(report.overBudget).toBe(0);
    expect(Math.max(...report.tokensSent)).toBeLessThanOrEqual(BUDGET);
    // No view sends more than the bound for any view.
    expect(report.distinct).toBeLessThanOrEqual(report.bound);
    expect(report.bound).toBe(oldest.bound);
  }
};

describe('pruning benchmark script (20 conversations, budget 2,000 tokens)', () => {
  const reports = measure(20);
  const [oldest, redundant, masked, both, , bothFit] = reports;

  it('redundant sends more distinct facts and more latest values than oldest, and loses none', () => {
    expect(oldest.turnEnds).toBe(20 * AGENT_TURNS);
    expectNoLatestLost(reports);
    // Measured 1.15× at 20 conversations (1.14× at 200): a margin for a regression.
    expect(redundant.distinct / oldest.distinct).toBeGreaterThanOrEqual(1.1);
    // The budget binds: oldest shows about half of what was stated.
    expect(oldest.distinct).toBeLessThan(0.7 * oldest.stated);
  });

  it('the rule redundant removes messages only under prune redundant', () => {
    expect(oldest.removedRedundant).toBe(0);
    expect(masked.removedRedundant).toBe(0);
    expect(redundant.removedRedundant).toBeGreaterThan(20 * 20);
    expect(both.removedRedundant).toBeGreaterThan(20 * 20);
  });

  it('masking keeps more in memory, masks results the oldest view sends, and sends fewer tokens', () => {
    expect(both.memoryTokens).toBe(3 * BUDGET);
    expect(masked.lostInView).toBeGreaterThan(0);
    expect(both.distinct).toBeGreaterThanOrEqual(masked.distinct);
    expect(median(masked)).toBeLessThan(median(oldest));
  });

  it('masking to fit sends more than oldest and than masking by count, and uses the budget', () => {
    // Measured 1.21× at 200 conversations: a margin for a regression.
    expect(bothFit.distinct / oldest.distinct).toBeGreaterThanOrEqual(1.12);
    expect(bothFit.distinct).toBeGreaterThan(both.distinct);
    expect(median(bothFit)).toBeGreaterThan(median(oldest));
    // The bound is above what is sent, and under what was stated.
    expect(oldest.bound).toBeGreaterThan(bothFit.distinct);
    expect(oldest.bound).toBeLessThan(oldest.statedFacts);
    // With a budget that holds everything, the bound is every fact stated.
    const [wide] = measureDistinctFacts({ lib, conversations: 2, budget: 1_000_000 });
    expect(wide?.bound).toBe(wide?.statedFacts);
    expect(wide?.distinct).toBe(wide?.statedFacts);
  });
});

describe('pruning benchmark script, any seed', () => {
  it('redundant beats oldest and loses no latest value on every conversation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        expectNoLatestLost(measure(1, seed));
      }),
      { numRuns: 8 },
    );
  });
});

describe('the recorded conversations', () => {
  it('re-read files, edit them, repeat searches and update the user values, deterministically', () => {
    const kinds = new Set<string>();
    let reReads = 0;
    let editedReReads = 0;
    let repeatedSearches = 0;
    for (let i = 0; i < 10; i++) {
      const conversation = scriptAgentConversation(PRUNING_FIRST_SEED + i);
      expect(scriptAgentConversation(PRUNING_FIRST_SEED + i)).toEqual(conversation);
      const lastRead = new Map<string, string>();
      const searches = new Set<string>();
      for (const turn of conversation.turns) {
        kinds.add(turn.kind);
        const calls = new Map(
          turn.messages.flatMap((m) => m.toolCalls ?? []).map((call) => [call.id, call]),
        );
        for (const message of turn.messages) {
          if (message.role !== 'tool') continue;
          const call = calls.get(message.toolCallId);
          const content = message.content ?? '';
          if (message.toolName === 'read_file') {
            const tokens = countTokens(content);
            expect(tokens).toBeGreaterThanOrEqual(150);
            expect(tokens).toBeLessThanOrEqual(600);
            const path = String(call?.parameters['path']);
            const before = lastRead.get(path);
            if (before === content) reReads++;
            else if (before !== undefined) {
              // An edited version: the same lines but one value.
              const changed = content
                .split('\n')
                .filter((line, k) => line !== before.split('\n')[k]);
              expect(changed).toHaveLength(1);
              editedReReads++;
            }
            lastRead.set(path, content);
          } else if (message.toolName === 'search') {
            if (searches.has(content)) repeatedSearches++;
            searches.add(content);
          }
        }
      }
    }
    expect([...kinds].sort()).toEqual(['edited', 'request', 'user-fact']);
    expect(reReads).toBeGreaterThan(50);
    expect(editedReReads).toBeGreaterThan(10);
    expect(repeatedSearches).toBeGreaterThan(20);
  });

  it('find a fact only whole: not inside a longer key, a longer value or another value', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z]{1,8}(_[a-z]{1,8}){0,2}$/),
        fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .:/-]{0,12}[A-Za-z0-9]$/),
        fc.constantFrom('', ' ', '.', ', ', '\n', ' (it changed)'),
        (key, value, after) => {
          const catalog = new FactCatalog(new Map([[key, [value]]]));
          const fact = { key, value };
          expect(catalog.factsIn(`- ${key}: ${value}${after}`)).toEqual([fact]);
          expect(catalog.factsIn(`${key}: ${value}`)).toEqual([fact]);
          expect(catalog.factsIn(`max_${key}: ${value}${after}`)).toEqual([]);
          expect(catalog.factsIn(`${key}: ${value}0${after}`)).toEqual([]);
          expect(catalog.factsIn(`${key}: ${value}.5`)).toEqual([]);
          expect(catalog.factsIn(`${key}: x${value}`)).toEqual([]);
        },
      ),
    );
  });
});
