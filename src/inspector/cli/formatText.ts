import { escapeText } from '../../util/escapeText';
import type { MemoryConfig } from '../../model/config';
import { messageLabel } from '../model/actionLabel';
import { coverageText } from '../model/coverageText';
import { stepOfText, stepsText } from '../model/stepsText';
import { summaryDiff } from '../model/summaryDiff';
import { viewChangeText } from '../model/viewChangeText';
import type {
  Inspected,
  StepModelView,
  SummaryChange,
  TimelineRow,
  TrimmedCount,
  UsageFigures,
  WindowEntry,
  WindowView,
} from '../model/types';
import type { StepKnowledge } from '../model/knowledgeTypes';
import { usageTotal } from '../model/stepUsage';
import { usageFigures, usageText } from '../model/usageFigures';
import type { TokenPrices } from '../../tokens/estimateCost';
import { knowledgeLines } from './knowledgeLines';
import type { Style } from './style';

const KIND_NAMES: Readonly<Record<Inspected['kind'], string>> = {
  log: 'event log',
  state: 'state (envelope)',
  rawState: 'raw state',
  dict: 'toDict memory',
  session: 'session file',
};

const limit = (value: number, max: number | null): string =>
  `${value}/${max === null ? 'none' : max}`;

const trimmedText = ({ count, byRule }: TrimmedCount): string =>
  count === 0
    ? ''
    : `${count} (${Object.entries(byRule)
        .map(([rule, n]) => `${rule} ${n}`)
        .join(', ')})`;

/** A trimmed message's rule, with the twin it repeats under `'redundant'` (`redundant of #9`). */
const ruleLabel = (gone: { readonly rule: string; readonly duplicateOf?: number }): string =>
  gone.duplicateOf === undefined ? gone.rule : `${gone.rule} of #${gone.duplicateOf}`;

/**
 * A step's summary change in a few words: what the step added to the summary (not the whole
 * summary), or that it replaced or cleared it; with what a committed chunk covers.
 */
const summaryText = (change: SummaryChange | null, windowPositions: readonly number[]): string => {
  if (change === null) return '';
  const diff = summaryDiff(change.previous, change.summary);
  if (diff.kind === 'cleared') return 'summary cleared';
  const covers =
    change.coverage === null ? '' : ` ${coverageText(change.coverage, windowPositions)},`;
  if (diff.kind === 'replaced') {
    return `summary${covers} replaced by "${escapeText(change.summary ?? '', 40)}"`;
  }
  const cut = diff.dropped === 0 ? '' : ` (its oldest ${diff.dropped} characters cut)`;
  return `summary${covers} added "${escapeText(diff.text, 40)}"${cut}`;
};

const configText = (config: MemoryConfig): string =>
  [
    `maxMessages ${config.maxMessages}`,
    `maxTokens ${config.maxTokens ?? 'none'}`,
    `tokenizer ${escapeText(config.tokenizer, 30)}`,
    `toolPairs ${config.toolPairs}`,
    ...(config.pinSystem ? ['pinSystem'] : []),
    ...(config.startOn === null ? [] : [`startOn ${config.startOn}`]),
    // A log written before the pruning fields has none: the default, 'oldest', says nothing.
    ...(config.prune === 'redundant'
      ? [
          `prune redundant (threshold ${config.pruneThreshold}, embedder ${escapeText(config.embedder, 30)})`,
        ]
      : []),
    // Trimming in steps; a log written before the field has none: the default, 1, says nothing.
    ...(config.trimTo === 1 ? [] : [`trimTo ${config.trimTo}`]),
  ].join(', ');

/**
 * The header line of an inspected file: what it is, how many actions (steps 0 to N), the memory's
 * config.
 *
 * @internal
 */
export const headerText = (file: string, inspected: Inspected, style: Style): string => {
  const session =
    inspected.session === null
      ? ''
      : ` ${escapeText(inspected.session.sessionId, 60)}${inspected.session.namespace === null ? '' : ` (namespace ${escapeText(inspected.session.namespace, 60)})`}, revision ${inspected.session.revision}`;
  return style.bold(
    `${escapeText(file, 200)}: ${KIND_NAMES[inspected.kind]}${session}, ${stepsText(inspected.log.length)}; ${configText(inspected.log.head.config)}`,
  );
};

