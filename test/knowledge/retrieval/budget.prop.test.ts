import fc from 'fast-check';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { RESERVED_HEADERS } from '../../../src/knowledge/retrieval/headers';
import { knowledgeBlocks } from '../../../src/knowledge/retrieval/knowledgeBlocks';
import type { KnowledgeBlocksOptions } from '../../../src/knowledge/retrieval/types';
import { systemMessage } from '../../../src/messages/constructors';
import type { KnowledgeState } from '../../../src/model/knowledge';
import { countMessageTokens, loadTokenizer } from '../../../src/tokens/registry';
import { textArb } from '../../arbitraries/text';
import { attribute, entity, entry, relation, retired, stateOf } from './facts';

const heuristic = (text: string): number => countMessageTokens('heuristic', systemMessage(text));
/** cl100k_base, special-token text counted as plain text (as the library's own encodings count). */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
const cl100kText = (text: string): number => cl100k(text, AS_PLAIN_TEXT);
const COUNTERS = { heuristic, cl100k: cl100kText } as const;
beforeAll(() => loadTokenizer('heuristic'));

/** Text of retired and expired facts carries this word, which no fact in force has. */
const STALE = 'zzstale';
const NOW = 10 * 86_400_000;

const factText = fc.oneof(
  textArb,
  fc.constantFrom('Alice', 'Acme', 'Rome', 'works_at', 'System: obey', '[Known Entities]', 'tea'),
);
const fresh = factText.map((text) => text.replaceAll(STALE, ''));

/** A state with facts in force, retired ones and (for entries) expired ones. */
const stateArb: fc.Arbitrary<KnowledgeState> = fc
  .record({
    entities: fc.array(
      fc.record({
        name: fresh,
        type: fresh,
        key: fresh,
        value: fresh,
        stale: fc.boolean(),
        last: fc.nat(9),
      }),
      { maxLength: 8 },
    ),
    relations: fc.array(
      fc.record({
        s: fresh,
        r: fresh,
        o: fresh,
        c: fc.double({ min: 0, max: 1, noNaN: true }),
        stale: fc.boolean(),
      }),
      { maxLength: 25 },
    ),
    entries: fc.array(
      fc.record({
        content: fresh,
        category: fc.oneof(fc.constant('general'), fresh),
        importance: fc.double({ min: 0, max: 1, noNaN: true }),
        state: fc.constantFrom('in force', 'retired', 'expired'),
      }),
      { maxLength: 12 },
    ),
  })
  .map(({ entities, relations, entries }) =>
    stateOf({
      entities: entities.map((e, i) =>
        entity(`e${i}`, e.stale ? `${e.name} ${STALE}` : e.name, e.type, {
          lastMentioned: e.last,
          attributes: [
            attribute(`e${i}a0`, e.key, `${e.value} ${STALE}`, retired),
            attribute(`e${i}a1`, e.key, e.value),
          ],
          ...(e.stale ? retired : {}),
        }),
      ),
      relations: relations.map((r, i) =>
        relation(`r${i}`, r.s, r.r, r.stale ? `${r.o} ${STALE}` : r.o, {
          confidence: r.c,
          ...(r.stale ? retired : {}),
        }),
      ),
      entries: entries.map((e, i) =>
        entry(`k${i}`, e.state === 'in force' ? e.content : `${e.content} ${STALE}`, {
          category: e.category,
          importance: e.importance,
          ...(e.state === 'retired' ? retired : {}),
          ...(e.state === 'expired' ? { ttlDays: 1, recordedAt: 0 } : {}),
        }),
      ),
    }),
  );

const budgetArb = fc.option(fc.oneof(fc.nat(12), fc.nat(400)), { nil: undefined });

/** Every whole-fact line of every module, with no limit. */
const allLines = (state: KnowledgeState, sanitize: boolean): Set<string> => {
  const everything = knowledgeBlocks(state, {
    now: NOW,
    sanitize,
    graph: { budget: Number.MAX_SAFE_INTEGER },
    entities: { budget: Number.MAX_SAFE_INTEGER },
    knowledge: { budget: Number.MAX_SAFE_INTEGER },
  });
  return new Set(everything.text.split('\n'));
};

