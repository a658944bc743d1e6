/// <reference lib="dom" />
import type { Message } from '../../../model/message';
import { coverageText } from '../../model/coverageText';
import { summaryDiff } from '../../model/summaryDiff';
import type {
  StepModelView,
  TrimmedEntry,
  ViewEntry,
  WindowEntry,
  WindowView,
} from '../../model/types';
import { viewChangeText } from '../../model/viewChangeText';
import { viewRows } from '../../model/viewRows';
import { el } from './dom';

/** A message's text as shown: its content, tool calls with their parameters, parts, image. */
const messageText = (message: Message): string => {
  const lines: string[] = [];
  if (message.content !== null && message.content !== undefined && message.content !== '') {
    lines.push(message.content);
  }
  for (const call of message.toolCalls ?? []) {
    lines.push(`→ ${call.name}(${JSON.stringify(call.parameters)})  id ${call.id ?? '?'}`);
  }
  for (const part of message.contentParts ?? []) {
    const text = (part as { text?: unknown }).text;
    lines.push(typeof text === 'string' ? text : `[${String((part as { type?: unknown }).type)}]`);
  }
  if (message.imageBase64 !== undefined) lines.push('[image]');
  return lines.join('\n');
};

const roleOf = (message: Message): string =>
  message.role === 'tool'
    ? `tool ${message.toolName ?? ''} ← ${message.toolCallId ?? '?'}`.replace('  ', ' ')
    : message.role;

/**
 * One chat bubble: a header (role, position, tokens, marks) and the text. A message memory does
 * not hold has no position (`null`: shown as `injected`); a bubble of the model view has no token
 * count (`null`).
 */
const bubble = (
  message: Message,
  position: number | null,
  tokens: number | null,
  marks: readonly string[],
  classes: string,
): HTMLElement => {
  const item = el('li', {
    class: `bubble role-${message.role} ${classes}`.trim(),
    'data-position': position === null ? 'summary' : String(position),
    ...(tokens === null ? {} : { 'data-tokens': String(tokens) }),
  });
  const head = el('div', { class: 'bubble-head' });
  head.append(
    el('span', { class: 'role' }, roleOf(message)),
    el('span', { class: 'position' }, position === null ? 'injected' : `#${position}`),
    ...(tokens === null ? [] : [el('span', { class: 'tokens' }, `${tokens} tok`)]),
    ...marks.map((mark) => el('span', { class: `mark mark-${mark.split(' ')[0] ?? ''}` }, mark)),
  );
  item.append(head, el('div', { class: 'text' }, messageText(message)));
  return item;
};

const entryBubble = (entry: WindowEntry): HTMLElement => {
  const marks: string[] = [];
  if (entry.kind === 'summary') marks.push('summary');
  if (entry.pinned) marks.push('pinned');
  return bubble(
    entry.message,
    entry.position,
    entry.tokens,
    marks,
    [entry.kind === 'summary' ? 'summary' : '', entry.pinned ? 'pinned' : '']
      .filter(Boolean)
      .join(' '),
  );
};

/**
 * The window as bubbles; a tool call and the results that answer it (matched by id) bracketed in
 * one group.
 *
 * @param list - the `<ol>` to fill
 * @param view - the window
 * @example
 * ```ts
 * renderWindow(byId('window'), stepper.viewAt(7));
 * ```
 */
export const renderWindow = (list: HTMLElement, view: WindowView): void => {
  const items: HTMLElement[] = [];
  let group: { id: number; list: HTMLElement } | null = null;
  for (const entry of view.entries) {
    if (entry.group === null) {
      group = null;
      items.push(entryBubble(entry));
      continue;
    }
    if (group === null || group.id !== entry.group) {
      const box = el('li', { class: 'group', 'data-group': String(entry.group) });
      box.append(el('div', { class: 'group-label' }, `tool calls of #${entry.group}`));
      const inner = el('ol');
      box.append(inner);
      items.push(box);
      group = { id: entry.group, list: inner };
    }
    group.list.append(entryBubble(entry));
  }
  if (items.length === 0) items.push(el('li', { class: 'empty' }, '(empty window)'));
  list.replaceChildren(...items);
};

