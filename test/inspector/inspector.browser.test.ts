/**
 * The inspector page end to end in headless Chromium (Debian's `chromium`, driven by
 * playwright-core; no browser is downloaded): a page written by `inspect --html` for the recorded
 * conversation, stepped with the keyboard, the slider and the step list; the window, trimmed
 * markers, token figures and the chart's marker checked against the shared model at each step;
 * hostile text shown as text; no request leaves the page; "fork here" read back by the CLI. The
 * layout as a user sees it: controls that never move while stepping, a chart legend, a trimmed
 * message struck through but not its rule, columns that fit an 820 px window, and what a summary
 * chunk covers when part of its range is still in the window.
 * Fails (never skips) when Chromium cannot start. Screenshots: test/.artifacts/.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendAction,
  encodeEnvelope,
  fork,
  memoryActions,
  userMessage,
} from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';
import {
  modelViewAt,
  stepKnowledge,
  type StepModelView,
  timelineRows,
  viewRows,
  windowAt,
} from '../../src/inspector/model';
import { launchChromium } from '../support/chromium';
import { pageTemplate } from '../support/inspectorPage';
import { knowledgeLog, recordedLog, summarizedLog, viewLog } from '../support/inspectorLog';

const artifacts = fileURLToPath(new URL('../.artifacts/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cm-page-e2e-'));
const HOSTILE = '</script><script>alert(1)</script><!-- \u2028 <img src=x onerror=alert(2)>';
const log = appendAction(recordedLog(), memoryActions.messageAdded(userMessage(HOSTILE)));
const input = join(dir, 'recorded.json');
writeFileSync(input, JSON.stringify(encodeEnvelope(log), null, 2));
const pageFile = join(dir, 'recorded.html');
const summarized = summarizedLog();
const summarizedInput = join(dir, 'summarized.json');
writeFileSync(summarizedInput, JSON.stringify(encodeEnvelope(summarized), null, 2));
const summarizedPage = join(dir, 'summarized.html');
const repaired = viewLog();
const repairedInput = join(dir, 'repaired.json');
writeFileSync(repairedInput, JSON.stringify(encodeEnvelope(repaired), null, 2));
const repairedPage = join(dir, 'repaired.html');
const learned = knowledgeLog();
const learnedInput = join(dir, 'learned.json');
writeFileSync(learnedInput, JSON.stringify(encodeEnvelope(learned), null, 2));
const learnedPage = join(dir, 'learned.html');

const io = (argv: string[], template = '') => ({
  argv,
  readText: (file: string) => readFileSync(file, 'utf8'),
  isTTY: false,
  env: {},
  pageTemplate: () => template,
  writeText: (file: string, text: string) => writeFileSync(file, text),
});

let browser: Browser;
let page: Page;
const requests: string[] = [];
const dialogs: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  const template = await pageTemplate();
  const made = runInspect(io(['inspect', input, '--html', pageFile], template));
  expect(made.code, made.stderr).toBe(0);
  const madeToo = runInspect(io(['inspect', summarizedInput, '--html', summarizedPage], template));
  expect(madeToo.code, madeToo.stderr).toBe(0);
  const madeThree = runInspect(io(['inspect', repairedInput, '--html', repairedPage], template));
  expect(madeThree.code, madeThree.stderr).toBe(0);
  const madeFour = runInspect(io(['inspect', learnedInput, '--html', learnedPage], template));
  expect(madeFour.code, madeFour.stderr).toBe(0);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page.on('request', (request) => requests.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(pathToFileURL(pageFile).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  mkdirSync(artifacts, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The model view column as the page shows it, one word per bubble: `summary`, a window position,
 * `answer <call id>`, or `omitted <position> <reason>`.
 */
const shownView = (on: Page) =>
  on.evaluate(() =>
    Array.from(document.querySelectorAll('#view .bubble')).map((bubble) => {
      const position = bubble.getAttribute('data-position');
      if (bubble.classList.contains('omitted')) {
        return `omitted ${position} ${bubble.getAttribute('data-reason')}`;
      }
      if (bubble.classList.contains('answered'))
        return `answer ${bubble.getAttribute('data-answers')}`;
      return String(position);
    }),
  );

