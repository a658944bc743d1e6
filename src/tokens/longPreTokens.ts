/**
 * The longest pre-token (one match of an encoding's split regex) that is handed to the encoder
 * whole, in UTF-16 code units. gpt-tokenizer's BPE costs the square of a pre-token's length (4 s
 * for 100,000 "x", 7.5 s for 80,000 spaces), so longer pre-tokens are counted in pieces of this
 * size. The count of such a pre-token is then an estimate: measured over 50,000 random texts with
 * long runs, 68% count exactly as one-shot, 0.27 tokens per cut on average, at most 5 per cut
 * (0.1% of the tokens); a run of one repeated character (space, newline, U+00A0, U+3000, "x")
 * alone, and many 2-character periods ("/\n", "ab"), count exactly.
 *
 * @example
 * ```ts
 * RUN_PIECE; // 256
 * ```
 * @internal
 */
export const RUN_PIECE = 256;

/**
 * Character classes, as bits. Every pre-token of every encoding is an optional first character
 * followed by at most two runs of one class each, plus at most 3 more code units:
 *
 * - letters: `[^\r\n\p{L}\p{N}]?` then letters and marks, then an optional contraction (`'ll`);
 * - digits: r50k and p50k's ` ?\p{N}+` (o200k and cl100k cut digits in threes);
 * - punctuation: ` ?[^\s\p{L}\p{N}]+` (marks included) then o200k's tail `[\r\n/]*` (cl100k's
 *   `[\r\n]*`): a symbol run then a space run, since `/` counts as space here;
 * - whitespace (`\s` of a `u` regex, U+00A0, U+3000, U+2028 included): a space run.
 *
 * So a pre-token longer than `RUN_PIECE` has a run of one class at least `RUN_PIECE / 2` long.
 * Surrogates are letters, digits and symbols at once (an astral character can be any of them, and
 * no astral character is whitespace).
 */
const LETTER = 1;
const DIGIT = 2;
const SYMBOL = 4;
const SPACE = 8;
const WHITESPACE = 16;
const KNOWN = 32;
const RUN = RUN_PIECE / 2;

const classify = (unit: number): number => {
  if (unit >= 0xd800 && unit <= 0xdfff) return KNOWN | LETTER | DIGIT | SYMBOL;
  const char = String.fromCharCode(unit);
  return (
    KNOWN |
    (/[\p{L}\p{M}]/u.test(char) ? LETTER : 0) |
    (/\p{N}/u.test(char) ? DIGIT : 0) |
    (/[^\s\p{L}\p{N}]/u.test(char) ? SYMBOL : 0) |
    (/[\s/]/u.test(char) ? SPACE : 0) |
    (/\s/u.test(char) ? WHITESPACE : 0)
  );
};

/** The class bits of each UTF-16 code unit, filled on first sight (64 KB, made on first use). */
let classes: Uint8Array | undefined;

const classAt = (text: string, index: number): number => {
  const unit = text.charCodeAt(index);
  const table = (classes ??= new Uint8Array(0x10000));
  const known = table[unit] as number;
  return known !== 0 ? known : (table[unit] = classify(unit));
};

/**
 * Whether the code unit at `index` is whitespace (`\s` of a `u` regex).
 *
 * @param text - any text
 * @param index - a UTF-16 index into it
 * @returns whether that unit is whitespace
 * @example
 * ```ts
 * isWhitespaceAt('a\u3000b', 1); // true
 * ```
 * @internal
 */
export const isWhitespaceAt = (text: string, index: number): boolean =>
  (classAt(text, index) & WHITESPACE) !== 0;

/** Whether the run of `bit` through `index` is at least `RUN` long. */
const runThrough = (text: string, index: number, bit: number): boolean => {
  let start = index;
  const lowest = index - RUN + 1;
  while (start > lowest && start > 0 && (classAt(text, start - 1) & bit) !== 0) start--;
  const needed = start + RUN;
  let end = index + 1;
  while (end < needed && end < text.length && (classAt(text, end) & bit) !== 0) end++;
  return end - start >= RUN;
};

/**
 * A cheap, sound pre-check: `false` means the text has no pre-token longer than `RUN_PIECE` in any
 * encoding, so one `countTokens` call counts it exactly in linear time. `true` means it may have
 * one (a run of `RUN_PIECE / 2` characters of one class: letters, digits, symbols or whitespace).
 *
 * It reads few characters: every such run contains one of the probe positions `RUN - 1`,
 * `2 × RUN - 1`, …, and at each probe it measures only the runs through that character (about a
 * word in prose, a clause in Chinese). For each class, no character is read by two probes unless
 * the run is found. Text of `RUN_PIECE` characters or fewer is not read at all.
 *
 * @param text - any text
 * @returns whether the text may hold a pre-token longer than `RUN_PIECE`
 * @example
 * ```ts
 * mayHaveLongPreToken('Hello, world! '.repeat(100)); // false
 * mayHaveLongPreToken(' '.repeat(300)); // true
 * ```
 * @internal
 */
export const mayHaveLongPreToken = (text: string): boolean => {
  if (text.length <= RUN_PIECE) return false;
  for (let index = RUN - 1; index < text.length; index += RUN) {
    const bits = classAt(text, index);
    for (let bit = LETTER; bit <= SPACE; bit <<= 1) {
      if ((bits & bit) !== 0 && runThrough(text, index, bit)) return true;
    }
  }
  return false;
};
