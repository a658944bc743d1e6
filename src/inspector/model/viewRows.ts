import type { ViewChange } from '../../view/viewTypes';
import type { StepModelView, ViewEntry } from './types';

/**
 * A row of the model view as the page draws it: a message the model receives, or a window message
 * the view left out, at its place in the window.
 *
 * @example
 * ```ts
 * const row: ViewRow = { kind: 'sent', entry: view.entries[0] };
 * ```
 */
export type ViewRow =
  | { readonly kind: 'sent'; readonly entry: ViewEntry }
  | {
      readonly kind: 'omitted';
      readonly change: Extract<ViewChange, { type: 'view/omitted' }>;
    };

/**
 * The model view's messages with the messages it left out put back at their place in the window
 * (before the first sent message that comes after them), so a reader sees what was removed where.
 * Every window message appears once: sent, or left out.
 *
 * @param view - a step's model view
 * @returns the rows, in window order
 * @example
 * ```ts
 * viewRows(modelViewAt(log, 12, 'openai')).map((row) => row.kind); // ['omitted', 'sent', 'sent']
 * ```
 */
export const viewRows = (view: StepModelView): ViewRow[] => {
  const omitted = view.changes.filter(
    (change): change is Extract<ViewChange, { type: 'view/omitted' }> =>
      change.type === 'view/omitted',
  );
  omitted.sort((a, b) => a.index - b.index);
  const rows: ViewRow[] = [];
  let next = 0;
  for (const entry of view.entries) {
    if (entry.index !== null) {
      while (
        next < omitted.length &&
        (omitted[next] as (typeof omitted)[number]).index < entry.index
      ) {
        rows.push({ kind: 'omitted', change: omitted[next] as (typeof omitted)[number] });
        next++;
      }
    }
    rows.push({ kind: 'sent', entry });
  }
  for (; next < omitted.length; next++) {
    rows.push({ kind: 'omitted', change: omitted[next] as (typeof omitted)[number] });
  }
  return rows;
};