/** The same words from the shared model. */
const expectedView = (view: StepModelView) =>
  viewRows(view).map((row) => {
    if (row.kind === 'omitted') {
      return `omitted ${row.change.position ?? 'answer'} ${row.change.reason}`;
    }
    const { entry } = row;
    if (entry.kind === 'summary' || entry.kind === 'knowledge') return entry.kind;
    if (entry.kind === 'answer') return `answer ${entry.answers}`;
    return String(entry.position);
  });

/** What the page shows of the current step, read from the DOM. */
const shown = () =>
  page.evaluate(() => {
    const all = (selector: string, attribute: string) =>
      Array.from(document.querySelectorAll(selector)).map((node) => node.getAttribute(attribute));
    const marker = document.getElementById('chart-marker');
    const tokensLine = document.querySelector('polyline.tokens')?.getAttribute('points') ?? '';
    return {
      step: document.body.dataset['step'],
      positions: all('#window .bubble', 'data-position'),
      tokens: all('#window .bubble', 'data-tokens').map(Number),
      pinned: all('#window .bubble.pinned', 'data-position'),
      summaries: all('#window .bubble.summary', 'data-position'),
      groups: all('#window .group', 'data-group').map(Number),
      trimmedRules: all('#trimmed .bubble', 'data-rule'),
      trimmedPositions: all('#trimmed .bubble', 'data-position').map(Number),
      figures: document.getElementById('figures')?.textContent ?? '',
      slider: (document.getElementById('slider') as HTMLInputElement).value,
      markerStep: marker?.getAttribute('data-step'),
      markerX: marker?.getAttribute('x1'),
      points: tokensLine.split(' ').map((p) => p.split(',')[0]),
      selectedRow: document.querySelector('.step.selected')?.getAttribute('data-step'),
      diff: document.getElementById('diff')?.textContent ?? '',
      label: document.getElementById('step-label')?.textContent ?? '',
      about: document.getElementById('about')?.textContent ?? '',
    };
  });

/** Checks the page at step `n` against the shared model, and saves a screenshot. */
const check = async (n: number) => {
  await page.waitForSelector(`body[data-step="${n}"]`);
  const view = windowAt(log, n);
  const got = await shown();
  expect(got.step).toBe(String(n));
  expect(got.slider).toBe(String(n));
  expect(got.selectedRow).toBe(String(n));
  expect(got.positions).toEqual(
    view.entries.map((e) => (e.position === null ? 'summary' : String(e.position))),
  );
  expect(got.tokens).toEqual(view.entries.map((e) => e.tokens));
  expect(got.pinned).toEqual(view.entries.filter((e) => e.pinned).map((e) => String(e.position)));
  expect(got.summaries).toEqual(view.summary === null ? [] : ['summary']);
  expect(got.groups).toEqual([
    ...new Set(view.entries.flatMap((e) => (e.group === null ? [] : [e.group]))),
  ]);
  expect(got.trimmedRules).toEqual(view.trimmed.map((t) => t.rule));
  expect(got.trimmedPositions).toEqual(view.trimmed.map((t) => t.position));
  const { row } = view;
  expect(got.figures).toContain(
    `window ${row.messages}/${row.maxMessages} messages · ${row.tokens}/${row.maxTokens} tokens`,
  );
  expect(got.markerStep).toBe(String(n));
  expect(got.markerX).toBe(got.points[n]);
  // Steps are counted as the CLI counts them: step n is the state after the nth action.
  expect(got.label).toBe(`step ${n} of ${log.length}: ${row.label}`);
  expect(got.about).toContain(`: event log, ${log.length} actions (steps 0–${log.length}); `);
  // A log without knowledge shows no knowledge panel.
  expect(await page.locator('#knowledge-panel').isHidden()).toBe(true);
  // The model view column, for the default target, beside the window.
  expect(await shownView(page)).toEqual(expectedView(modelViewAt(log, n, 'openai')));
  await page.screenshot({ path: join(artifacts, `inspector-step-${n}.png`) });
  return { got, view };
};

