/**
 * The inspector page's pure parts: the embedding (hostile text stays inside its `<script>`), the
 * caching stepper (equal to windowAt at every step, one reducer step per move), the table
 * tokenizer for encoding logs, "fork here", and `inspect --html` writing real files.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  encodeEnvelope,
  type EventLog,
  fork,
  memoryActions,
  userMessage,
} from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';
import { createStepper, parseInput, timelineRows, windowAt } from '../../src/inspector/model';
import { pageDataOf, type PageData } from '../../src/inspector/page/data';
import { DATA_SLOT, renderPage, scriptSafeJson } from '../../src/inspector/page/embed';
import { forkText, pageLogOf } from '../../src/inspector/page/pageLog';
import { pageTemplate } from '../support/inspectorPage';
import { RECORDED_CONFIG, recordedActions, recordedLog } from '../support/inspectorLog';

const HOSTILE = [
  '</script><script>alert(1)</script>',
  '<!-- <script>',
  'line\u2028separator\u2029paragraph',
  '<img src=x onerror=alert(1)>',
  '</SCRIPT >',
];

const dir = mkdtempSync(join(tmpdir(), 'cm-page-unit-'));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The JSON between `<script id="inspector-data" …>` and `</script>` of a page. */
const embedded = (html: string): string => {
  const open = html.indexOf('<script id="inspector-data" type="application/json">');
  const start = html.indexOf('>', open) + 1;
  return html.slice(start, html.indexOf('</script>', start));
};

const withHostile = (log: EventLog): EventLog =>
  HOSTILE.reduce(
    (acc, text) => appendAction(acc, memoryActions.messageAdded(userMessage(text))),
    log,
  );

describe('embedding: the data cannot leave its <script> element', () => {
  it('escapes <, >, &, U+2028 and U+2029, and parses back to the same value', () => {
    for (const text of HOSTILE) {
      const json = scriptSafeJson({ text });
      expect(json).not.toMatch(/<|>|&|\u2028|\u2029/);
      expect(JSON.parse(json)).toEqual({ text });
    }
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = scriptSafeJson(value);
        expect(json).not.toMatch(/<\/script|<!--|\u2028|\u2029/i);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('puts the data in the built page once; hostile messages end where the element ends', async () => {
    const template = await pageTemplate();
    expect(template.split(DATA_SLOT)).toHaveLength(2);
    const data = pageDataOf('hostile.json', {
      kind: 'log',
      log: withHostile(recordedLog()),
      session: null,
    });
    const html = renderPage(template, data);
    // One closing tag per script element, as in the template: nothing closed one early.
    expect(html.match(/<\/script/gi)?.length).toBe(template.match(/<\/script/gi)?.length);
    expect(html.match(/<!--/g)).toBeNull();
    expect(html).not.toMatch(/\u2028|\u2029/);
    expect(JSON.parse(embedded(html))).toEqual(JSON.parse(JSON.stringify(data)));
    // A `$&` in a message is not a replacement pattern.
    const dollar = pageDataOf('d.json', {
      kind: 'log',
      log: appendAction(recordedLog(), memoryActions.messageAdded(userMessage("$& $' $`"))),
      session: null,
    });
    expect(JSON.parse(embedded(renderPage(template, dollar)))).toEqual(
      JSON.parse(JSON.stringify(dollar)),
    );
  });

  it('refuses a template without its slot, or with two', () => {
    const data = pageDataOf('x.json', { kind: 'log', log: recordedLog(), session: null });
    expect(() => renderPage('<html></html>', data)).toThrow(/data slot exactly once/);
    expect(() => renderPage(`${DATA_SLOT}${DATA_SLOT}`, data)).toThrow(/data slot exactly once/);
  });
});

describe('the stepper: windows cached per step', () => {
  const log = withHostile(recordedLog());

  it('gives windowAt at every step, in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: log.length }), { maxLength: 40 }), (steps) => {
        const stepper = createStepper(log, { states: 4, views: 3 });
        for (const n of steps) expect(stepper.viewAt(n)).toEqual(windowAt(log, n));
      }),
    );
  });

  it('moves to a neighbouring step with one reducer step, and a cached step with none', () => {
    const stepper = createStepper(log);
    stepper.viewAt(10);
    const before = stepper.replayed();
    stepper.viewAt(11);
    expect(stepper.replayed() - before).toBe(1);
    stepper.viewAt(10);
    stepper.viewAt(11);
    expect(stepper.replayed() - before).toBe(1);
    expect(() => stepper.viewAt(log.length + 1)).toThrow(RangeError);
  });
});

