import { lazy } from '../../util/lazy';
/** Runs of letters and digits (any script). */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Words too common to tell facts apart: articles, pronouns, auxiliaries, prepositions and the
 * question words of a user message.
 */
const STOP_WORDS: () => ReadonlySet<string> = /* @__PURE__ */ lazy(
  () =>
    new Set(
      (
        'a an the and or but not no nor so if then than as of to in on at by for from with about into ' +
        'over under up down out off is are was were be been being am do does did doing has have had ' +
        'having will would shall should can could may might must it its this that these those there ' +
        'here what which who whom whose where when why how i me my mine we us our ours you your yours ' +
        'he him his she her hers they them their theirs any all some each every just also too very'
      ).split(' '),
    ),
);

/**
 * The lower-case words of `text` (runs of letters and digits in any script), every one of them.
 * Used to tell whether a name occurs in a text.
 *
 * @internal
 */
export const allWords = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/**
 * A light English stem, so that a question and a fact meet on their root (`work` / `works`,
 * `living` / `lives`, `moved` / `move`): a final `'s` is dropped, then `ing` or `ed` from a word of 6 or
 * more letters, then `es` or `s` from a word of 4 or more (not `ss`), then a final `e`. Applied to
 * the query and the facts alike, it only has to be consistent, not a dictionary form.
 *
 * @internal
 */
export const stemWord = (word: string): string => {
  let stem = word.endsWith("'s") ? word.slice(0, -2) : word;
  if (stem.length >= 6 && stem.endsWith('ing')) stem = stem.slice(0, -3);
  else if (stem.length >= 6 && stem.endsWith('ed')) stem = stem.slice(0, -2);
  else if (stem.length >= 5 && stem.endsWith('es')) stem = stem.slice(0, -2);
  else if (stem.length >= 4 && stem.endsWith('s') && !stem.endsWith('ss')) stem = stem.slice(0, -1);
  if (stem.length >= 4 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
};

/**
 * The search terms of `text` for BM25: lower-case words of two or more characters (letters and
 * digits, any script; `works_at` gives `works`, `at`), without the stop words, stemmed
 * ({@link stemWord}).
 *
 * @internal
 */
export const searchWords = (text: string): string[] =>
  allWords(text)
    .filter((word) => !STOP_WORDS().has(word) && [...word].length >= 2)
    .map(stemWord);

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