describe('the inspector page in Chromium', () => {
  it('steps with the keyboard, the slider and the list; shows windows, trims, figures, marker', async () => {
    await check(0);
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    const six = await check(6);
    expect(six.got.trimmedRules).toEqual(['messageLimit', 'startOn']);
    await page.locator('#slider').fill('8');
    const eight = await check(8);
    expect(eight.got.summaries).toEqual(['summary']);
    expect(eight.got.pinned).toEqual(['0']);
    expect(eight.got.groups).toEqual([4]);
    expect(eight.got.diff).toContain('summary added: The user is Alice.');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const ten = await check(10);
    expect(ten.got.trimmedRules).toEqual(['tokenLimit', 'tokenLimit', 'tokenLimit']);
    await page.keyboard.press('End');
    await check(log.length);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    // Step 14 ends with a call (c4) no result answers: the view answers it.
    await page.keyboard.press('ArrowLeft');
    const fourteen = await check(14);
    expect(await shownView(page)).toEqual(['summary', '0', '12', '13', '14', 'answer c4']);
    expect(fourteen.got.positions).toEqual(['summary', '0', '12', '13', '14']);
    await page.keyboard.press('ArrowRight');
    const fifteen = await check(15);
    expect(fifteen.got.trimmedRules).toEqual(['toolPairBoundary', 'toolPairBoundary']);
    await page.locator('.step[data-step="16"]').click();
    await check(16);
    await page.keyboard.press('Home');
    await check(0);
    await page.keyboard.press('ArrowLeft');
    await check(0);
  });

  it('shows hostile text as text: no element made from it, no dialog', async () => {
    await page.keyboard.press('End');
    await page.waitForSelector(`body[data-step="${log.length}"]`);
    const texts = await page.locator('#window .bubble .text').allTextContents();
    expect(texts).toContain(HOSTILE);
    expect(texts).toContain('<img src=x onerror=alert(1)>\u001b[31m');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('"fork here" downloads a log that inspect reads back', async () => {
    await page.locator('#slider').fill('10');
    await page.waitForSelector('body[data-step="10"]');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#fork').click(),
    ]);
    expect(download.suggestedFilename()).toBe('recorded-fork-at-10.json');
    const saved = join(dir, 'fork.json');
    await download.saveAs(saved);
    const result = runInspect(io(['inspect', saved, '--json']));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).rows).toEqual(timelineRows(fork(log, 10)));
    expect(readFileSync(saved, 'utf8')).toBe(
      `${JSON.stringify(encodeEnvelope(fork(log, 10)), null, 2)}\n`,
    );
  });

  it('no request leaves the page: only the file itself (and the fork download blob)', () => {
    expect(requests.length).toBeGreaterThan(0);
    for (const url of requests) expect(url).toMatch(/^(file:|data:|blob:)/);
    expect(requests.filter((url) => url.startsWith('file:'))).toEqual([
      pathToFileURL(pageFile).href,
    ]);
  });
});

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The boxes of the page's parts, as the user sees them (getBoundingClientRect). */
const boxes = async <S extends string>(
  on: Page,
  selectors: readonly S[],
): Promise<Record<S, Box>> =>
  (await on.evaluate((list) => {
    const out: Record<string, Box> = {};
    for (const selector of list) {
      const node = document.querySelector(selector);
      if (node === null) throw new Error(`no ${selector}`);
      const { x, y, width, height } = node.getBoundingClientRect();
      out[selector] = { x, y, width, height };
    }
    return out;
  }, selectors)) as Record<S, Box>;

/** Moves `on` to step `n` with the slider, and waits for it. */
const goTo = async (on: Page, n: number) => {
  await on.locator('#slider').fill(String(n));
  await on.waitForSelector(`body[data-step="${n}"]`);
};

