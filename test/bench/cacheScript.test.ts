// The prompt-cache benchmark's core (bench/cache/), on a few short conversations with a small
// window: every request reads at most its input from either cache; `trimTo: 1` is today's trim
// (the memory's default) request for request; the per-object keys and counts give what the
// caches give on the requests' own JSON; and the goal lines read the right numbers.
import { countTokens, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  type CacheConfig,
  type CacheReport,
  type CacheRequest,
  measureCache,
} from '../../bench/cache/cacheScript';
import { cacheGoals, goalLines, metricsOf } from '../../bench/cache/cacheTable';
import {
  anthropicBlockCache,
  requestBlocks,
} from '../../test/support/loopback/anthropicPromptCache';
import {
  openaiCachedTokens,
  openaiPrefixCache,
} from '../../test/support/loopback/openaiPromptCache';

const SHORT = { conversations: 2, turns: 24, budget: 2000 } as const;

describe('the cache benchmark’s core', () => {
  it('reads at most the input, and matches the caches run on the requests’ own JSON', async () => {
    const configs: CacheConfig[] = [
      { trimTo: 1, summary: false },
      { trimTo: 0.7, summary: true },
    ];
    // A second pair of caches per conversation and configuration, keyed by each part's JSON.
    const plain = new Map<string, ReturnType<typeof plainCaches>>();
    let requests = 0;
    let read = 0;
    const reports = await measureCache({
      ...SHORT,
      configs,
      onRequest: (r) => {
        requests++;
        const { cache_read_input_tokens: reads, cache_creation_input_tokens: writes } = r.anthropic;
        expect(reads + writes + r.anthropic.input_tokens).toBe(r.anthropicInput);
        expect(Math.min(reads, writes, r.anthropic.input_tokens)).toBeGreaterThanOrEqual(0);
        expect(r.openaiCached).toBeLessThanOrEqual(r.openaiInput);
        expect(r.openaiCached % 128).toBe(0);
        const key = `${r.seed}/${r.config.trimTo}/${r.config.summary}`;
        const caches = plain.get(key) ?? plainCaches();
        plain.set(key, caches);
        expect(caches.check(r)).toEqual({
          anthropicInput: r.anthropicInput,
          anthropic: r.anthropic,
          openaiInput: r.openaiInput,
          openaiCached: r.openaiCached,
        });
        read += reads;
      },
    });
    expect(requests).toBeGreaterThan(100);
    expect(read).toBeGreaterThan(0);
    for (const report of reports) {
      expect(report.anthropic.read + report.anthropic.write).toBeLessThanOrEqual(
        report.anthropic.input,
      );
      expect(report.openai.cached).toBeLessThanOrEqual(report.openai.input);
      expect(report.retained.length).toBeGreaterThan(0);
    }
    // The stepped window reads more than today's.
    const [today, stepped] = reports.map(metricsOf) as [
      ReturnType<typeof metricsOf>,
      ReturnType<typeof metricsOf>,
    ];
    expect(stepped.anthropicReadShare).toBeGreaterThan(today.anthropicReadShare);
    expect(stepped.openaiCachedShare).toBeGreaterThan(today.openaiCachedShare);
  });

  it('trimTo 1 is today’s trim: the same windows, summaries and cache counts, call for call', async () => {
    for (const summary of [false, true]) {
      const seen: CacheRequest[][] = [[], []];
      await measureCache({
        ...SHORT,
        configs: [
          { trimTo: undefined, summary },
          { trimTo: 1, summary },
        ],
        onRequest: (r) => seen[r.config.trimTo === undefined ? 0 : 1]?.push(r),
      });
      const [today, one] = seen as [CacheRequest[], CacheRequest[]];
      expect(one.length).toBe(today.length);
      let trimmed = 0;
      today.forEach((r, i) => {
        const other = one[i] as CacheRequest;
        expect(other.state.config.trimTo).toBe(1);
        expect([i, other.state.messages]).toEqual([i, r.state.messages]);
        expect(other.state.summary).toBe(r.state.summary);
        expect([other.anthropic, other.openaiCached]).toEqual([r.anthropic, r.openaiCached]);
        if (r.state.messages.length < (today[i - 1]?.state.messages.length ?? 0)) trimmed++;
      });
      expect(trimmed).toBeGreaterThan(5);
    }
  });

  it('checks the goals of trimTo 0.7 against trimTo 1 with the same summary setting', () => {
    const report = (
      trimTo: number,
      summary: boolean,
      anthropic: CacheReport['anthropic'],
      cached: number,
      retained: number[],
    ): CacheReport => ({
      config: { trimTo, summary },
      conversations: 1,
      turns: 10,
      requests: 20,
      anthropic,
      openai: { input: 1000, cached },
      summarizerInput: 0,
      retained,
      retainedAll: { sum: 0, count: 0 },
    });
    // trimTo 1: cost 1000 per 10 turns (nothing cached); with a summary: 2000.
    const reports = [
      report(1, false, { input: 1000, read: 0, write: 0 }, 0, [1]),
      report(0.7, false, { input: 1000, read: 900, write: 80 }, 850, [0.9, 0.7]),
      report(1, true, { input: 2000, read: 0, write: 0 }, 0, [1]),
      report(0.7, true, { input: 1000, read: 840, write: 160 }, 849, [0.8, 0.79]),
    ];
    const goals = cacheGoals(reports);
    expect(goals.map((g) => [g.summary, g.name, g.value, g.pass])).toEqual([
      [false, 'input tokens read from the cache (Anthropic rules)', 0.9, true],
      [false, 'input tokens read from the cache (OpenAI rules)', 0.85, true],
      // (20 + 1.25 × 80 + 0.1 × 900) / 1000
      [false, 'input cost vs trimTo 1 (Anthropic multipliers)', expect.closeTo(0.21, 9), true],
      [false, 'mean context retained (window full)', expect.closeTo(0.8, 9), true],
      [true, 'input tokens read from the cache (Anthropic rules)', 0.84, false],
      [true, 'input tokens read from the cache (OpenAI rules)', 0.849, false],
      // (1.25 × 160 + 0.1 × 840) / 2000: against trimTo 1 with a summary
      [true, 'input cost vs trimTo 1 (Anthropic multipliers)', expect.closeTo(0.142, 9), true],
      [true, 'mean context retained (window full)', expect.closeTo(0.795, 9), false],
    ]);
    expect(goalLines(reports)[0]).toMatch(/^- PASS trimTo 0\.7, no summary: .*90\.0% \(≥ 85%\)$/);
    expect(goalLines(reports)[7]).toMatch(/^- FAIL trimTo 0\.7, with summary: .*79\.5%/);
  });
});

