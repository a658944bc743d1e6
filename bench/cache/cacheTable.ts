/**
 * The cache benchmark's table and goal lines, computed from its reports (`cacheScript.ts`).
 */
import type { CacheReport } from './cacheScript';

/**
 * Input cost in units of the base input price: Anthropic bills cache writes at 1.25× and reads at
 * 0.1×; OpenAI bills cached tokens at 0.1× (its newest models) or 0.5× (older ones).
 *
 * @example
 * ```ts
 * ANTHROPIC_WRITE; // 1.25
 * ```
 */
export const ANTHROPIC_WRITE = 1.25;
/** Anthropic's cache read multiplier. */
export const ANTHROPIC_READ = 0.1;
/** OpenAI's cached-input multipliers: the newest models, older ones. */
export const OPENAI_CACHED: readonly [number, number] = [0.1, 0.5];

/**
 * The numbers of one report, per user turn where they are costs.
 *
 * @example
 * ```ts
 * const m = metricsOf(report);
 * m.anthropicReadShare; // 0.96
 * ```
 */
export interface CacheMetrics {
  readonly anthropicReadShare: number;
  readonly anthropicWriteShare: number;
  readonly openaiCachedShare: number;
  /** Input cost per turn under Anthropic's multipliers, in base input tokens. */
  readonly anthropicCost: number;
  /** Input cost per turn under OpenAI's, cached at 0.1× and at 0.5×. */
  readonly openaiCost: readonly [number, number];
  /** Context retained once the window is full: mean and 5th percentile (shares of the budget). */
  readonly retainedMean: number;
  readonly retainedP5: number;
  /** The mean over every request, the window filling up included. */
  readonly retainedAllMean: number;
  /** The summarizer's input tokens per turn. */
  readonly summarizerPerTurn: number;
  readonly requestsPerTurn: number;
}

const share = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

/**
 * The `p`-quantile (0 to 1) of `values`, by the nearest rank (`NaN` for none).
 *
 * @example
 * ```ts
 * quantile([3, 1, 2], 0); // 1
 * ```
 */
export const quantile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
};

/**
 * The metrics of one report.
 *
 * @example
 * ```ts
 * metricsOf(report).anthropicCost; // base input tokens per turn
 * ```
 */
export const metricsOf = (report: CacheReport): CacheMetrics => {
  const { anthropic, openai, turns } = report;
  const uncached = anthropic.input - anthropic.read - anthropic.write;
  const anthropicCost =
    (uncached + ANTHROPIC_WRITE * anthropic.write + ANTHROPIC_READ * anthropic.read) / turns;
  const openaiCost = OPENAI_CACHED.map(
    (m) => (openai.input - openai.cached + m * openai.cached) / turns,
  ) as unknown as [number, number];
  let sum = 0;
  for (const value of report.retained) sum += value;
  return {
    anthropicReadShare: share(anthropic.read, anthropic.input),
    anthropicWriteShare: share(anthropic.write, anthropic.input),
    openaiCachedShare: share(openai.cached, openai.input),
    anthropicCost,
    openaiCost,
    retainedMean: share(sum, report.retained.length),
    retainedP5: quantile(report.retained, 0.05),
    retainedAllMean: share(report.retainedAll.sum, report.retainedAll.count),
    summarizerPerTurn: report.summarizerInput / turns,
    requestsPerTurn: report.requests / turns,
  };
};

/** The report of trimTo 1 (today) with the same summary setting as `report`. */
const todayOf = (reports: readonly CacheReport[], report: CacheReport): CacheReport | undefined =>
  reports.find((r) => r.config.summary === report.config.summary && (r.config.trimTo ?? 1) === 1);

const percent = (value: number): string => `${(100 * value).toFixed(1)}%`;
const thousands = (value: number): string => (value / 1000).toFixed(2);
const times = (value: number): string => `${value.toFixed(2)}×`;

/**
 * The Markdown table: one row per report.
 *
 * @example
 * ```ts
 * console.log(cacheTable(reports));
 * ```
 */