/** A new tab on a page file, at a viewport size; ready when its first step is drawn. */
const open = async (file: string, width: number) => {
  const tab = await browser.newPage({ viewport: { width, height: 900 } });
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.goto(pathToFileURL(file).href);
  await tab.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return tab;
};

const CONTROLS = ['#prev', '#slider', '#next', '#fork', '#chart'] as const;

/** Steps whose labels and figures differ most in length (start, long labels, trims, summary). */
const STEPS = [0, 1, 6, 8, 9, 10, 13, 17, 2] as const;

describe('the inspector page as a user sees it', () => {
  it('the slider, the buttons and the chart keep their place and size at every step', async () => {
    for (const width of [1400, 820]) {
      const tab = await open(pageFile, width);
      const first = await boxes(tab, CONTROLS);
      const labels = new Set<string>();
      for (const n of STEPS) {
        await goTo(tab, n);
        labels.add(await tab.locator('#step-label').innerText());
        expect(await boxes(tab, CONTROLS), `step ${n} at ${width} px`).toEqual(first);
      }
      expect(labels.size).toBe(STEPS.length);
      expect(first['#slider'].width).toBeGreaterThan(width / 2);
      await tab.close();
    }
  });

  it('at 820 px the columns fit: the window gets most of the width, nothing overlaps or overflows', async () => {
    const tab = await open(pageFile, 820);
    await goTo(tab, 9);
    const parts = await boxes(tab, ['#steps', '#window-panel', 'main > aside']);
    const steps = parts['#steps'];
    const panel = parts['#window-panel'];
    const aside = parts['main > aside'];
    expect(panel.width).toBeGreaterThanOrEqual(480);
    expect(steps.width).toBeGreaterThanOrEqual(180);
    expect(aside.width).toBeGreaterThanOrEqual(300);
    const overlap = (a: Box, b: Box) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap(steps, panel)).toBe(false);
    expect(overlap(steps, aside)).toBe(false);
    expect(overlap(panel, aside)).toBe(false);
    for (const part of [steps, panel, aside]) expect(part.x + part.width).toBeLessThanOrEqual(820);
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
    await tab.screenshot({ path: join(artifacts, 'inspector-820px-step-9.png'), fullPage: true });
    await tab.close();
    // A wide window keeps three columns side by side.
    const wide = await boxes(page, ['#steps', '#window-panel', 'main > aside']);
    expect(wide['#window-panel'].y).toBe(wide['#steps'].y);
    expect(wide['main > aside'].y).toBe(wide['#steps'].y);
  });

  it("the chart's legend names both lines, in the colours they are drawn in", async () => {
    const legend = await page.evaluate(() => {
      const stroke = (selector: string) =>
        getComputedStyle(document.querySelector(selector) as Element).stroke;
      const item = (name: string) => {
        const li = document.querySelector(`#chart-legend .legend-${name}`) as HTMLElement;
        const swatch = li.querySelector('.swatch') as HTMLElement;
        return { text: li.textContent?.trim(), colour: getComputedStyle(swatch).borderTopColor };
      };
      const box = document.getElementById('chart-legend')?.getBoundingClientRect();
      return {
        tokens: item('tokens'),
        messages: item('messages'),
        tokensStroke: stroke('polyline.tokens'),
        messagesStroke: stroke('polyline.messages'),
        visible: box !== undefined && box.width > 0 && box.height > 0,
      };
    });
    expect(legend.visible).toBe(true);
    expect(legend.tokens.text).toBe('tokens in the window (left scale)');
    expect(legend.messages.text).toBe('messages in the window (right scale)');
    expect(legend.tokens.colour).toBe(legend.tokensStroke);
    expect(legend.messages.colour).toBe(legend.messagesStroke);
    expect(legend.tokens.colour).not.toBe(legend.messages.colour);
  });

  it("a trimmed message's text is struck through; its rule's badge is not", async () => {
    await goTo(page, 9);
    const trimmed = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#trimmed .bubble')).map((bubble) => {
        /** Line-through drawn on a node: its own, or one of its ancestors' (which propagates). */
        const struck = (node: Element | null): boolean => {
          for (let at = node; at !== null && at !== bubble.parentElement; at = at.parentElement) {
            if (getComputedStyle(at).textDecorationLine.includes('line-through')) return true;
          }
          return false;
        };
        return {
          rule: bubble.getAttribute('data-rule'),
          badge: bubble.querySelector('.mark')?.textContent,
          badgeStruck: struck(bubble.querySelector('.mark')),
          textStruck: struck(bubble.querySelector('.text')),
        };
      }),
    );
    expect(trimmed.map((t) => t.rule)).toEqual([
      'messageLimit',
      'messageLimit',
      'messageLimit',
      'startOn',
    ]);
    for (const item of trimmed) {
      expect(item).toEqual({
        rule: item.rule,
        badge: item.rule,
        badgeStruck: false,
        textStruck: true,
      });
    }
  });

  it('the summary panel says what each chunk covers, naming the message of its range still in the window', async () => {
    const tab = await open(summarizedPage, 1400);
    const read = () =>
      tab.evaluate(() => ({
        coverage: Array.from(document.querySelectorAll('#summary .coverage li')).map(
          (li) => li.textContent,
        ),
        window: Array.from(document.querySelectorAll('#window .bubble')).map((b) =>
          b.getAttribute('data-position'),
        ),
        diff: document.querySelector('#diff .diff-summary')?.textContent,
      }));
    await goTo(tab, 11);
    const eleven = await read();
    expect(eleven.window).toContain('2');
    expect(eleven.coverage).toEqual(['covers #0–#1, #3 (3 messages; #2 is in the window)']);
    expect(eleven.diff).toBe('summary added: Alice plans two days in Lyon in May.');
    await goTo(tab, 16);
    const sixteen = await read();
    expect(sixteen.coverage).toEqual([
      'covers #0–#1, #3 (3 messages; #2 is in the window)',
      'covers #4–#5 (2 messages)',
    ]);
    // What this step added, not the whole summary.
    expect(sixteen.diff).toBe('summary added: Day 1 is Vieux Lyon.');
    await goTo(tab, 17);
    expect((await read()).diff).toBe('summary replaced by: Alice: Lyon, May, museums.');
    await tab.close();
    expect(errors).toEqual([]);
  });
});

