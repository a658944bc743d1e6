import { codePointLength } from '../../util/codePoints';

/**
 * Text helpers of `LocalProvider`. Lengths are counted in Unicode code points (a surrogate pair
 * is one character, as in the library's heuristic tokenizer), and text is never cut inside a pair.
 */

/**
 * `LocalProvider` counts one token per this many characters (Unicode code points), rounding up,
 * for `usage` and for the `maxTokens` cap of its replies.
 *
 * @example
 * ```ts
 * Math.ceil('hello'.length / LOCAL_CHARS_PER_TOKEN); // 2 tokens
 * ```
 */
export const LOCAL_CHARS_PER_TOKEN = 4;

/**
 * Tokens for `chars` characters: `ceil(chars / 4)`, so any reply of at most `maxTokens × 4`
 * characters counts at most `maxTokens` tokens.
 *
 * @internal
 */
export const tokensForChars = (chars: number): number => Math.ceil(chars / LOCAL_CHARS_PER_TOKEN);

/** The number of characters (code points) of `text`. @internal */
export const charCount = (text: string): number => codePointLength(text);

/** The first `count` code points of `text`, never ending inside a surrogate pair. */
const headCodePoints = (text: string, count: number): string => {
  let i = 0;
  for (let taken = 0; taken < count && i < text.length; taken++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    i += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, i);
};

/**
 * `text` when it has at most `max` characters; otherwise its first `max - 1` characters and `…`
 * (one character), so the result never has more than `max` characters.
 *
 * @internal
 */
export const clip = (text: string, max: number): string => {
  if (max <= 0) return '';
  if (text.length <= max || charCount(text) <= max) return text;
  return `${headCodePoints(text, max - 1)}…`;
};

/** `text` with every run of white space (newlines included) made one space, trimmed. @internal */
export const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** `text` ending in `.`, `!`, `?` or `…`: a `.` is added when it ends otherwise. @internal */
export const endSentence = (text: string): string => (/[.!?…]$/.test(text) ? text : `${text}.`);

/** `1 earlier message`, `3 earlier messages`. @internal */
export const plural = (count: number, noun: string): string =>
  `${count} ${noun}${count === 1 ? '' : 's'}`;
