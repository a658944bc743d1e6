import { MAX_EXTRACTED_NAME_CHARS } from '../answerLimits';
import { monthOf } from './dates';
import type { Word } from './words';

/**
 * Names and phrases of the local extractor: a name is capitalised words (`Bank of America`), a
 * phrase is plain words after an optional article (`a software engineer`). Each reader looks at
 * most a few words.
 */

/** The most words of a name (`Bank of America` is 3). */
const NAME_WORDS = 5;
/** The most words of a phrase (`software engineer`, `dark mode`). */
const PHRASE_WORDS = 4;

/** Lower-case words allowed inside a name (`Bank of America`, `Procter & Gamble`). */
const NAME_JOINERS = /* @__PURE__ */ new Set([
  'of',
  '&',
  'de',
  'del',
  'der',
  'van',
  'von',
  'la',
  'le',
  'du',
]);

/**
 * Capitalised words that are not names on their own: pronouns and determiners, greetings,
 * months and weekdays (`May` is never a name here).
 */
const NOT_NAMES = /* @__PURE__ */ new Set([
  ...['i', "i'm", "i've", "i'd", "i'll", 'my', 'me', 'we', 'our', 'you', 'your', 'he', 'she'],
  ...['his', 'her', 'they', 'their', 'it', 'its', 'the', 'a', 'an', 'this', 'that', 'these'],
  ...['those', 'there', 'here', 'hi', 'hello', 'hey', 'thanks', 'yes', 'no', 'ok', 'okay'],
  ...['please', 'and', 'but', 'or', 'so', 'also', 'user', 'assistant', 'system', 'tool'],
  ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
]);

/** Words that end a phrase (`a developer at Acme` → `developer`), pronouns included. */
const PHRASE_STOPS = /* @__PURE__ */ new Set([
  ...['and', 'or', 'but', 'at', 'in', 'on', 'for', 'with', 'from', 'since', 'to', 'who'],
  ...['which', 'that', 'because', 'as', 'when', 'while', 'where', 'if', 'than', 'so', 'very'],
  ...['too', 'now', 'here', 'there', 'by', 'i', "i'm", "i've", "i'd", "i'll", 'my', 'me'],
  ...['we', 'you', 'he', 'she', 'they', 'it', 'this', 'these', 'those'],
]);

const ARTICLES = /* @__PURE__ */ new Set(['a', 'an', 'the']);

const isName = (word: Word | undefined): boolean =>
  word !== undefined &&
  word.capital &&
  !word.punct &&
  !NOT_NAMES.has(word.lower) &&
  monthOf(word) === undefined;

/** A name starting at `start`: capitalised words, joined by {@link NAME_JOINERS}. @internal */
export const nameAt = (
  words: readonly Word[],
  start: number,
  maxWords = NAME_WORDS,
): { readonly name: string; readonly end: number } | undefined => {
  if (!isName(words[start])) return undefined;
  let end = start + 1;
  while (end - start < maxWords) {
    const next = words[end];
    if (isName(next)) end++;
    else if (next !== undefined && NAME_JOINERS.has(next.lower) && isName(words[end + 1])) end += 2;
    else break;
  }
  const name = words
    .slice(start, end)
    .map((word) => word.text)
    .join(' ');
  return name.length <= MAX_EXTRACTED_NAME_CHARS ? { name, end } : undefined;
};

/** The name ending at `last` (inclusive), read backwards: `My friend Bob` → `Bob`. @internal */
export const nameEndingAt = (words: readonly Word[], last: number): string | undefined => {
  if (!isName(words[last])) return undefined;
  let start = last;
  for (let count = 1; count < NAME_WORDS; count++) {
    if (isName(words[start - 1])) start--;
    else if (NAME_JOINERS.has(words[start - 1]?.lower ?? '') && isName(words[start - 2]))
      start -= 2;
    else break;
  }
  const found = nameAt(words, start);
  return found?.end === last + 1 ? found.name : undefined;
};

/** A phrase starting at `start`, after an optional article: plain words up to a stop. @internal */
export const phraseAt = (
  words: readonly Word[],
  start: number,
): { readonly phrase: string; readonly end: number } | undefined => {
  let i = ARTICLES.has(words[start]?.lower ?? '') ? start + 1 : start;
  const from = i;
  while (i - from < PHRASE_WORDS) {
    const word = words[i];
    if (word === undefined || word.punct || PHRASE_STOPS.has(word.lower)) break;
    i++;
  }
  const phrase = words
    .slice(from, i)
    .map((word) => word.text)
    .join(' ');
  return phrase === '' || phrase.length > MAX_EXTRACTED_NAME_CHARS ? undefined : { phrase, end: i };
};
