import { codePointLength } from '../util/codePoints';
import type { Message } from '../model/message';

const SURROGATE = /[\uD800-\uDFFF]/;

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
  message.content === null ? 0 : quarterCodePoints(message.content);

/**
 * `floor(code points / 4)`, the core of both reference heuristics. Without surrogates, UTF-16
 * length is the code point count, and the regex scan that tells is native code.
 *
 * @internal
 */
export const quarterCodePoints = (text: string): number =>
  Math.floor((SURROGATE.test(text) ? codePointLength(text) : text.length) / 4);
