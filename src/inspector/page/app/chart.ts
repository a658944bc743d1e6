/// <reference lib="dom" />
import type { TimelineRow } from '../../model/types';
import { svg } from './dom';

const WIDTH = 1000;
const HEIGHT = 160;
const PAD = { left: 44, right: 44, top: 10, bottom: 18 };

/**
 * The timeline chart, plain SVG: tokens (left axis) and window size (right axis) over every step,
 * their limits as dashed lines, a tick where messages were trimmed, and the current step's marker.
 *
 * @example
 * ```ts
 * const chart = drawChart(byId('chart') as unknown as SVGSVGElement, rows, (n) => go(n));
 * chart.mark(7);
 * ```
 */
export interface Chart {
  readonly mark: (step: number) => void;
}

const polyline = (values: readonly number[], x: (i: number) => number, y: (v: number) => number) =>
  values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');

/**
 * Draws the chart once for all steps; `mark` then only moves the current-step marker.
 *
 * @param root - the `<svg>` element
 * @param rows - every step's row
 * @param onPick - called with the step under a click
 * @returns the chart
 * @example
 * ```ts
 * drawChart(root, rows, go).mark(0);
 * ```
 */
export const drawChart = (
  root: SVGSVGElement,
  rows: readonly TimelineRow[],
  onPick: (step: number) => void,
): Chart => {
  root.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  root.setAttribute('preserveAspectRatio', 'none');
  root.replaceChildren();
  const last = Math.max(1, rows.length - 1);
  const first = rows[0];
  const maxTokens = first?.maxTokens ?? null;
  const maxMessages = first?.maxMessages ?? 1;
  const tokenTop = Math.max(1, maxTokens ?? 0, ...rows.map((r) => r.tokens));
  const messageTop = Math.max(1, maxMessages, ...rows.map((r) => r.messages));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (step: number) => PAD.left + (innerW * step) / last;
  const yTokens = (v: number) => PAD.top + innerH * (1 - v / tokenTop);
  const yMessages = (v: number) => PAD.top + innerH * (1 - v / messageTop);

  const frame = svg('rect', {
    x: String(PAD.left),
    y: String(PAD.top),
    width: String(innerW),
    height: String(innerH),
    class: 'chart-frame',
  });
  root.append(frame);
  if (maxTokens !== null) {
    root.append(
      svg('line', {
        class: 'limit tokens-limit',
        x1: String(PAD.left),
        x2: String(WIDTH - PAD.right),
        y1: String(yTokens(maxTokens)),
        y2: String(yTokens(maxTokens)),
      }),
    );
  }
  root.append(
    svg('line', {
      class: 'limit messages-limit',
      x1: String(PAD.left),
      x2: String(WIDTH - PAD.right),
      y1: String(yMessages(maxMessages)),
      y2: String(yMessages(maxMessages)),
    }),
  );
  const trims = rows.filter((r) => r.trimmed.count > 0);
  if (trims.length > 0) {
    root.append(
      svg('path', {
        class: 'trim-marks',
        'data-steps': trims.map((r) => r.step).join(' '),
        d: trims
          .map((r) => `M${x(r.step).toFixed(1)},${HEIGHT - PAD.bottom}v${PAD.bottom - 4}`)
          .join(''),
      }),
    );
  }
  root.append(
    svg('polyline', {
      class: 'series tokens',
      points: polyline(
        rows.map((r) => r.tokens),
        x,
        yTokens,
      ),
    }),
    svg('polyline', {
      class: 'series messages',
      points: polyline(
        rows.map((r) => r.messages),
        x,
        yMessages,
      ),
    }),
  );
  const label = (text: string, px: number, py: number, cls: string) => {
    const node = svg('text', { x: String(px), y: String(py), class: cls });
    if (px > WIDTH / 2) node.setAttribute('text-anchor', 'end');
    node.textContent = text;
    root.append(node);
  };
  label(
    maxTokens === null ? `${tokenTop} tok` : `${maxTokens} tok max`,
    2,
    (maxTokens === null ? PAD.top : yTokens(maxTokens)) + 4,
    'axis tokens',
  );
  label(`${maxMessages} msg max`, WIDTH - 2, yMessages(maxMessages) + 4, 'axis messages');
  const marker = svg('line', {
    id: 'chart-marker',
    class: 'marker',
    y1: String(PAD.top),
    y2: String(HEIGHT - PAD.bottom),
  });
  root.append(marker);
  root.addEventListener('click', (event) => {
    const box = root.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * WIDTH;
    const step = Math.round(((px - PAD.left) / innerW) * last);
    onPick(Math.min(rows.length - 1, Math.max(0, step)));
  });
  return {
    mark: (step) => {
      marker.setAttribute('x1', x(step).toFixed(1));
      marker.setAttribute('x2', x(step).toFixed(1));
      marker.setAttribute('data-step', String(step));
    },
  };
};