describe('the model view column: what the model receives, beside the retained window', () => {
  const STEPS_TO_CHECK = [0, 2, 5, 6, 8] as const;

  it('shows the model view of each step for each target, left-out messages and answers marked', async () => {
    const tab = await open(repairedPage, 1400);
    for (const target of ['openai', 'anthropic', 'none'] as const) {
      await tab.locator('#target').selectOption(target);
      await tab.waitForSelector(`body[data-target="${target}"]`);
      for (const n of STEPS_TO_CHECK) {
        await goTo(tab, n);
        expect(await shownView(tab), `${target} at step ${n}`).toEqual(
          expectedView(modelViewAt(repaired, n, target)),
        );
      }
    }
    await tab.locator('#target').selectOption('openai');
    await goTo(tab, 5);
    // The orphan result #4 is in the retained window, and left out of the view.
    expect(
      await tab
        .locator('#window .bubble')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-position'))),
    ).toEqual(['0', '1', '2', '3', '4']);
    expect(await shownView(tab)).toEqual([
      '0',
      '1',
      '2',
      '3',
      'omitted 4 tool-result-without-call',
    ]);
    await goTo(tab, 8);
    expect(await shownView(tab)).toEqual([
      'summary',
      '3',
      'omitted 4 tool-result-without-call',
      '5',
      '6',
      'answer c2\u001b[31m',
    ]);
    expect(await tab.locator('#view-figures').innerText()).toBe(
      'openai: 5 messages sent · 1 left out · 1 answered',
    );
    const marks = await tab.evaluate(() =>
      Array.from(document.querySelectorAll('#view .bubble.omitted, #view .bubble.answered')).map(
        (bubble) => ({
          badge: bubble.querySelector('.mark')?.textContent,
          badgeStruck: getComputedStyle(
            bubble.querySelector('.mark') as Element,
          ).textDecorationLine.includes('line-through'),
          textStruck: getComputedStyle(
            bubble.querySelector('.text') as Element,
          ).textDecorationLine.includes('line-through'),
          title: bubble.getAttribute('title'),
        }),
      ),
    );
    expect(marks).toEqual([
      {
        badge: 'left out: tool-result-without-call',
        badgeStruck: false,
        textStruck: true,
        title: 'left out #4 tool result: tool-result-without-call',
      },
      { badge: 'answered c2\u001b[31m', badgeStruck: false, textStruck: false, title: null },
    ]);
    // Hostile ids, names and text stay text.
    const texts = await tab.locator('#view .bubble .text').allTextContents();
    expect(texts).toContain('\u001b[31mstale 5</script>');
    expect(texts).toContain('→ calc\n<b>x</b>({"a":3,"b":3})  id c2\u001b[31m');
    expect(await tab.locator('#view b, #view script').count()).toBe(0);
    // The target chosen stays while stepping; Anthropic's first-turn rule leaves #3 out.
    await tab.locator('#target').selectOption('anthropic');
    await tab.waitForSelector('body[data-target="anthropic"]');
    await goTo(tab, 7);
    await goTo(tab, 8);
    expect(await shownView(tab)).toEqual([
      'summary',
      'omitted 3 first-message-not-user',
      'omitted 4 tool-result-without-call',
      '5',
      '6',
      'answer c2\u001b[31m',
    ]);
    await tab.screenshot({ path: join(artifacts, 'inspector-model-view-step-8.png') });
    await tab.close();
    expect(errors).toEqual([]);
  });

  it('the model view sits beside the retained window on a wide screen, under it on a narrow one', async () => {
    for (const width of [1400, 820]) {
      const tab = await open(repairedPage, width);
      await goTo(tab, 8);
      const parts = await boxes(tab, ['#retained-column', '#view-column', '#window-panel']);
      const retained = parts['#retained-column'];
      const view = parts['#view-column'];
      const panel = parts['#window-panel'];
      if (width === 1400) {
        expect(view.y).toBe(retained.y);
        expect(view.x).toBeGreaterThanOrEqual(retained.x + retained.width);
        expect(view.width).toBeGreaterThanOrEqual(300);
      } else {
        expect(view.x).toBe(retained.x);
        expect(view.y).toBeGreaterThanOrEqual(retained.y + retained.height);
        expect(view.width).toBeGreaterThanOrEqual(480);
      }
      for (const part of [retained, view]) {
        expect(part.x).toBeGreaterThanOrEqual(panel.x);
        expect(part.x + part.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
      }
      expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await tab.screenshot({
        path: join(artifacts, `inspector-model-view-${width}px.png`),
        fullPage: true,
      });
      await tab.close();
    }
  });
});

describe('the knowledge panel: facts in force, retired at the step, the blocks the model received', () => {
  /** The knowledge panel as the page shows it. */
  const shownKnowledge = (on: Page) =>
    on.evaluate(() => {
      const struck = (node: Element | null): boolean => {
        for (let at = node; at !== null; at = at.parentElement) {
          if (getComputedStyle(at).textDecorationLine.includes('line-through')) return true;
        }
        return false;
      };
      return {
        hidden: (document.getElementById('knowledge-panel') as HTMLElement).hidden,
        inForce: Array.from(document.querySelectorAll('#knowledge-in-force .fact')).map(
          (li) => `${li.getAttribute('data-id')} ${li.lastElementChild?.textContent}`,
        ),
        changes: Array.from(document.querySelectorAll('#knowledge-changes .change')).map((li) => ({
          change: li.getAttribute('data-change'),
          id: li.getAttribute('data-id'),
          reason: li.getAttribute('data-reason'),
          by: li.getAttribute('data-by'),
          badge: li.querySelector('.mark')?.textContent ?? null,
          text: li.querySelector('.fact-text')?.textContent ?? null,
          textStruck: struck(li.querySelector('.fact-text')),
          badgeStruck: struck(li.querySelector('.mark')),
        })),
        blocks: document.getElementById('knowledge-blocks')?.textContent ?? null,
        figures: document.querySelector('#knowledge .knowledge-figures')?.textContent ?? null,
      };
    });

  it('at the step where a relation is superseded: the new fact in force, the old one struck through as superseded', async () => {
    const tab = await open(learnedPage, 1400);
    expect((await shownKnowledge(tab)).hidden).toBe(true); // step 0: no knowledge yet
    await goTo(tab, 7);
    const seven = await shownKnowledge(tab);
    const model = stepKnowledge(learned, 7);
    expect(seven.hidden).toBe(false);
    expect(seven.inForce).toContain('r7 Alice --[works_at]--> Globex');
    expect(seven.inForce).not.toContain('r5 Alice --[works_at]--> Acme');
    expect(seven.changes.find((c) => c.id === 'r5')).toEqual({
      change: 'retired',
      id: 'r5',
      reason: 'superseded',
      by: 'r7',
      badge: 'retired: superseded',
      text: 'Alice --[works_at]--> Acme',
      textStruck: true,
      badgeStruck: false,
    });
    expect(seven.changes.find((c) => c.id === 'r7')).toMatchObject({
      change: 'added',
      text: 'Alice --[works_at]--> Globex',
      textStruck: false,
    });
    expect(seven.changes.map((c) => c.change)).toEqual(model?.changes.map((c) => c.change));
    expect(seven.blocks).toBe(model?.blocks.text);
    expect(seven.figures).toBe(
      'in force: 3 entities (1 attribute), 2 relations, 0 entries · time 1970-01-01T00:00:02.000Z',
    );
    // The model view sends the same blocks first.
    expect(await shownView(tab)).toEqual(expectedView(modelViewAt(learned, 7, 'openai')));
    expect((await shownView(tab))[0]).toBe('knowledge');
    expect(await tab.locator('#view .bubble.knowledge .text').textContent()).toBe(
      model?.blocks.text,
    );
    // Hostile fact text stays text.
    expect(seven.inForce).toContain('e4 Eve\u001b[31m</script><b>x</b> [person]');
    expect(await tab.locator('#knowledge b, #knowledge script').count()).toBe(0);
    await tab.screenshot({ path: join(artifacts, 'inspector-knowledge-step-7.png') });
    // Stepping on: an entry's TTL runs out (struck through), an entry forgotten, a clear.
    await goTo(tab, 11);
    expect((await shownKnowledge(tab)).changes.find((c) => c.id === 'k2')).toMatchObject({
      change: 'expired',
      badge: 'expired',
      textStruck: true,
    });
    await goTo(tab, 12);
    expect((await shownKnowledge(tab)).changes.find((c) => c.id === 'k1')).toMatchObject({
      change: 'retired',
      reason: 'forgotten',
      badge: 'retired: forgotten',
    });
    await goTo(tab, 13);
    const cleared = await shownKnowledge(tab);
    expect(cleared.inForce).toEqual([]);
    expect(cleared.changes.every((c) => c.change === 'dropped' && c.textStruck)).toBe(true);
    expect(cleared.blocks).toBe('(no blocks)');
    expect(await shownView(tab)).not.toContain('knowledge');
    await tab.close();
    expect(errors).toEqual([]);
  });

  it('at 820 px the knowledge panel fits: nothing overflows the window', async () => {
    const tab = await open(learnedPage, 820);
    await goTo(tab, 10);
    const parts = await boxes(tab, ['#knowledge-panel', 'main > aside', '#knowledge-blocks']);
    expect(parts['#knowledge-panel'].width).toBeGreaterThan(0);
    for (const part of Object.values(parts)) expect(part.x + part.width).toBeLessThanOrEqual(820);
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
    await tab.screenshot({
      path: join(artifacts, 'inspector-knowledge-820px.png'),
      fullPage: true,
    });
    await tab.close();
  });
});