/**
 * The usage line under the timeline: the total of the steps that record one, or, when prices were
 * given and no step records a usage, that there is nothing to cost; otherwise nothing.
 */
const totalLine = (
  rows: readonly TimelineRow[],
  prices: TokenPrices | undefined,
  style: Style,
): string[] => {
  const total = usageTotal(rows);
  if (total !== null) {
    const steps = rows.filter((row) => row.usage !== null).length;
    return [
      style.bold(
        `usage, ${steps} step${steps === 1 ? '' : 's'}: ${usageText(usageFigures(total, prices))}`,
      ),
    ];
  }
  return prices === undefined
    ? []
    : [
        style.dim(
          "usage: no step records one (the agent records it in the reply's metadata.usage)",
        ),
      ];
};

/**
 * The timeline as text: a header, then one line per step (step, action, window, tokens,
 * trimmed by rule, summary change, and the usage of the model calls it records, costed at
 * `prices` when given), then the total usage of the steps.
 *
 * @internal
 */
export const timelineText = (
  file: string,
  inspected: Inspected,
  rows: readonly TimelineRow[],
  style: Style,
  prices?: TokenPrices,
): string => {
  const width = Math.min(48, Math.max(6, ...rows.map((row) => row.label.length)));
  const stepWidth = Math.max(4, String(rows.length - 1).length);
  const cut = (label: string) =>
    label.length > width ? `${label.slice(0, width - 1)}…` : label.padEnd(width);
  const lines = rows.map((row) => {
    const trimmed = trimmedText(row.trimmed);
    const summary = summaryText(row.summary, []);
    return [
      String(row.step).padStart(stepWidth),
      cut(row.label),
      limit(row.messages, row.maxMessages).padStart(7),
      limit(row.tokens, row.maxTokens).padStart(11),
      trimmed === '' ? '' : style.red(`trimmed ${trimmed}`),
      summary === '' ? '' : style.yellow(summary),
      row.usage === null ? '' : style.cyan(usageText(usageFigures(row.usage, prices))),
    ]
      .filter((cell) => cell !== '')
      .join('  ');
  });
  const head = style.dim(
    `${'step'.padStart(stepWidth)}  ${'action'.padEnd(width)}  ${'window'.padStart(7)}  ${'tokens'.padStart(11)}`,
  );
  lines.push(...totalLine(rows, prices, style));
  return `${headerText(file, inspected, style)}\n${head}\n${lines.join('\n')}\n`;
};

const entryTag = (entry: WindowEntry, next: WindowEntry | undefined): string => {
  if (entry.kind === 'summary') return 'summary';
  if (entry.pinned) return 'pinned';
  if (entry.group === null) return '';
  const last = next === undefined || next.group !== entry.group;
  return `${entry.position === entry.group ? '┌' : last ? '└' : '│'} group ${entry.group}`;
};

/**
 * The model view at a step as lines: a heading naming the target, what the next provider call
 * receives (position, mark, message: the knowledge blocks and the injected summary first, an answer the view made marked
 * with the call it answers, a masked tool result marked `masked` with its placeholder), then one
 * line per change (a message left out and why, a call answered, a result masked).
 *
 * @internal
 */
