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
export { ROLES } from '../model/role';
export { MAX_SUMMARY_CHARS } from '../core/applySummary';
export { TRANSCRIPT_RULES } from '../formats/transcriptRule';
export { DEFAULT_IMAGE_MEDIA_TYPE } from '../formats/openaiChat';
export { ANTHROPIC_SYSTEM_SEPARATOR } from '../formats/anthropic';
export {
  SUMMARIZE_PROMPT,
  SUMMARIZER_SYSTEM_PROMPT,
  SUMMARY_MESSAGE_PREFIX,
} from '../agent/prompts';
export { INTERRUPTED_TOOL_RESULT } from '../view/interruptedToolResult';
