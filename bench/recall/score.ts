/**
 * Scoring without a model: whether the view the next call would send holds what the question
 * needs.
 *
 * - A question with evidence: every evidence key is in the view's text (letter case ignored).
 *   For a knowledge update the key is the latest value: a view that holds only the stale one
 *   fails.
 * - An abstention question (nothing in the history answers it): the view states no answer. No
 *   turn of any history states one, so a policy fails only by inventing one (a summarizer could);
 *   how often the near miss its sessions state is shown is reported beside it.
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
