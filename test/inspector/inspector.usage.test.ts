/**
 * The inspector's usage and cost per step (issue #29 §3): a step that adds an assistant message
 * with `metadata.usage` (the agent records each call's usage there) shows the tokens sent, the
 * share read from the cache, the cache writes, the output and, with prices, the cost; the steps
 * shown add up to a total. Steps without a usage show nothing, and a `metadata.usage` that is not
 * a usage (the application's data) is shown as absent, never thrown on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistantMessage, memoryActions, userMessage, type Message } from 'conversation-memory';
import { estimateCost, type TokenPrices } from 'conversation-memory/tokens';
import {
  stepUsageOf,
  timelineRows,
  usageFigures,
  usageText,
  usageTotal,
  type StepUsage,
} from '../../src/inspector/model';
import { USAGE_CALLS, usageLog } from '../support/inspectorUsageLog';

const sonnet: TokenPrices = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };

const withUsage = (usage: unknown, role: Message['role'] = 'assistant'): Message => ({
  role,
  content: 'Reply.',
  metadata: { trace: 't', usage } as NonNullable<Message['metadata']>,
});

const added = (message: Message) => memoryActions.messageAdded(message);

describe('per step: the usage of the model calls a step records', () => {
  it('a recorded agent run: each reply with a usage shows it, every other step shows nothing', async () => {
    const rows = timelineRows(await usageLog());
    const [first, second, , fourth] = USAGE_CALLS;
    expect(rows.map((row) => row.usage)).toEqual([
      null, // start
      null, // user
      { calls: 1, ...first }, // the tool call's reply
      null, // tool result
      { calls: 1, ...second },
      null, // user
      null, // a reply that reported no usage: no zeros invented
      null, // user
      { calls: 1, ...fourth }, // no cache counts: none invented
      null, // metadata.usage that is not a usage: shown as absent
    ]);
    expect(rows[8]?.usage).not.toHaveProperty('cachedInputTokens');
  });

  it('a metadata.usage that is not a usage is shown as absent, never thrown on', () => {
    const bad: readonly unknown[] = [
      null,
      'lots',
      [],
      { outputTokens: 2 },
      { inputTokens: 3 },
      { inputTokens: -1, outputTokens: 2 },
      { inputTokens: 1.5, outputTokens: 2 },
      { inputTokens: '3', outputTokens: 2 },
      { inputTokens: 2 ** 53, outputTokens: 2 },
      { inputTokens: 10, outputTokens: 2, cachedInputTokens: 11 },
      { inputTokens: 10, outputTokens: 2, cachedInputTokens: 6, cacheWriteTokens: 5 },
      { inputTokens: 10, outputTokens: 2, cacheWriteTokens: true },
    ];
    for (const usage of bad) expect(stepUsageOf(added(withUsage(usage)))).toBeNull();
  });

  // Metadata is JSON (the message decoder refuses NaN and infinities), so the counts are JSON too.
  it('any metadata.usage: never throws; a usage shown is a valid one, exactly as recorded', () => {
    const count = fc.oneof(
      fc.nat(5000),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constant(undefined),
    );
    const usageArb = fc.oneof(
      fc.record(
        {
          inputTokens: count,
          outputTokens: count,
          cachedInputTokens: count,
          cacheWriteTokens: count,
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(usageArb, (usage) => {
        const shown = stepUsageOf(added(withUsage(usage)));
        if (shown === null) return;
        const u = usage as Record<string, number>;
        expect(shown.calls).toBe(1);
        expect(shown.inputTokens).toBe((u['inputTokens'] as number) + 0);
        expect(shown.outputTokens).toBe((u['outputTokens'] as number) + 0);
        expect(Number.isSafeInteger(shown.inputTokens) && shown.inputTokens >= 0).toBe(true);
        const parts = (shown.cachedInputTokens ?? 0) + (shown.cacheWriteTokens ?? 0);
        expect(parts).toBeLessThanOrEqual(shown.inputTokens);
      }),
    );
  });

  it('only an assistant message’s usage counts; an add of several adds their usages up', () => {
    const usage = { inputTokens: 100, cachedInputTokens: 64, outputTokens: 5 };
    expect(stepUsageOf(added(withUsage(usage, 'user')))).toBeNull();
    expect(stepUsageOf(added(withUsage(usage, 'tool')))).toBeNull();
    expect(stepUsageOf(memoryActions.messageAdded(assistantMessage('plain')))).toBeNull();
    expect(stepUsageOf(null)).toBeNull();
    expect(stepUsageOf(memoryActions.cleared())).toBeNull();
    const many = memoryActions.messagesAdded([
      withUsage(usage),
      userMessage('between'),
      withUsage({ inputTokens: 200, cacheWriteTokens: 10, outputTokens: 7 }),
      withUsage('not a usage'),
    ]);
    expect(stepUsageOf(many)).toEqual({
      calls: 2,
      inputTokens: 300,
      cachedInputTokens: 64,
      cacheWriteTokens: 10,
      outputTokens: 12,
    });
  });
});

describe('figures: share from the cache, cost, and the total of the steps shown', () => {
  it('the share is cached / sent; the cost is estimateCost’s; each only when known', () => {
    const usage: StepUsage = {
      calls: 1,
      inputTokens: 10_000,
      cachedInputTokens: 8_000,
      cacheWriteTokens: 1_000,
      outputTokens: 500,
    };
    const figures = usageFigures(usage, sonnet);
    expect(figures).toEqual({ ...usage, cacheShare: 0.8, cost: estimateCost(usage, sonnet) });
    expect(figures.cost).toBeCloseTo(0.01665, 10);
    expect(usageText(figures)).toBe(
      'sent 10000 tokens, 80% from cache, 1000 written to cache, 500 out, cost 0.0167',
    );
    const unpriced = usageFigures({ calls: 3, inputTokens: 1500, outputTokens: 30 });
    expect(unpriced).toEqual({ calls: 3, inputTokens: 1500, outputTokens: 30 });
    expect(usageText(unpriced)).toBe('3 calls, sent 1500 tokens, 30 out');
    // Nothing sent: no share (not 0%, not NaN).
    const empty = usageFigures({ calls: 1, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 });
    expect(empty).not.toHaveProperty('cacheShare');
    // 100% only when all of it.
    const almost = { calls: 1, inputTokens: 10_000, cachedInputTokens: 9_999, outputTokens: 1 };
    expect(usageText(usageFigures(almost))).toContain('99.9% from cache');
  });

  it('bad prices are the estimateCost error naming the field and the value', () => {
    const usage: StepUsage = { calls: 1, inputTokens: 1, outputTokens: 1 };
    expect(() => usageFigures(usage, { ...sonnet, output: -1 })).toThrow(
      '[conversation-memory] estimateCost: prices.output must be a finite number of at least 0 (per million tokens), received -1',
    );
  });

  it('the total adds up the steps shown; its cost is the sum of the steps’ costs', () => {
    const stepArb = fc.option(
      fc
        .record({
          calls: fc.integer({ min: 1, max: 3 }),
          inputTokens: fc.nat(200_000),
          outputTokens: fc.nat(8_000),
          cached: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
          written: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        })
        .map(({ cached, written, ...usage }): StepUsage => {
          const read = cached === undefined ? undefined : Math.floor(usage.inputTokens * cached);
          const rest = usage.inputTokens - (read ?? 0);
          return {
            ...usage,
            ...(read === undefined ? {} : { cachedInputTokens: read }),
            ...(written === undefined ? {} : { cacheWriteTokens: Math.floor(rest * written) }),
          };
        }),
      { nil: null },
    );
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 12 }), (usages) => {
        const rows = usages.map((usage) => ({ usage }));
        const total = usageTotal(rows);
        const shown = usages.filter((usage): usage is StepUsage => usage !== null);
        if (shown.length === 0) {
          expect(total).toBeNull();
          return;
        }
        const sum = (pick: (u: StepUsage) => number) => shown.reduce((n, u) => n + pick(u), 0);
        expect(total).toMatchObject({
          calls: sum((u) => u.calls),
          inputTokens: sum((u) => u.inputTokens),
          outputTokens: sum((u) => u.outputTokens),
        });
        const anyCached = shown.some((u) => u.cachedInputTokens !== undefined);
        expect(total?.cachedInputTokens).toBe(
          anyCached ? sum((u) => u.cachedInputTokens ?? 0) : undefined,
        );
        const anyWritten = shown.some((u) => u.cacheWriteTokens !== undefined);
        expect(total?.cacheWriteTokens).toBe(
          anyWritten ? sum((u) => u.cacheWriteTokens ?? 0) : undefined,
        );
        const cost = usageFigures(total as StepUsage, sonnet).cost as number;
        const costs = sum((u) => usageFigures(u, sonnet).cost as number);
        expect(cost).toBeCloseTo(costs, 9);
      }),
    );
  });
});
