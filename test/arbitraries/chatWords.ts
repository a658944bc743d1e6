import fc from 'fast-check';

/**
 * Chat-like messages as word lists, for the value guard's properties: words a user or an agent
 * writes (a room booking, a deploy, a meeting, a refund), in four kinds, so a message can be
 * edited one word at a time and rendered again with other spacing and punctuation.
 */

/**
 * The stop words of docs/pruning.md ("The value guard"), written out here (not read from `src/`):
 * articles, demonstratives, courtesy and filler words.
 */
export const STOP: readonly string[] = [
  'a',
  'an',
  'the',
  'this',
  'that',
  'these',
  'those',
  'please',
  'kindly',
  'thanks',
  'thank',
  'ok',
  'okay',
  'so',
  'well',
  'oh',
  'hi',
  'hello',
  'hey',
];

/**
 * Lower-case content words: nouns, verbs, adjectives, adverbs, and the function words that can
 * change what a message says (pronouns, prepositions, conjunctions, auxiliaries, quantities).
 */
export const LOWER: readonly string[] = (
  'room blue green red large small quiet window kitchen flight train ticket seat aisle booking ' +
  'hotel breakfast dinner meeting call review deploy release build branch server cache config ' +
  'file folder log error warning retry budget limit worker queue job test report invoice refund ' +
  'order customer account password email address phone team manager client project deadline ' +
  'morning evening week month early late fast slow cheap expensive open close send move check ' +
  'read write update delete cancel confirm book keep change fix restart pay ship need want like ' +
  'prefer use run stop start add remove upgrade downgrade again now later soon still only also ' +
  'just really very quickly i me my you your he him his she her we our they their it its to ' +
  'from in on at with without for by before after above below and or but if is was are were ' +
  'will would can could must may should has had did all some none every each more less first last'
).split(' ');

/** Capitalised content words: names, places, products. */
export const CAPITALISED: readonly string[] = (
  'Ada Grace Linus Paris Berlin Lyon Tokyo Monday Friday March Postgres Redis Chrome Slack ' +
  'Stripe GitHub Kubernetes'
).split(' ');

/** Numbers as messages state them: counts, times, dates, prices, versions, ids. */
export const NUMBERS: readonly string[] = [
  '2',
  '3',
  '10',
  '42',
  '250',
  '9:10',
  '9:40',
  '17:30',
  '2026-12-01',
  '12/03',
  '3.5',
  '1,000',
  '1.2.3',
  'v2',
  'room12',
];

/** Every content word (any kind). */
export const CONTENT: readonly string[] = [...LOWER, ...CAPITALISED, ...NUMBERS];

/** One word of a message, with the punctuation right after it ('' for none). */
export interface ChatToken {
  readonly word: string;
  readonly punct: string;
}

const PUNCT = ['', '', '', '', ',', '.', '?', '!', ';', ':'] as const;
const SPACES = [' ', ' ', ' ', '  ', '\n', ' \n', '\t'] as const;

/** A word: mostly lower-case content and stop words, sometimes a name or a number. */
const wordArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...STOP), weight: 3 },
  { arbitrary: fc.constantFrom(...LOWER), weight: 6 },
  { arbitrary: fc.constantFrom(...CAPITALISED), weight: 1 },
  { arbitrary: fc.constantFrom(...NUMBERS), weight: 1 },
);

/**
 * A message of `minLength` to `maxLength` words, every length as likely (fast-check's arrays
 * favour short ones), at least one of them a content word.
 */
export const chatTokensArb = (minLength: number, maxLength: number): fc.Arbitrary<ChatToken[]> =>
  fc
    .integer({ min: minLength, max: maxLength })
    .chain((length) =>
      fc.tuple(
        fc.array(fc.record({ word: wordArb, punct: fc.constantFrom(...PUNCT) }), {
          minLength: length,
          maxLength: length,
        }),
        fc.constantFrom(...LOWER),
      ),
    )
    .map(([tokens, content]) =>
      tokens.some((t) => !STOP.includes(t.word))
        ? tokens
        : [{ word: content, punct: '' }, ...tokens.slice(1)],
    );

/** Spacing choices for {@link renderChat}: one index into a list of separators per gap. */
export const spacingArb: fc.Arbitrary<number[]> = fc.array(fc.nat(SPACES.length - 1), {
  maxLength: 160,
  size: 'max',
});

/** Punctuation choices for {@link repunctuate}: one index per word. */
export const punctuationArb: fc.Arbitrary<number[]> = fc.array(fc.nat(), {
  maxLength: 160,
  size: 'max',
});

/**
 * The text of a message: each word with its punctuation, separated by single spaces or, with
 * `spacing`, by the separators it picks (spaces, tabs, line breaks).
 */
export const renderChat = (tokens: readonly ChatToken[], spacing: readonly number[] = []): string =>
  tokens
    .map((t, i) => {
      const gap = i === 0 ? '' : (SPACES[(spacing[i] ?? 0) % SPACES.length] as string);
      return `${gap}${t.word}${t.punct}`;
    })
    .join('');

/** Other punctuation for the same words: each token's punctuation picked again from `picks`. */
export const repunctuate = (tokens: readonly ChatToken[], picks: readonly number[]): ChatToken[] =>
  tokens.map((t, i) => ({
    word: t.word,
    punct:
      picks[i] === undefined ? t.punct : (PUNCT[(picks[i] as number) % PUNCT.length] as string),
  }));
