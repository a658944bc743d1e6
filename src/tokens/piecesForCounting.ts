import type { EncodingName } from './encodings';
import { isWhitespaceAt, mayHaveLongPreToken, RUN_PIECE } from './longPreTokens';
import { splitPattern } from './splitPatterns';

/** The end of a piece starting at `from`, one unit earlier where it would split a surrogate pair. */
const pieceEnd = (text: string, from: number, to: number): number => {
  const end = Math.min(from + RUN_PIECE, to);
  const unit = text.charCodeAt(end - 1);
  return end < to && unit >= 0xd800 && unit <= 0xdbff ? end - 1 : end;
};

/** The UTF-16 length of the character at `index` (2 for an astral character). */
const charLength = (text: string, index: number): number =>
  (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;

/**
 * How many code units at the start of a long pre-token to count alone: its first character, when
 * it differs from both next characters (a space before a word, a run of symbols or of newlines; a
 * run with a period of 1 or 2 repeats one of them), otherwise none. The pieces of the run then
 * start at the same phase of it, which keeps the count of runs of one repeated character or of a
 * 2-character period close to, and often exactly, the one-shot count.
 */
const leadLength = (text: string, start: number): number => {
  const first = text.codePointAt(start);
  const length = charLength(text, start);
  const second = text.codePointAt(start + length);
  const third = text.codePointAt(start + length + charLength(text, start + length));
  return first !== second && first !== third ? length : 0;
};

/**
 * Whether a pre-token is whitespace only. A pre-token that starts with whitespace and is not
 * whitespace only has a letter or a symbol second (` word`, `\tword`, ` !`).
 */
const isSpaceToken = (text: string, start: number, end: number): boolean =>
  isWhitespaceAt(text, start) && (end - start === 1 || isWhitespaceAt(text, start + 1));

/**
 * Cuts a text that may hold long pre-tokens. Each pre-token longer than `RUN_PIECE` becomes pieces
 * of `RUN_PIECE` code units (one fewer where that would split a surrogate pair). The pre-tokens
 * between them stay together, one piece per maximal span, except the whitespace pre-tokens that
 * end a span before a long pre-token, which are one piece each: alone, a span ending in whitespace
 * would be split differently (`\s+(?!\S)` and cl100k's `\s+$` see the end of the text where the
 * whole text has the long pre-token; r50k splits `"  \r"` before a word as `"  "`, `"\r"`, but
 * `"  \r"` alone as one pre-token).
 */
const cutLongPreTokens = (text: string, encoding: EncodingName): string[] => {
  const pattern = splitPattern(encoding);
  const pieces: string[] = [];
  let spanStart = 0;
  /** Starts of the whitespace pre-tokens that end the current span. */
  const spaces: number[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const start = match.index;
    const end = pattern.lastIndex;
    if (end - start <= RUN_PIECE) {
      if (isSpaceToken(text, start, end)) spaces.push(start);
      else spaces.length = 0;
      continue;
    }
    const spanEnd = spaces[0] ?? start;
    if (spanEnd > spanStart) pieces.push(text.slice(spanStart, spanEnd));
    for (let i = 0; i < spaces.length; i++) {
      pieces.push(text.slice(spaces[i], spaces[i + 1] ?? start));
    }
    spaces.length = 0;
    const body = start + leadLength(text, start);
    if (body > start) pieces.push(text.slice(start, body));
    for (let from = body; from < end;) {
      const to = pieceEnd(text, from, end);
      pieces.push(text.slice(from, to));
      from = to;
    }
    spanStart = end;
  }
  if (spanStart < text.length) pieces.push(text.slice(spanStart));
  return pieces;
};

/**
 * The strings handed to the encoder to count a text in linear time: they join back to the text,
 * and none holds a pre-token longer than `RUN_PIECE` (256 code units). Text is only ever cut inside
 * a pre-token longer than that; everywhere else it is cut at pre-token boundaries, where each piece
 * alone splits into the same pre-tokens as in the whole text, so the sum of the pieces' counts
 * equals the one-shot count. Ordinary text (no run of 128 characters of one class) is one piece,
 * found by a cheap pre-check.
 *
 * @param text - any text
 * @param encoding - the encoding whose pre-tokenizer decides the cuts
 * @returns the pieces, in order; `[text]` for ordinary text; `[]` for `''`
 * @example
 * ```ts
 * piecesForCounting('Hello, world!', 'o200k_base'); // ['Hello, world!']
 * piecesForCounting(`Hi${' '.repeat(600)}!`, 'o200k_base').map((piece) => piece.length); // [2, 256, 256, 87, 2]
 * ```
 * @internal
 */
export const piecesForCounting = (text: string, encoding: EncodingName): string[] => {
  if (text === '') return [];
  return mayHaveLongPreToken(text) ? cutLongPreTokens(text, encoding) : [text];
};

/**
 * Counts a text with an encoding's `countTokens`, in linear time: ordinary text in one call,
 * text with long pre-tokens piece by piece ({@link piecesForCounting}).
 *
 * @param countTokens - gpt-tokenizer's counter of that encoding (special tokens as plain text)
 * @param encoding - its name
 * @param text - any text
 * @returns the count
 * @example
 * ```ts
 * countInPieces(countTokens, 'o200k_base', 'x'.repeat(100_000)); // 12_500, in milliseconds
 * ```
 * @internal
 */
export const countInPieces = (
  countTokens: (text: string) => number,
  encoding: EncodingName,
  text: string,
): number => {
  if (text === '') return 0;
  if (!mayHaveLongPreToken(text)) return countTokens(text);
  let total = 0;
  for (const piece of cutLongPreTokens(text, encoding)) total += countTokens(piece);
  return total;
};
