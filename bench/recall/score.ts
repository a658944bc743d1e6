/**
 * Scoring without a model: whether the view the next call would send holds what the question
 * needs.
 *
 * - A question with evidence: every evidence key is in the view's text (letter case ignored).
 *   For a knowledge update the key is the latest value: a view that holds only the stale one
 *   fails.
 * - An abstention question (nothing in the history answers it): the view states no answer. This
 *   holds by construction, not by measurement: no turn of any history states an answer, the
 *   question has no keys to look for, and every policy here only copies text from the history
 *   (the window, masks, LocalProvider's first-sentence summaries, extracted names, quoted
 *   messages). What is measured is how often the near miss its sessions state is in the view
 *   (where a model must still abstain).
 */
import type { Message } from '../../src/library';
import type { RecallInstance } from './dataset';

/** The view's text: every message's content, one per line. */
export const viewText = (messages: readonly Message[]): string =>
  messages
    .map((message) => message.content ?? '')
    .join('\n')
    .toLowerCase();

/** Whether `text` holds `key` (a key is an invented name or a number with its unit). */
const holds = (text: string, key: string): boolean => text.includes(key.toLowerCase());

/** What one view scores. */
export interface ViewScore {
  /** The view holds what the question needs (or, for abstention, states no answer). */
  readonly found: boolean;
  /** For an abstention question: the view shows its near miss. */
  readonly nearMiss: boolean;
}

/** Scores the view sent for `instance`. */
export const scoreView = (instance: RecallInstance, messages: readonly Message[]): ViewScore => {
  const text = viewText(messages);
  if (instance.question_id.endsWith('_abs')) {
    const nearMiss = (instance.near_miss_keys ?? []).some((key) => holds(text, key));
    // Nothing states an answer: no key of this question exists in any history.
    return { found: instance.evidence_keys.every((key) => !holds(text, key)), nearMiss };
  }
  return { found: instance.evidence_keys.every((key) => holds(text, key)), nearMiss: false };
};
