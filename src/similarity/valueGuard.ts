/**
 * The value guard: the values a text states, so that a near twin that changes one ("my flight is
 * at 9:10" → "my flight is at 9:40") is an update, never a duplicate. Rules, in order:
 *
 * 1. numbers, with the separators that make them one value: times (`9:10`), dates (`2026-12-01`,
 *    `12/01`), decimals and grouped digits (`3.5`, `1,000`), versions (`1.2.3`);
 * 2. month and weekday names, full or abbreviated (`March`, `mar`, `Tuesday`, `tue`);
 * 3. capitalized words, wherever they stand (names, places, products: `Paris` → `Berlin`);
 * 4. quoted text: between `"…"`, `“…”` or backticks, at most 80 characters;
 * 5. negations (`not`, `no`, `never`, `…n't`): "it is ready" and "it is not ready" differ;
 * 6. the content words, in order: every word (as the lexical embedder reads words: NFKC,
 *    lower-cased, runs of letters and digits) that is not a stop word (`stopWords.ts`: articles,
 *    demonstratives, courtesy and filler words), as one value. A content word replaced, added,
 *    dropped or moved anywhere in the text is a changed value ("the blue room" → "the green
 *    room"), however long the text: twins differ only in stop words, spacing and punctuation
 *    (outside numbers and quotes).
 *
 * Two texts state the same values when the lists are equal (as multisets). The rules are
 * deliberately wide: a false "differs" keeps a message that could have gone (the trim falls back
 * to the oldest), a false "same" would lose an update.
 */

import { lazy } from '../util/lazy';
import { LEXICAL_WORD } from './lexicalSketch';
import { isStopWord } from './stopWords';

const NUMBER = /\p{N}+(?:[.,:/-]\p{N}+)*/gu;
const CAPITALIZED = /(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}]*/gu;
const QUOTED = /"([^"\n]{1,80})"|“([^”\n]{1,80})”|`([^`\n]{1,80})`/gu;
const WORD = /[\p{L}']+/gu;

// Built on first use: a module-level call would reach every page that loads the library.
const calendar = /* @__PURE__ */ lazy(
  (): ReadonlySet<string> =>
    new Set(
      (
        'january february march april may june july august september october november december ' +
        'jan feb mar apr jun jul aug sep sept oct nov dec ' +
        'monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun ' +
        'today tomorrow yesterday'
      ).split(' '),
    ),
);

const NEGATIONS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'not',
  'no',
  'never',
  'none',
  'nothing',
]);

/**
 * The content words of a text in order (rule 6), as one value, or `undefined` when it has none.
 */
const contentWordsOf = (text: string): string | undefined => {
  let content: string | undefined;
  for (const word of text.normalize('NFKC').toLowerCase().match(LEXICAL_WORD) ?? []) {
    if (isStopWord(word)) continue;
    content = content === undefined ? `words:${word}` : `${content} ${word}`;
  }
  return content;
};

/**
 * The values a text states under the rules above, as a sorted list (one entry per occurrence of
 * rules 1 to 5, then one for the content words).
 *
 * @example
 * ```ts
 * valuesOf('My flight is at 9:10 on Friday'); // ['#9:10', 'Friday', 'My', 'cal:friday', 'words:my flight is at 9 10 on friday']
 * ```
 * @internal
 */
export const valuesOf = (text: string): string[] => {
  const values: string[] = [];
  for (const match of text.matchAll(NUMBER)) values.push(`#${match[0]}`);
  for (const match of text.matchAll(CAPITALIZED)) values.push(match[0]);
  for (const match of text.matchAll(QUOTED)) values.push(`"${match[1] ?? match[2] ?? match[3]}`);
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (calendar().has(word)) values.push(`cal:${word}`);
    if (NEGATIONS.has(word) || word.endsWith("n't")) values.push('not');
  }
  const content = contentWordsOf(text);
  if (content !== undefined) values.push(content);
  return values.sort();
};

/**
 * Whether two value lists (from {@link valuesOf}) are equal.
 *
 * @internal
 */
export const sameValues = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};
