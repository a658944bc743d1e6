/**
 * `conversation-memory inspect --prices FILE` (issue #29 §3): the timeline shows each step's usage
 * (tokens sent, share read from the cache, cache writes, output) and its cost at the file's
 * prices, then the total; `--at N` the step's; `--json` the same figures; `--html` carries the
 * prices into the page. A prices file that is missing, not JSON or not prices is a usage error
 * (exit 2) naming the file and, for bad prices, the field and the value. Run through `runInspect`
 * with the real file system (the CLI's `main.ts` only wires `fs` to it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEnvelope, fork } from 'conversation-memory';
import { estimateCost, type TokenPrices } from 'conversation-memory/tokens';
import { runInspect } from '../../src/inspector/cli/inspect';
import { USAGE } from '../../src/inspector/cli/args';
import { DATA_SLOT } from '../../src/inspector/page/embed';
import type { PageData } from '../../src/inspector/page/data';
import { recordedLog } from '../support/inspectorLog';
import { USAGE_CALLS, usageLog } from '../support/inspectorUsageLog';
import { rootDir } from '../support/markdown';

const dir = mkdtempSync(join(tmpdir(), 'cm-prices-'));
const logFile = join(dir, 'log.json');
const pricesFile = join(dir, 'prices.json');
const sonnet: TokenPrices = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };

beforeAll(async () => {
  writeFileSync(logFile, JSON.stringify(encodeEnvelope(await usageLog())));
  writeFileSync(pricesFile, JSON.stringify(sonnet));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const inspect = (...args: string[]) =>
  runInspect({
    argv: ['inspect', ...args],
    readText: (file) => readFileSync(file, 'utf8'),
    isTTY: false,
    env: {},
    pageTemplate: () => `<script id="inspector-data">${DATA_SLOT}</script>`,
    writeText: (file, text) => writeFileSync(file, text),
  });

const cost = (i: number) =>
  estimateCost(USAGE_CALLS[i] as NonNullable<(typeof USAGE_CALLS)[0]>, sonnet);
const costText = (value: number) => String(Number(value.toPrecision(3)));

describe('--prices: the timeline', () => {
  it('each step with a usage shows it and its cost; the total follows; other steps show nothing', () => {
    const { code, stdout, stderr } = inspect(logFile, '--prices', pricesFile);
    expect([code, stderr]).toEqual([0, '']);
    const lines = stdout.split('\n');
    const step = (n: number) => lines.find((line) => line.startsWith(`   ${n}  `)) ?? '';
    expect(step(2)).toContain(
      `sent 1200 tokens, 0% from cache, 1100 written to cache, 20 out, cost ${costText(cost(0))}`,
    );
    expect(step(4)).toContain(
      `sent 1300 tokens, 84.6% from cache, 150 written to cache, 15 out, cost ${costText(cost(1))}`,
    );
    // No cache counts reported: no share, no writes.
    expect(step(8)).toMatch(/sent 1500 tokens, 30 out, cost [0-9.]+$/);
    for (const n of [0, 1, 3, 5, 6, 7, 9]) expect(step(n)).not.toContain('sent');
    const total = cost(0) + cost(1) + cost(3);
    expect(lines).toContain(
      `usage, 3 steps: 3 calls, sent 4000 tokens, 27.5% from cache, 1250 written to cache, 65 out, cost ${costText(total)}`,
    );
  });

  it('without --prices: the same figures, no cost; a log without usage prints as before', () => {
    const { stdout } = inspect(logFile);
    expect(stdout).toContain('usage, 3 steps: 3 calls, sent 4000 tokens,');
    expect(stdout).not.toContain('cost');
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, JSON.stringify(encodeEnvelope(recordedLog())));
    expect(inspect(plain).stdout).not.toContain('usage');
    const priced = inspect(plain, '--prices', pricesFile);
    expect(priced.code).toBe(0);
    expect(priced.stdout).toBe(
      `${inspect(plain).stdout}usage: no step records one (the agent records it in the reply's metadata.usage)\n`,
    );
  });

  it('--json: each step’s figures with its step, and the total; the prices used', () => {
    const out = JSON.parse(inspect(logFile, '--json', '--prices', pricesFile).stdout) as {
      prices: TokenPrices;
      rows: { usage: unknown }[];
      usage: {
        steps: { step: number; cost: number; cacheShare?: number }[];
        total: { cost: number };
      };
    };
    expect(out.prices).toEqual(sonnet);
    expect(out.usage.steps.map((s) => s.step)).toEqual([2, 4, 8]);
    expect(out.usage.steps.map((s) => s.cost)).toEqual([cost(0), cost(1), cost(3)]);
    expect(out.usage.steps[1]?.cacheShare).toBe(1100 / 1300);
    expect(out.usage.steps[2]).not.toHaveProperty('cacheShare');
    expect(out.usage.total.cost).toBeCloseTo(cost(0) + cost(1) + cost(3), 12);
    expect(out.rows[2]?.usage).toEqual({ calls: 1, ...USAGE_CALLS[0] });
    const unpriced = JSON.parse(inspect(logFile, '--json').stdout) as Record<string, unknown>;
    expect(unpriced).not.toHaveProperty('prices');
    expect(JSON.stringify(unpriced['usage'])).not.toContain('cost');
  });
});

describe('--prices: one step and the page', () => {
  it('--at N shows the step’s usage line (text and JSON); a step without usage shows none', () => {
    const at4 = inspect(logFile, '--at', '4', '--prices', pricesFile);
    expect(at4.stdout).toContain(
      `usage: sent 1300 tokens, 84.6% from cache, 150 written to cache, 15 out, cost ${costText(cost(1))}\n`,
    );
    expect(inspect(logFile, '--at', '5', '--prices', pricesFile).stdout).not.toContain('usage');
    const json = JSON.parse(inspect(logFile, '--at', '4', '--json', '--prices', pricesFile).stdout);
    expect(json.usage).toEqual({
      calls: 1,
      ...USAGE_CALLS[1],
      cacheShare: 1100 / 1300,
      cost: cost(1),
    });
    expect(JSON.parse(inspect(logFile, '--at', '5', '--json').stdout).usage).toBeNull();
  });

  it('--html carries the prices into the page’s data; without them the data has none', () => {
    const page = join(dir, 'page.html');
    expect(inspect(logFile, '--html', page, '--prices', pricesFile).code).toBe(0);
    const data = (html: string) =>
      JSON.parse(
        html.replace(/^.*?<script id="inspector-data">/s, '').replace(/<\/script>.*$/s, ''),
      ) as PageData;
    expect(data(readFileSync(page, 'utf8')).prices).toEqual(sonnet);
    expect(inspect(logFile, '--html', page).code).toBe(0);
    expect(data(readFileSync(page, 'utf8'))).not.toHaveProperty('prices');
  });
});

describe('--prices: a bad file is a usage error naming the file, the field and the value', () => {
  const cases: readonly [string, string | null, string][] = [
    ['missing.json', null, 'cannot read the file: ENOENT'],
    ['not-json.json', '{ input: 3 }', 'not JSON: '],
    ['array.json', '[3, 0.3, 3.75, 15]', 'prices must be an object, received an array'],
    ['string.json', '"3"', 'prices must be an object, received "3"'],
    [
      'missing-field.json',
      '{"input": 3, "cachedInput": 0.3, "output": 15}',
      'prices.cacheWrite must be a finite number of at least 0 (per million tokens), received undefined',
    ],
    [
      'negative.json',
      '{"input": 3, "cachedInput": -0.3, "cacheWrite": 3.75, "output": 15}',
      'prices.cachedInput must be a finite number of at least 0 (per million tokens), received -0.3',
    ],
    [
      'text.json',
      '{"input": 3, "cachedInput": 0.3, "cacheWrite": 3.75, "output": "15"}',
      'prices.output must be a finite number of at least 0 (per million tokens), received "15"',
    ],
    [
      'huge.json',
      '{"input": 1e999, "cachedInput": 0.3, "cacheWrite": 3.75, "output": 15}',
      'prices.input must be a finite number of at least 0 (per million tokens), received Infinity',
    ],
  ];
  it.each(cases)('%s', (name, text, problem) => {
    const file = join(dir, name);
    if (text !== null) writeFileSync(file, text);
    for (const mode of [[], ['--json'], ['--at', '2'], ['--html', join(dir, 'never.html')]]) {
      const result = inspect(logFile, ...mode, '--prices', file);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`conversation-memory: --prices ${file}: ${problem}`);
      expect(result.stderr).toContain(USAGE);
    }
  });

  it('--prices without a file is a usage error', () => {
    for (const argv of [
      [logFile, '--prices'],
      [logFile, '--prices='],
    ]) {
      const result = inspect(...argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--prices expects the JSON file of prices (--prices FILE)');
    }
  });

  it('--help documents --prices; a misspelt one gets a suggestion', () => {
    expect(inspect('--help').stdout).toContain("--prices P  the JSON file of a model's prices");
    expect(inspect(logFile, '--price', pricesFile).stderr).toContain('(did you mean --prices?)');
  });
});

describe('docs/example-usage-log.json', () => {
  it('is the recorded agent run of the tests (its first 8 actions), as the inspector doc shows it', async () => {
    const committed = readFileSync(`${rootDir}docs/example-usage-log.json`, 'utf8');
    expect(committed).toBe(
      `${JSON.stringify(encodeEnvelope(fork(await usageLog(), 8)), null, 2)}\n`,
    );
    expect(JSON.parse(readFileSync(`${rootDir}docs/example-prices.json`, 'utf8'))).toEqual(sonnet);
  });
});