describe('encoding logs: the page replays with the token counts the CLI recorded', () => {
  const config = { ...RECORDED_CONFIG, tokenizer: 'o200k_base', maxTokens: 60 } as const;
  let log = createEventLog(config, { snapshotEvery: 3 });
  for (const action of recordedActions()) log = appendAction(log, action);
  log = appendAction(log, memoryActions.summarySet('Alice likes Kyoto.'));
  const data = JSON.parse(
    JSON.stringify(pageDataOf('o200k.json', { kind: 'log', log, session: null })),
  ) as PageData;

  it('gives the same windows as the real encoding at every step', () => {
    expect(data.tokenizer).toBe('o200k_base');
    expect(data.tokenTable).not.toBeNull();
    const stepper = createStepper(pageLogOf(data));
    for (let n = 0; n <= log.length; n++) {
      const { config: pageConfig, ...view } = stepper.viewAt(n);
      const { config: realConfig, ...real } = windowAt(log, n);
      expect(view).toEqual(real);
      expect({ ...pageConfig, tokenizer: 'o200k_base' }).toEqual(realConfig);
    }
  });

  it('forks with the original tokenizer: inspect reads the fork back', () => {
    const text = forkText(data, pageLogOf(data), 7);
    const read = parseInput(text);
    if (E.isLeft(read)) throw read.left;
    expect(read.right.log.head.config.tokenizer).toBe('o200k_base');
    expect(timelineRows(read.right.log)).toEqual(timelineRows(fork(log, 7)));
  });

  it('heuristic logs need no table', () => {
    expect(
      pageDataOf('h.json', { kind: 'log', log: recordedLog(), session: null }).tokenTable,
    ).toBeNull();
  });
});

describe('inspect --html OUT', () => {
  const input = join(dir, 'log.json');
  const inputText = `${JSON.stringify(encodeEnvelope(recordedLog()), null, 2)}\n`;
  writeFileSync(input, inputText);

  const run = async (argv: string[]) => {
    const template = await pageTemplate();
    return runInspect({
      argv,
      readText: (file) => readFileSync(file, 'utf8'),
      isTTY: false,
      env: {},
      pageTemplate: () => template,
      writeText: (file, text) => writeFileSync(file, text),
      sameFile: (a, b) => a === b,
    });
  };

  it('writes the page with the data embedded, and leaves the input as it was', async () => {
    const out = join(dir, 'page.html');
    const result = await run(['inspect', input, '--html', out]);
    expect(result).toEqual({
      code: 0,
      stdout: `wrote ${out}: the inspector page, 16 actions (steps 0–16)\n`,
      stderr: '',
    });
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const data = JSON.parse(embedded(html)) as PageData;
    expect(data.rows).toEqual(timelineRows(recordedLog()));
    expect(data.file).toBe(input);
    expect(readFileSync(input, 'utf8')).toBe(inputText);
  });

  it('refuses to write over the input file, and says why', async () => {
    const result = await run(['inspect', input, '--html', input]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `conversation-memory inspect: ${input}: --html ${input} is the input file: not written over\n`,
    );
    expect(readFileSync(input, 'utf8')).toBe(inputText);
  });

  it('exits 1 naming OUT when it cannot be written', async () => {
    const out = join(dir, 'missing-folder', 'page.html');
    const result = await run(['inspect', input, '--html', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^conversation-memory inspect: .*log\\.json: --html: cannot write .*missing-folder/page\\.html: ENOENT`,
      ),
    );
  });

  it('is a usage error with --json or --at, or without OUT', async () => {
    for (const argv of [
      ['inspect', input, '--html', join(dir, 'x.html'), '--json'],
      ['inspect', input, '--at', '3', '--html', join(dir, 'x.html')],
      ['inspect', input, '--html'],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--html/);
    }
  });

  it('the command refuses OUT that is the input by another name (a relative path, a symlink)', async () => {
    const link = join(dir, 'link.json');
    symlinkSync(input, link);
    const tsx = join(root, 'node_modules/.bin/tsx');
    const main = join(root, 'src/cli/main.ts');
    const cases: [string, string][] = [
      [input, link],
      [input, join(dir, '.', 'log.json')],
    ];
    for (const [from, out] of cases) {
      const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
        (resolve) =>
          execFile(tsx, [main, 'inspect', from, '--html', out], { cwd: dir }, (error, _o, stderr) =>
            resolve({ code: error === null ? 0 : (error.code as number), stderr }),
          ),
      );
      expect(code).toBe(1);
      expect(stderr).toContain('is the input file: not written over');
    }
    expect(readFileSync(input, 'utf8')).toBe(inputText);
  });
});
