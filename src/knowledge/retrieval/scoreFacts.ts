import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { readOptionFields } from '../../internal/readOptionFields';
import { bm25Scores } from './bm25';
import { allWords, nameOccursIn } from './searchWords';

/**
 * Scores texts for a query, higher for more relevant, 0 or less for unrelated: what an
 * application plugs in to replace BM25 (cosine similarity of embeddings, say). Must return one
 * finite number per text, in order, synchronously.
 *
 * @example
 * ```ts
 * const byLength: FactScorer = (query, texts) => texts.map((t) => (t.includes(query) ? 1 : 0));
 * ```
 */
export type FactScorer = (query: string, texts: readonly string[]) => readonly number[];

/**
 * One fact as scoring sees it: its searchable `text` and the entity `names` it mentions (its own
 * name and aliases for an entity; the subject's and object's for a relation).
 *
 * @example
 * ```ts
 * const doc: FactDocument = { text: 'Alice works_at Acme', names: ['Alice', 'Acme'] };
 * ```
 */
export interface FactDocument {
  readonly text: string;
  readonly names?: readonly string[];
}

/**
 * Options of {@link scoreFacts}: `score` replaces BM25.
 *
 * @example
 * ```ts
 * const options: ScoreFactsOptions = { score: (query, texts) => texts.map(() => 1) };
 * ```
 */
export interface ScoreFactsOptions {
  readonly score?: FactScorer;
}

const checkScores = (api: string, scores: unknown, count: number): readonly number[] => {
  if (!Array.isArray(scores) || scores.length !== count) {
    throw new MemoryArgumentError(
      api,
      `score must return an array of ${count} numbers (one per text), received ${describeValue(scores)}`,
    );
  }
  const bad = (scores as unknown[]).findIndex((s) => typeof s !== 'number' || !Number.isFinite(s));
  if (bad >= 0) {
    throw new MemoryArgumentError(
      api,
      `score must return finite numbers, received ${describeValue(scores[bad])} at index ${bad}`,
    );
  }
  return scores as readonly number[];
};

/** Words of the first person: a query that uses one names the user. */
const FIRST_PERSON: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'i',
  'me',
  'my',
  'mine',
  'myself',
]);

/**
 * The query's words, with `user` added when it speaks in the first person ("where do I work?"
 * names the entity `User`, which the local extractor and most extraction prompts use for the
 * person speaking), so the entity boost finds the user's facts.
 */
const withFirstPerson = (words: string[]): string[] =>
  words.some((word) => FIRST_PERSON.has(word)) ? [...words, 'user'] : words;

/**
 * {@link scoreFacts}, naming `api` in its errors.
 *
 * @internal
 */
export const scoreFactsFor = (
  api: string,
  query: string,
  documents: readonly FactDocument[],
  score: FactScorer | undefined,
): number[] => {
  const texts = documents.map((d) => d.text);
  const base =
    score === undefined
      ? bm25Scores(query, texts)
      : checkScores(api, score(query, texts), texts.length);
  const queryWords = withFirstPerson(allWords(query));
  const named = documents.map((d) =>
    (d.names ?? []).some((name) => nameOccursIn(name, queryWords)),
  );
  if (!named.includes(true)) return [...base];
  const lift = Math.max(...base) - Math.min(...base) + 1;
  return base.map((s, i) => (named[i] === true ? s + lift : s));
};

/**
 * Scores facts for the current user message: Okapi BM25 (k1 = 1.2, b = 0.75, see `BM25_K1`,
 * `BM25_B`) over each fact's text, with lower-case words of two or more letters or digits and a
 * small stop list, plus an entity boost: a fact that names an entity whose name or alias occurs in
 * the query (its words, side by side, any case) is lifted above every fact that does not, and
 * keeps its own score's order among the lifted ones. `options.score` replaces BM25 (an
 * application's embedder); the boost still applies. A fact with a score above 0 is relevant.
 *
 * @param query - the user's message
 * @param documents - the facts' texts and the names they mention
 * @param options - `score` to replace BM25
 * @returns one score per document, in order
 * @throws MemoryArgumentError when `options.score` returns anything but one finite number per text,
 *   is not a function, or the options hold an unknown key or cannot be read (with the error as
 *   `cause`)
 * @example
 * ```ts
 * scoreFacts('where does alice work', [
 *   { text: 'Bob knows Carol', names: ['Bob', 'Carol'] },
 *   { text: 'Alice works_at Acme', names: ['Alice', 'Acme'] },
 * ]); // [0, 2.386…]: BM25 on "alice" (0.693…), lifted by 1.693… for naming Alice
 * ```
 */
export const scoreFacts = (
  query: string,
  documents: readonly FactDocument[],
  options: ScoreFactsOptions = {},
): number[] => {
  const { score } = readOptionFields(options, ['score'], 'scoreFacts', { example: '{ score }' });
  if (score !== undefined && typeof score !== 'function') {
    throw new MemoryArgumentError(
      'scoreFacts',
      `options.score must be a function (query, texts) => scores, received ${describeValue(score)}`,
    );
  }
  return scoreFactsFor('scoreFacts', query, documents, score as FactScorer | undefined);
};
