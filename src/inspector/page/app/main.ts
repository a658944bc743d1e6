/// <reference lib="dom" />
/**
 * The inspector page: reads the data the CLI embedded, steps through the log with the shared
 * model (windows and model views cached per step), and renders everything as text.
 */
import { createStepper } from '../../model/stepper';
import { stepOfText, stepsText } from '../../model/stepsText';
import type { PageData } from '../data';
import { forkText, pageLogOf } from '../pageLog';
import { drawChart } from './chart';
import { byId, ownsArrowKeys } from './dom';
import type { MaskToolResults, ViewTarget } from '../../../view/viewTypes';
import { VIEW_TARGETS } from '../../model/stepModelView';
import { renderKnowledge } from './knowledgePanel';
import { renderDiff, renderModelView, renderSummary, renderTrimmed, renderWindow } from './render';
import { createStepList } from './stepList';
import { createUsagePanel } from './usagePanel';
import './style.css';

const KINDS: Readonly<Record<PageData['kind'], string>> = {
  log: 'event log',
  state: 'state (envelope)',
  rawState: 'raw state',
  dict: 'toDict memory',
  session: 'session file',
};

const limit = (value: number, max: number | null) => `${value}/${max ?? 'none'}`;

const start = (): void => {
  const data = JSON.parse(byId('inspector-data').textContent ?? 'null') as PageData;
  const log = pageLogOf(data);
  const stepper = createStepper(log);
  const rows = data.rows;
  const last = rows.length - 1;
  const config = data.log.head.config;
  byId('about').textContent =
    `${data.file}: ${KINDS[data.kind]}, ${stepsText(last)}; ` +
    `maxMessages ${config.maxMessages}, maxTokens ${config.maxTokens ?? 'none'}, ` +
    `tokenizer ${data.tokenizer}, toolPairs ${config.toolPairs}` +
    `${config.pinSystem ? ', pinSystem' : ''}${config.startOn === null ? '' : `, startOn ${config.startOn}`}` +
    `${config.prune === 'redundant' ? `, prune redundant (threshold ${config.pruneThreshold}, embedder ${config.embedder})` : ''}` +
    `${config.trimTo === 1 ? '' : `, trimTo ${config.trimTo}`}`;

  const slider = byId<HTMLInputElement>('slider');
  slider.max = String(last);
  let current = -1;
  const targetSelect = byId<HTMLSelectElement>('target');
  let target: ViewTarget = VIEW_TARGETS[0] as ViewTarget;
  targetSelect.value = target;

  const usage = createUsagePanel(
    {
      bar: byId('usage-bar'),
      total: byId('usage-total'),
      field: byId<HTMLInputElement>('prices'),
      problem: byId('prices-problem'),
      step: byId('step-usage'),
    },
    rows,
    data.prices,
  );

  const maskField = byId<HTMLInputElement>('mask-keep-last');
  let mask: MaskToolResults | undefined;
  const recallField = byId<HTMLInputElement>('recall-budget');
  let recall: number | undefined;

  const showModelView = (): void => {
    renderModelView(
      byId('view'),
      byId('view-figures'),
      stepper.modelViewAt(current, target, mask, recall),
    );
    document.body.dataset['target'] = target;
    document.body.dataset['mask'] = mask === undefined ? 'off' : String(mask.keepLast);
    document.body.dataset['recall'] = recall === undefined ? 'off' : String(recall);
  };

  const go = (target: number): void => {
    const n = Math.min(last, Math.max(0, Math.round(target)));
    if (n === current) return;
    current = n;
    const view = stepper.viewAt(n);
    const previous = n > 0 ? stepper.viewAt(n - 1) : null;
    slider.value = String(n);
    const label = byId('step-label');
    label.textContent = `${stepOfText(n, last)}: ${view.row.label}`;
    label.title = label.textContent;
    const summaryTokens = view.entries.find((e) => e.kind === 'summary')?.tokens;
    byId('figures').textContent =
      `window ${limit(view.row.messages, view.row.maxMessages)} messages · ` +
      `${limit(view.row.tokens, view.row.maxTokens)} tokens` +
      (summaryTokens === undefined ? '' : ` (+${summaryTokens} summary)`) +
      (view.row.held === 0 ? '' : ` · ${view.row.held} held`);
    usage.show(n);
    renderWindow(byId('window'), view);
    renderTrimmed(byId('trimmed'), view.trimmed);
    // The knowledge first: the model view reuses its blocks.
    renderKnowledge(byId('knowledge-panel'), byId('knowledge'), stepper.knowledgeAt(n));
    showModelView();
    renderSummary(byId('summary'), view);
    renderDiff(byId('diff'), view, previous);
    chart.mark(n);
    list.select(n);
    document.body.dataset['step'] = String(n);
  };

  const chart = drawChart(byId('chart') as unknown as SVGSVGElement, rows, go);
  const list = createStepList(byId('steps'), byId('steps-inner'), rows, go);
  slider.addEventListener('input', () => go(Number(slider.value)));
  targetSelect.addEventListener('change', () => {
    target = VIEW_TARGETS.find((name) => name === targetSelect.value) ?? target;
    showModelView();
  });
  maskField.addEventListener('input', () => {
    // A count (0, 1, 2, …) masks; anything else (empty, negative, a fraction) does not.
    const text = maskField.value.trim();
    mask = /^[0-9]{1,6}$/.test(text) ? { keepLast: Number(text) } : undefined;
    showModelView();
  });
  recallField.addEventListener('input', () => {
    // A budget (1, 2, …) recalls; anything else (empty, 0, negative, a fraction) does not.
    const text = recallField.value.trim();
    recall = /^[1-9][0-9]{0,6}$/.test(text) ? Number(text) : undefined;
    showModelView();
  });
  byId('prev').addEventListener('click', () => go(current - 1));
  byId('next').addEventListener('click', () => go(current + 1));
  document.addEventListener('keydown', (event) => {
    const moves: Record<string, () => number> = {
      ArrowLeft: () => current - 1,
      ArrowRight: () => current + 1,
      Home: () => 0,
      End: () => last,
    };
    const move = moves[event.key];
    if (move === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    // In the target selector or the mask field, the keys are the control's own.
    if (ownsArrowKeys(event.target)) return;
    event.preventDefault();
    go(move());
  });
  byId('fork').addEventListener('click', () => {
    const blob = new Blob([forkText(data, log, current)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const base = (data.file.split(/[\\/]/).pop() ?? 'log').replace(/\.json$/i, '');
    const link = document.createElement('a');
    link.href = url;
    link.download = `${base}-fork-at-${current}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  go(0);
  document.body.dataset['ready'] = 'true';
};

try {
  start();
} catch (error) {
  const box = byId('error');
  box.hidden = false;
  box.textContent = `The inspector could not start: ${error instanceof Error ? error.message : String(error)}`;
  document.body.dataset['ready'] = 'error';
}