export const modelViewLines = (view: StepModelView, style: Style): string[] => {
  const count = view.entries.length;
  const { mask } = view;
  const masking =
    mask === undefined
      ? ''
      : `, tool results masked (${[
          ...(mask.keepLast === undefined ? [] : [`keep last ${mask.keepLast}`]),
          ...(mask.keepTurns === undefined ? [] : [`keep turns ${mask.keepTurns}`]),
        ].join(', ')})`;
  const lines = [
    style.bold(
      `Model view (${view.target}${masking}): ${count} message${count === 1 ? '' : 's'}, what the next provider call receives`,
    ),
    style.dim(`${'pos'.padStart(6)}  ${'mark'.padEnd(16)}  message`),
  ];
  for (const entry of view.entries) {
    const mark =
      entry.kind === 'summary' || entry.kind === 'knowledge'
        ? entry.kind
        : entry.kind === 'answer'
          ? `answers ${escapeText(entry.answers ?? '?', 8)}`
          : entry.kind === 'masked'
            ? 'masked'
            : entry.kind === 'recalled'
              ? 'recalled'
              : '';
    const pos =
      (entry.kind === 'message' || entry.kind === 'masked') && entry.position !== null
        ? `#${entry.position}`
        : '-';
    const line = `${pos.padStart(6)}  ${mark.padEnd(16)}  ${messageLabel(entry.message, 72)}`;
    lines.push(
      entry.kind === 'summary' || entry.kind === 'knowledge' || entry.kind === 'recalled'
        ? style.cyan(line)
        : entry.kind === 'answer' || entry.kind === 'masked'
          ? style.yellow(line)
          : line,
    );
  }
  if (count === 0) lines.push(style.dim('  (nothing to send)'));
  if (view.changes.length === 0) {
    lines.push(style.dim('changes: none (the window is sent as memory holds it)'));
  } else {
    lines.push(`changes: ${view.changes.length}`);
    for (const change of view.changes) {
      const line = `  ${viewChangeText(change)}`;
      lines.push(change.type === 'view/omitted' ? style.red(line) : style.yellow(line));
    }
  }
  return lines;
};

/**
 * The window at one step as text: the step's line, then the retained window with the injected
 * summary (position, tokens, marker, message), then the messages trimmed at that step with their
 * rule, the step's summary change, the usage of the model calls the step records (when it records
 * one), the knowledge when the state has some ({@link knowledgeLines}), and last the model view
 * ({@link modelViewLines}).
 *
 * @internal
 */
export const windowText = (
  file: string,
  inspected: Inspected,
  view: WindowView,
  modelView: StepModelView,
  knowledge: StepKnowledge | null,
  style: Style,
  usage: UsageFigures | null = null,
): string => {
  const { row } = view;
  const summaryTokens = view.entries.find((entry) => entry.kind === 'summary')?.tokens;
  const lines = [
    headerText(file, inspected, style),
    style.bold(`${stepOfText(row.step, inspected.log.length)}: ${row.label}`),
    `window ${limit(row.messages, row.maxMessages)} messages, ${limit(row.tokens, row.maxTokens)} tokens` +
      (summaryTokens === undefined ? '' : ` (+${summaryTokens} injected summary)`) +
      (row.held === 0 ? '' : `, ${row.held} held for summary`),
    style.dim(`${'pos'.padStart(6)}  ${'tokens'.padStart(6)}  ${'mark'.padEnd(16)}  message`),
  ];
  view.entries.forEach((entry, i) => {
    const tag = entryTag(entry, view.entries[i + 1]);
    const line = `${(entry.position === null ? '-' : `#${entry.position}`).padStart(6)}  ${String(entry.tokens).padStart(6)}  ${tag.padEnd(16)}  ${messageLabel(entry.message, 72)}`;
    lines.push(entry.kind === 'summary' || entry.pinned ? style.cyan(line) : line);
  });
  if (view.entries.length === 0) lines.push(style.dim('  (empty window)'));
  if (view.trimmed.length > 0) {
    lines.push(style.red(`trimmed at this step: ${trimmedText(row.trimmed)}`));
    for (const gone of view.trimmed) {
      lines.push(
        style.red(
          `${`#${gone.position}`.padStart(6)}  ${String(gone.tokens).padStart(6)}  ${ruleLabel(gone).padEnd(16)}  ${messageLabel(gone.message, 72)}`,
        ),
      );
    }
  }
  const positions = view.entries.flatMap((entry) => entry.position ?? []);
  const summary = summaryText(row.summary, positions);
  if (summary !== '') lines.push(style.yellow(summary));
  if (usage !== null) lines.push(style.cyan(`usage: ${usageText(usage)}`));
  if (knowledge !== null) lines.push(...knowledgeLines(knowledge, style));
  lines.push(...modelViewLines(modelView, style));
  return `${lines.join('\n')}\n`;
};
