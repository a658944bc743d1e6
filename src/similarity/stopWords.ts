import { lazy } from '../util/lazy';

/**
 * The value guard's stop words: the words that shape a sentence but state nothing, so that a
 * near twin that adds, drops or swaps only these is still a twin. Every other word is a content
 * word, and a changed content word is a changed value. The list is short on purpose: pronouns
 * (`me` → `him`), prepositions (`to` → `from`), conjunctions (`and` → `or`), verbs of every kind
 * (`is` → `was`) and quantities (`all` → `some`) can each change what a message says, so they
 * count. What is here:
 *
 * - articles and demonstratives: `a`, `an`, `the`, `this`, `that`, `these`, `those`;
 * - courtesy and filler words: `please`, `kindly`, `thanks`, `thank`, `ok`, `okay`, `so`, `well`,
 *   `oh`, `hi`, `hello`, `hey`.
 *
 * Words are matched as the lexical embedder reads them (NFKC, lower-cased).
 *
 * @example
 * ```ts
 * STOP_WORDS.includes('the'); // true
 * STOP_WORDS.includes('blue'); // false
 * ```
 * @internal
 */
export const STOP_WORDS: readonly string[] = [
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

// Built on first use: a module-level Set would reach every page that loads the library.
const stopWordSet = /* @__PURE__ */ lazy((): ReadonlySet<string> => new Set(STOP_WORDS));

/**
 * Whether a (lower-cased) word is one of the {@link STOP_WORDS}.
 *
 * @example
 * ```ts
 * isStopWord('please'); // true
 * isStopWord('green'); // false
 * ```
 * @internal
 */
export const isStopWord = (word: string): boolean => stopWordSet().has(word);
