/// <reference lib="dom" />
import type { TimelineRow } from '../../model/types';
import { el } from './dom';

const ROW_HEIGHT = 24;
const OVERSCAN = 10;

/**
 * The step list, virtualised: only the rows in view (and a few around) are in the DOM, so a log of
 * 10,000 steps costs the same as one of 20.
 *
 * @example
 * ```ts
 * const list = createStepList(byId('steps'), byId('steps-inner'), rows, go);
 * list.select(7);
 * ```
 */
export interface StepList {
  readonly select: (step: number) => void;
}

const rowText = (row: TimelineRow): string => {
  const limit = (value: number, max: number | null) => `${value}/${max ?? '∞'}`;
  const trimmed = row.trimmed.count > 0 ? ` ✂${row.trimmed.count}` : '';
  const summary = row.summary !== null ? ' Σ' : '';
  return `${row.label}  ${limit(row.messages, row.maxMessages)} msg ${limit(row.tokens, row.maxTokens)} tok${trimmed}${summary}`;
};

/**
 * Builds the virtualised step list.
 *
 * @param viewport - the scrolling element
 * @param inner - its content element (sized to every row)
 * @param rows - every step's row
 * @param onPick - called with a clicked step
 * @returns the list
 * @example
 * ```ts
 * createStepList(viewport, inner, rows, go).select(0);
 * ```
 */
export const createStepList = (
  viewport: HTMLElement,
  inner: HTMLElement,
  rows: readonly TimelineRow[],
  onPick: (step: number) => void,
): StepList => {
  let selected = 0;
  inner.style.height = `${rows.length * ROW_HEIGHT}px`;
  const draw = (): void => {
    const from = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const to = Math.min(
      rows.length,
      Math.ceil((viewport.scrollTop + viewport.clientHeight) / ROW_HEIGHT) + OVERSCAN,
    );
    const items: HTMLElement[] = [];
    for (let i = from; i < to; i++) {
      const row = rows[i] as TimelineRow;
      const item = el(
        'div',
        {
          class: `step${i === selected ? ' selected' : ''}${row.trimmed.count > 0 ? ' has-trim' : ''}${row.summary !== null ? ' has-summary' : ''}`,
          'data-step': String(i),
          style: `top:${i * ROW_HEIGHT}px;height:${ROW_HEIGHT}px`,
          title: rowText(row),
        },
        '',
      );
      item.append(el('span', { class: 'step-number' }, String(i)), el('span', {}, rowText(row)));
      items.push(item);
    }
    inner.replaceChildren(...items);
  };
  viewport.addEventListener('scroll', draw, { passive: true });
  inner.addEventListener('click', (event) => {
    const target = (event.target as HTMLElement).closest('[data-step]');
    if (target !== null) onPick(Number(target.getAttribute('data-step')));
  });
  return {
    select: (step) => {
      selected = step;
      const top = step * ROW_HEIGHT;
      if (
        top < viewport.scrollTop ||
        top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight
      ) {
        viewport.scrollTop = Math.max(0, top - viewport.clientHeight / 2);
      }
      draw();
    },
  };
};