export const cacheTable = (reports: readonly CacheReport[]): string => {
  const header = [
    'trimTo',
    'summary',
    'read from cache (Anthropic)',
    'written (Anthropic)',
    'cached (OpenAI)',
    'Anthropic cost/turn (k)',
    'vs trimTo 1',
    'OpenAI 0.1× cost/turn (k)',
    'vs trimTo 1',
    'OpenAI 0.5× cost/turn (k)',
    'vs trimTo 1',
    'context mean',
    'context p5',
    'context mean (all calls)',
    'summarizer input/turn',
  ];
  const rows = reports.map((report) => {
    const m = metricsOf(report);
    const today = todayOf(reports, report);
    const t = today === undefined ? undefined : metricsOf(today);
    const ratio = (value: number, base: number | undefined) =>
      base === undefined ? '–' : times(value / base);
    return [
      String(report.config.trimTo ?? 1),
      report.config.summary ? 'yes' : 'no',
      percent(m.anthropicReadShare),
      percent(m.anthropicWriteShare),
      percent(m.openaiCachedShare),
      thousands(m.anthropicCost),
      ratio(m.anthropicCost, t?.anthropicCost),
      thousands(m.openaiCost[0]),
      ratio(m.openaiCost[0], t?.openaiCost[0]),
      thousands(m.openaiCost[1]),
      ratio(m.openaiCost[1], t?.openaiCost[1]),
      percent(m.retainedMean),
      percent(m.retainedP5),
      percent(m.retainedAllMean),
      report.config.summary ? m.summarizerPerTurn.toFixed(0) : '–',
    ];
  });
  return [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
};

/**
 * One goal of the issue, checked: its name, the value measured, the target and whether it passes.
 *
 * @example
 * ```ts
 * const goal: CacheGoal = { summary: false, name: 'read from cache', value: 0.96, target: '≥ 85%', pass: true };
 * ```
 */
export interface CacheGoal {
  readonly summary: boolean;
  readonly name: string;
  readonly value: number;
  readonly shown: string;
  readonly target: string;
  readonly pass: boolean;
}

/**
 * The goals for `trimTo: 0.7`, for each summary setting measured: at least 85% of input
 * tokens read from the cache (under Anthropic's rules, and under OpenAI's), at most 0.25× the
 * input cost of `trimTo: 1` under Anthropic's multipliers, and a mean context retained of at
 * least 80% of the budget.
 *
 * @example
 * ```ts
 * cacheGoals(reports).every((goal) => goal.pass);
 * ```
 */
export const cacheGoals = (reports: readonly CacheReport[]): CacheGoal[] =>
  reports
    .filter((report) => report.config.trimTo === 0.7)
    .flatMap((report) => {
      const { summary } = report.config;
      const m = metricsOf(report);
      const today = todayOf(reports, report);
      const ratio =
        today === undefined ? Number.NaN : m.anthropicCost / metricsOf(today).anthropicCost;
      return [
        {
          summary,
          name: 'input tokens read from the cache (Anthropic rules)',
          value: m.anthropicReadShare,
          shown: percent(m.anthropicReadShare),
          target: '≥ 85%',
          pass: m.anthropicReadShare >= 0.85,
        },
        {
          summary,
          name: 'input tokens read from the cache (OpenAI rules)',
          value: m.openaiCachedShare,
          shown: percent(m.openaiCachedShare),
          target: '≥ 85%',
          pass: m.openaiCachedShare >= 0.85,
        },
        {
          summary,
          name: 'input cost vs trimTo 1 (Anthropic multipliers)',
          value: ratio,
          shown: times(ratio),
          target: '≤ 0.25×',
          pass: ratio <= 0.25,
        },
        {
          summary,
          name: 'mean context retained (window full)',
          value: m.retainedMean,
          shown: percent(m.retainedMean),
          target: '≥ 80% of the budget',
          pass: m.retainedMean >= 0.8,
        },
      ];
    });

/**
 * The goals as printed lines, `PASS` or `FAIL` first.
 *
 * @example
 * ```ts
 * goalLines(reports)[0]; // '- PASS trimTo 0.7, no summary: input tokens read … 96.5% (≥ 85%)'
 * ```
 */
export const goalLines = (reports: readonly CacheReport[]): string[] =>
  cacheGoals(reports).map(
    (goal) =>
      `- ${goal.pass ? 'PASS' : 'FAIL'} trimTo 0.7, ${goal.summary ? 'with summary' : 'no summary'}: ${goal.name}: ${goal.shown} (${goal.target})`,
  );