/**
 * The messages trimmed at this step, greyed, each labelled with its rule.
 *
 * @param list - the `<ol>` to fill
 * @param trimmed - the step's trimmed messages
 * @example
 * ```ts
 * renderTrimmed(byId('trimmed'), view.trimmed);
 * ```
 */
export const renderTrimmed = (list: HTMLElement, trimmed: readonly TrimmedEntry[]): void => {
  list.replaceChildren(
    ...(trimmed.length === 0
      ? [el('li', { class: 'empty' }, '(nothing trimmed at this step)')]
      : trimmed.map((gone) => {
          const label =
            gone.duplicateOf === undefined ? gone.rule : `${gone.rule} of #${gone.duplicateOf}`;
          const item = bubble(gone.message, gone.position, gone.tokens, [label], 'trimmed');
          item.setAttribute('data-rule', gone.rule);
          return item;
        })),
  );
};

/**
 * The summary panel: the stored summary, what each committed summary chunk covers (naming the
 * positions of its range that are still in the window), and the positions held for summarizing.
 *
 * @param panel - the element to fill
 * @param view - the window
 * @example
 * ```ts
 * renderSummary(byId('summary'), view);
 * ```
 */
export const renderSummary = (panel: HTMLElement, view: WindowView): void => {
  const parts: HTMLElement[] = [el('p', { class: 'summary-text' }, view.summary ?? '(no summary)')];
  if (view.summaryCoverage.length > 0) {
    const list = el('ul', { class: 'coverage' });
    const positions = view.entries.flatMap((entry) => entry.position ?? []);
    for (const c of view.summaryCoverage) list.append(el('li', {}, coverageText(c, positions)));
    parts.push(list);
  }
  if (view.heldPositions.length > 0) {
    parts.push(
      el(
        'p',
        { class: 'held' },
        `held for summarizing: ${view.heldPositions.map((p) => `#${p}`).join(', ')}`,
      ),
    );
  }
  panel.replaceChildren(...parts);
};

/** What the step did to the summary: the text it added, or that it replaced or cleared it. */
const summaryLine = (change: WindowView['row']['summary']): string => {
  if (change === null) return 'summary: unchanged';
  const diff = summaryDiff(change.previous, change.summary);
  if (diff.kind === 'cleared') return 'summary: cleared';
  if (diff.kind === 'replaced') return `summary replaced by: ${change.summary ?? ''}`;
  const cut = diff.dropped === 0 ? '' : ` (its oldest ${diff.dropped} characters cut)`;
  return `summary added: ${diff.text}${cut}`;
};

/**
 * The diff against the previous step: positions added, positions trimmed, the text added to the
 * summary (or that it was replaced or cleared).
 *
 * @param panel - the element to fill
 * @param view - the window at this step
 * @param previous - the window at the step before (`null` at step 0)
 * @example
 * ```ts
 * renderDiff(byId('diff'), stepper.viewAt(7), stepper.viewAt(6));
 * ```
 */
export const renderDiff = (
  panel: HTMLElement,
  view: WindowView,
  previous: WindowView | null,
): void => {
  const before = new Set(previous?.entries.map((e) => e.position) ?? []);
  const added = view.entries
    .filter((e) => e.position !== null && !before.has(e.position))
    .map((e) => `#${e.position}`);
  const trimmed = view.trimmed.map(
    (e) =>
      `#${e.position} (${e.rule}${e.duplicateOf === undefined ? '' : ` of #${e.duplicateOf}`})`,
  );
  const lines: HTMLElement[] = [
    el('p', { class: 'diff-added' }, `added: ${added.length === 0 ? '—' : added.join(', ')}`),
    el(
      'p',
      { class: 'diff-trimmed' },
      `trimmed: ${trimmed.length === 0 ? '—' : trimmed.join(', ')}`,
    ),
    el('p', { class: 'diff-summary' }, summaryLine(view.row.summary)),
  ];
  panel.replaceChildren(...lines);
};