/**
 * The two caches run on each request's own JSON: a part's key is its JSON text, its tokens the
 * o200k count of that text (no per-object cache), a partial match counted on its tokens.
 */
const plainCaches = () => {
  const anthropic = anthropicBlockCache();
  const openai = openaiPrefixCache<{ key: string; through: number }>((a, b) => {
    const x = encodeOf(a.key);
    const y = encodeOf(b.key);
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    return i;
  });
  return {
    check: (r: CacheRequest) => {
      let through = 0;
      const blocks = requestBlocks(r.anthropicRequest).map((b) => {
        const text = (b.role === undefined ? '' : `${b.role}:`) + JSON.stringify(b.value);
        through += countTokens(text);
        return { key: text, through, breakpoint: b.breakpoint };
      });
      const anthropicInput = through;
      through = 0;
      const parts = r.openaiRequest.map((message) => {
        const text = JSON.stringify(message);
        through += countTokens(text);
        return { key: text, through };
      });
      return {
        anthropicInput,
        anthropic: anthropic.usage('bench-model', blocks),
        openaiInput: through,
        openaiCached: openaiCachedTokens(openai.matched('bench-model', parts)),
      };
    },
  };
};

const encoded = new Map<string, number[]>();
const encodeOf = (text: string): number[] => {
  let tokens = encoded.get(text);
  if (tokens === undefined) {
    tokens = encode(text);
    encoded.set(text, tokens);
  }
  return tokens;
};
