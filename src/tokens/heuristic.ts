import { codePointLength } from '../internal/codePoints';
import type { Message } from '../model/message';

/**
 * The reference memory's own count, exactly: `floor(code points of content / 4)`, content only,
 * `null` counts 0, no minimum of 1. Tool calls, content parts and images count 0, as there.
 *
 * @param message - any message
 * @returns its heuristic token count
 * @example
 * ```ts
 * countHeuristicTokens({ role: 'user', content: 'abcdefg' }); // 1
 * ```
 */
export const countHeuristicTokens = (message: Message): number =>
  message.content === null ? 0 : Math.floor(codePointLength(message.content) / 4);
