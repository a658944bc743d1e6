/**
 * `conversation-memory/constants`: the fixed texts the library sends to models (the summary
 * prompts and prefix, the interrupted tool result, the Anthropic system separator) and the fixed
 * lists and limits it checks against (roles, transcript rules, the longest summary, the default
 * image type).
 *
 * @example
 * ```ts
 * import { SUMMARY_MESSAGE_PREFIX } from 'conversation-memory/constants';
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/constants
 */
export {
  ROLES,
  MAX_SUMMARY_CHARS,
  TRANSCRIPT_RULES,
  DEFAULT_IMAGE_MEDIA_TYPE,
  ANTHROPIC_SYSTEM_SEPARATOR,
  SUMMARIZE_PROMPT,
  SUMMARIZER_SYSTEM_PROMPT,
  SUMMARY_MESSAGE_PREFIX,
  INTERRUPTED_TOOL_RESULT,
} from '../library';
