/**
 * The reference's summarize-on-trim prompt (`_memory_manager.py`): the excerpt follows it as
 * `ROLE: content` lines.
 *
 * @example
 * ```ts
 * SUMMARIZE_PROMPT.startsWith('Summarize the following conversation excerpt'); // true
 * ```
 */
export const SUMMARIZE_PROMPT =
  'Summarize the following conversation excerpt in 2-3 sentences. Focus on key facts, decisions, and context that would be useful for continuing the conversation:\n\n';

/**
 * The system prompt of every summary request (the reference's).
 *
 * @example
 * ```ts
 * SUMMARIZER_SYSTEM_PROMPT; // 'You are a concise summarizer.'
 * ```
 */
export const SUMMARIZER_SYSTEM_PROMPT = 'You are a concise summarizer.';

export { SUMMARY_MESSAGE_PREFIX } from '../view/summaryMessage';
