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
 * Every window message appears once: sent, or left out; an answer the view made for a call it then
 * left out (Anthropic's first-turn rule) follows its call.
 *
 * @param view - a step's model view
 * @returns the rows, in window order
 * @example
 * ```ts
 * viewRows(modelViewAt(log, 12, 'openai')).map((row) => row.kind); // ['omitted', 'sent', 'sent']
 * ```
 */
export const viewRows = (view: StepModelView): ViewRow[] => {
  type Omitted = Extract<ViewChange, { type: 'view/omitted' }>;
  const omitted: Omitted[] = [];
  const callPositions = new Map<string, number | null>();
  for (const change of view.changes) {
    if (change.type === 'view/omitted') omitted.push(change);
    else if (change.type === 'view/answered') callPositions.set(change.toolCallId, change.position);
  }
  // Where each left-out message goes: its window index; an answer the view made and then left
  // out (index -1, with its call) goes right after its call.
  const placeOf = (change: Omitted): number => {
    if (change.index >= 0) return change.index;
    const id = change.message.toolCallId;
    const position = id === undefined ? undefined : callPositions.get(id);
    const call = omitted.find((other) => other.index >= 0 && other.position === position);
    return call === undefined ? Infinity : call.index + 0.5;
  };
  const placed = omitted
    .map((change) => ({ change, place: placeOf(change) }))
    .sort((a, b) => a.place - b.place);
  const rows: ViewRow[] = [];
  let next = 0;
  for (const entry of view.entries) {
    if (entry.index !== null) {
      while (next < placed.length && (placed[next]?.place as number) < entry.index) {
        rows.push({ kind: 'omitted', change: (placed[next] as (typeof placed)[number]).change });
        next++;
      }
    }
    rows.push({ kind: 'sent', entry });
  }
  for (; next < placed.length; next++) {
    rows.push({ kind: 'omitted', change: (placed[next] as (typeof placed)[number]).change });
  }
  return rows;
};