/**
 * A message the model view sends: the knowledge blocks, the injected summary, a window message,
 * a window tool result sent masked (its placeholder, marked with why; the retained window shows
 * the original), an answer it made, or the recall block (marked with the positions it quotes).
 */
const sentBubble = (entry: ViewEntry, changes: StepModelView['changes']): HTMLElement => {
  if (entry.kind === 'masked') {
    const change = changes.find((c) => c.type === 'view/masked' && c.message === entry.message);
    const why =
      change?.type === 'view/masked'
        ? change.sameAs === undefined
          ? change.reason
          : `repeat of ${change.sameAs}`
        : 'masked';
    const item = bubble(entry.message, entry.position, null, [`masked: ${why}`], 'masked');
    item.setAttribute('data-masked', change?.type === 'view/masked' ? change.reason : '');
    if (change !== undefined) item.title = viewChangeText(change);
    return item;
  }
  if (entry.kind === 'knowledge') {
    const item = bubble(entry.message, null, null, ['knowledge'], 'knowledge');
    item.setAttribute('data-position', 'knowledge');
    return item;
  }
  if (entry.kind === 'summary') return bubble(entry.message, null, null, ['summary'], 'summary');
  if (entry.kind === 'recalled') {
    const change = changes.find((c) => c.type === 'view/recalled');
    const where = change?.type === 'view/recalled' ? change.positions.map((p) => `#${p}`) : [];
    const item = bubble(entry.message, null, null, [`recalled ${where.join(', ')}`], 'recalled');
    item.setAttribute('data-position', 'recalled');
    if (change !== undefined) item.title = viewChangeText(change);
    return item;
  }
  if (entry.kind === 'message') return bubble(entry.message, entry.position, null, [], '');
  const item = bubble(entry.message, null, null, [`answered ${entry.answers ?? '?'}`], 'answered');
  item.setAttribute('data-position', 'answer');
  item.setAttribute('data-answers', entry.answers ?? '');
  (item.querySelector('.position') as HTMLElement).textContent = 'made by the view';
  return item;
};

/**
 * The model view at the step: what the next provider call receives, as bubbles (the knowledge
 * blocks and the injected summary marked, an answer the view made for an unanswered call marked `answered`), with each
 * window message the view left out at its place, its text struck through and marked with the
 * reason; and a line of figures above.
 *
 * @param list - the `<ol>` to fill
 * @param figures - the element for the figures line
 * @param view - the step's model view
 * @example
 * ```ts
 * renderModelView(byId('view'), byId('view-figures'), stepper.modelViewAt(7, 'openai'));
 * ```
 */
export const renderModelView = (
  list: HTMLElement,
  figures: HTMLElement,
  view: StepModelView,
): void => {
  const items = viewRows(view).map((row) => {
    if (row.kind === 'sent') return sentBubble(row.entry, view.changes);
    const { change } = row;
    const item = bubble(
      change.message,
      change.position,
      null,
      [`left out: ${change.reason}`],
      'omitted',
    );
    item.setAttribute('data-reason', change.reason);
    if (change.position === null) {
      item.setAttribute('data-position', 'answer');
      (item.querySelector('.position') as HTMLElement).textContent = 'made by the view';
    }
    item.title = viewChangeText(change);
    return item;
  });
  if (items.length === 0) items.push(el('li', { class: 'empty' }, '(nothing to send)'));
  list.replaceChildren(...items);
  const count = (type: StepModelView['changes'][number]['type']) =>
    view.changes.filter((c) => c.type === type).length;
  const masked = count('view/masked');
  figures.textContent =
    `${view.target}: ${view.entries.length} message${view.entries.length === 1 ? '' : 's'} sent` +
    (view.changes.length === 0
      ? ' · the window as memory holds it'
      : ` · ${count('view/omitted')} left out · ${count('view/answered')} answered` +
        (masked === 0 ? '' : ` · ${masked} masked`) +
        (count('view/recalled') === 0 ? '' : ' · recalled'));
};
