import type { Word } from './words';
import { lazy } from '../../../util/lazy';

/**
 * Dates of the local extractor: the first date phrase of a sentence dates the facts stated in
 * it (`validFrom`, milliseconds since the epoch, UTC).
 */

const MONTHS: () => ReadonlyMap<string, number> = /* @__PURE__ */ lazy(
  () =>
    new Map(
      [
        ['january', 'jan'],
        ['february', 'feb'],
        ['march', 'mar'],
        ['april', 'apr'],
        ['may', 'may'],
        ['june', 'jun'],
        ['july', 'jul'],
        ['august', 'aug'],
        ['september', 'sep'],
        ['october', 'oct'],
        ['november', 'nov'],
        ['december', 'dec'],
      ].flatMap(([name, short], index) => [
        [name ?? '', index],
        [short ?? '', index],
      ]),
    ),
);

/** The month (0 for January) a word names, in full or in three letters; `undefined` otherwise. */
export const monthOf = (word: Word | undefined): number | undefined =>
  word === undefined ? undefined : MONTHS().get(word.lower);

/** The words that open a date phrase. */
const OPENERS = /* @__PURE__ */ new Set(['on', 'since', 'from', 'in']);

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const YEAR = /^\d{4}$/;
const DAY = /^(\d{1,2})(?:st|nd|rd|th)?$/;

/** UTC midnight of a real day (`undefined` for February 30th, month 13, a year before 1000). */
const utcDay = (year: number, month: number, day: number): number | undefined => {
  if (year < 1000) return undefined;
  const date = new Date(Date.UTC(year, month, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month && date.getUTCDate() === day
    ? date.getTime()
    : undefined;
};

const yearAt = (words: readonly Word[], i: number): number | undefined => {
  const text = words[i]?.text ?? '';
  return YEAR.test(text) ? Number(text) : undefined;
};

const dayAt = (words: readonly Word[], i: number): number | undefined => {
  const match = DAY.exec(words[i]?.lower ?? '');
  return match === null ? undefined : Number(match[1]);
};

/**
 * The date of the phrase that starts after an opener at `i`: `2024-03-01`, `March 2024`,
 * `March 1, 2024`, `March 1st 2024`, `1 March 2024`, or a year alone (`2020`: January 1st).
 */
const dateAfter = (words: readonly Word[], i: number): number | undefined => {
  const first = words[i]?.text ?? '';
  const iso = ISO_DAY.exec(first);
  if (iso !== null) return utcDay(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  const year = yearAt(words, i);
  if (year !== undefined) return utcDay(year, 0, 1);
  const month = monthOf(words[i]);
  if (month !== undefined) {
    const monthYear = yearAt(words, i + 1);
    if (monthYear !== undefined) return utcDay(monthYear, month, 1);
    const day = dayAt(words, i + 1);
    if (day === undefined) return undefined;
    const comma = words[i + 2]?.text === ',' ? 1 : 0;
    const dayYear = yearAt(words, i + 2 + comma);
    return dayYear === undefined ? undefined : utcDay(dayYear, month, day);
  }
  const day = dayAt(words, i);
  const dayMonth = monthOf(words[i + 1]);
  const dayYear = yearAt(words, i + 2);
  return day === undefined || dayMonth === undefined || dayYear === undefined
    ? undefined
    : utcDay(dayYear, dayMonth, day);
};

/**
 * The first date of a sentence: `on`, `since`, `from` or `in`, then a date phrase (see
 * `dateAfter`); `undefined` when it has none. Each opener looks at most five words ahead.
 *
 * @internal
 */
export const sentenceDate = (words: readonly Word[]): number | undefined => {
  for (let i = 0; i < words.length - 1; i++) {
    if (!OPENERS.has(words[i]?.lower ?? '')) continue;
    const date = dateAfter(words, i + 1);
    if (date !== undefined) return date;
  }
  return undefined;
};