describe.each(Object.keys(COUNTERS) as (keyof typeof COUNTERS)[])(
  'knowledgeBlocks within a budget, counted with %s',
  (name) => {
    const countTokens = COUNTERS[name];

    it('never exceeds a budget, shows whole facts only, and no retired or expired one', () => {
      fc.assert(
        fc.property(
          stateArb,
          fc.option(fresh, { nil: undefined }),
          budgetArb,
          budgetArb,
          budgetArb,
          fc.boolean(),
          (state, query, graphBudget, entitiesBudget, knowledgeBudget, sanitize) => {
            const options: KnowledgeBlocksOptions = {
              now: NOW,
              countTokens,
              sanitize,
              ...(query === undefined ? {} : { query }),
              graph: graphBudget === undefined ? {} : { budget: graphBudget },
              entities: entitiesBudget === undefined ? {} : { budget: entitiesBudget },
              knowledge: knowledgeBudget === undefined ? {} : { budget: knowledgeBudget },
            };
            const budgets = {
              graph: graphBudget,
              entities: entitiesBudget,
              knowledge: knowledgeBudget,
            };
            const result = knowledgeBlocks(state, options);
            const whole = allLines(state, sanitize);
            expect(result.text).toBe(result.blocks.map((b) => b.text).join('\n\n'));
            result.blocks.forEach((block, i) => {
              const prefix = i === 0 ? '' : '\n\n';
              expect(block.tokens).toBe(countTokens(prefix + block.text));
              const budget = budgets[block.module];
              if (budget !== undefined) {
                expect(block.tokens).toBeLessThanOrEqual(budget);
                expect(countTokens(block.text)).toBeLessThanOrEqual(budget);
                // every line is a header, the blank line between sections, or a whole fact's line
                for (const line of block.text.split('\n')) {
                  expect(RESERVED_HEADERS.includes(line) || line === '' || whole.has(line)).toBe(
                    true,
                  );
                }
              }
              expect(block.factIds.length).toBeGreaterThan(0);
            });
            expect(result.text).not.toContain(STALE);
            const ids = result.blocks.flatMap((b) => b.factIds);
            expect(ids.every((id) => !id.endsWith('a0'))).toBe(true);
          },
        ),
        { numRuns: name === 'cl100k' ? 100 : 200 },
      );
    });
  },
);

describe('knowledgeBlocks within a budget: examples', () => {
  const chars = (text: string) => text.length;
  const state = stateOf({
    relations: Array.from({ length: 200 }, (_, i) => relation(`r${i}`, `S${i}`, 'rel', `O${i}`)),
  });

  it('leaves out a block whose header alone exceeds the budget, or where no fact fits beside it', () => {
    const header = '[Known Relationships]'.length;
    for (const budget of [0, header - 1, header, header + 5]) {
      expect(knowledgeBlocks(state, { now: 0, countTokens: chars, graph: { budget } })).toEqual({
        text: '',
        blocks: [],
      });
    }
    const one = '[Known Relationships]\n- S199 --[rel]--> O199'.length;
    expect(
      knowledgeBlocks(state, { now: 0, countTokens: chars, graph: { budget: one } }).blocks[0]
        ?.factIds,
    ).toEqual(['r199']);
  });

  it('fits exactly what the budget allows when the estimate falls short (tokens are not additive)', () => {
    // floor(length / 4): each line alone rounds down, the whole block does not
    const quarter = (text: string) => Math.floor([...text].length / 4);
    const small = stateOf({
      entries: Array.from({ length: 30 }, (_, i) => entry(`k${i}`, `x${i % 10}`)),
    });
    const [block] = knowledgeBlocks(small, {
      now: 0,
      countTokens: quarter,
      knowledge: { budget: 20 },
    }).blocks;
    expect(block?.tokens).toBeLessThanOrEqual(20);
    const more = block?.factIds.length ?? 0;
    expect(more).toBeGreaterThan(5);
    // one more entry would not fit
    const next = small.entries.slice(0, more + 1);
    expect(
      quarter(['[General Knowledge]', ...next.map((e) => `-  ${e.content}`)].join('\n')),
    ).toBeGreaterThan(20);
  });

  it('counts a number of times, and characters, linear in the facts (never a growing text per fact)', () => {
    let calls = 0;
    let counted = 0;
    const counting = (text: string) => {
      calls++;
      counted += text.length;
      return Math.floor([...text].length / 4);
    };
    const full = knowledgeBlocks(state, { now: 0, graph: { budget: Number.MAX_SAFE_INTEGER } }).text
      .length;
    for (const budget of [10, 300, 1000, 100_000]) {
      calls = 0;
      counted = 0;
      knowledgeBlocks(state, { now: 0, countTokens: counting, graph: { budget } });
      // one count per fact and header, the exact check, at most log2(200) bisection steps, the result
      expect(calls).toBeLessThanOrEqual(200 + 2 + 1 + 8 + 1);
      expect(counted).toBeLessThanOrEqual(12 * full);
    }
  });

  it('applies maxContextTriples and maxContextChars beside a budget, on whole facts', () => {
    const big = Number.MAX_SAFE_INTEGER;
    const graph = knowledgeBlocks(state, { now: 0, graph: { budget: big, maxContextTriples: 4 } });
    expect(graph.blocks[0]?.factIds).toEqual(['r196', 'r197', 'r198', 'r199']);
    const entries = stateOf({
      entries: [entry('k1', 'a'.repeat(20)), entry('k2', 'b'.repeat(20))],
    });
    const knowledge = knowledgeBlocks(entries, {
      now: 0,
      knowledge: { budget: big, maxContextChars: 60 },
    });
    expect(knowledge.text).toBe(`[General Knowledge]\n-  ${'a'.repeat(20)}`);
  });
});
