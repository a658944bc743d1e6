/** Runs of letters and digits (any script). */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Words too common to tell facts apart: articles, pronouns, auxiliaries, prepositions and the
 * question words of a user message.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but not no nor so if then than as of to in on at by for from with about into ' +
    'over under up down out off is are was were be been being am do does did doing has have had ' +
    'having will would shall should can could may might must it its this that these those there ' +
    'here what which who whom whose where when why how i me my mine we us our ours you your yours ' +
    'he him his she her hers they them their theirs any all some each every just also too very'
  ).split(' '),
);

/**
 * The lower-case words of `text` (runs of letters and digits in any script), every one of them.
 * Used to tell whether a name occurs in a text.
 *
 * @internal
 */
export const allWords = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/**
 * The search terms of `text` for BM25: lower-case words of two or more characters (letters and
 * digits, any script; `works_at` gives `works`, `at`), without the stop words.
 *
 * @internal
 */
export const searchWords = (text: string): string[] =>
  allWords(text).filter((word) => !STOP_WORDS.has(word) && [...word].length >= 2);

/**
 * Whether the words of `name` occur, in order and side by side, among `words` (`'New York'` in
 * `'moving to new york soon'`). A name with no word never occurs.
 *
 * @internal
 */
export const nameOccursIn = (name: string, words: readonly string[]): boolean => {
  const wanted = allWords(name);
  if (wanted.length === 0) return false;
  for (let start = 0; start + wanted.length <= words.length; start++) {
    if (wanted.every((word, i) => words[start + i] === word)) return true;
  }
  return false;
};
