import { either as E } from 'fp-ts';
import { MemoryDecodeError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';

/** The `format` of an exported embedding cache. */
export const EMBEDDING_CACHE_FORMAT = 'conversation-memory/embeddings';

/**
 * An embedder's cache as plain JSON data (`exportCache()`): the model and `dimensions` the vectors
 * were fetched with, and each text with its vector, in the order they were cached. Saved beside
 * a recorded conversation, it replays with the very same vectors, offline (`importCache`).
 *
 * @example
 * ```ts
 * const cache: EmbeddingCacheDict = {
 *   format: 'conversation-memory/embeddings', version: 1, model: 'text-embedding-3-small',
 *   dimensions: null, entries: [{ text: 'hello', embedding: [0.6, 0.8] }],
 * };
 * ```
 */
export interface EmbeddingCacheDict {
  /** Always `'conversation-memory/embeddings'`: what the data is. */
  readonly format: typeof EMBEDDING_CACHE_FORMAT;
  /** The version of this format: 1. */
  readonly version: 1;
  /** The model the vectors come from; an import into an embedder of another model is refused. */
  readonly model: string;
  /** The `dimensions` option the vectors were fetched with; `null` for the model's own. */
  readonly dimensions: number | null;
  /** Each text with its vector, each text once, all vectors of one length. */
  readonly entries: readonly EmbeddingCacheEntry[];
}

/**
 * One text and its vector in an {@link EmbeddingCacheDict}.
 *
 * @example
 * ```ts
 * const entry: EmbeddingCacheEntry = { text: 'hello', embedding: [0.6, 0.8] };
 * ```
 */
export interface EmbeddingCacheEntry {
  /** The text, exactly as it was embedded. */
  readonly text: string;
  /** Its vector: finite numbers (a copy of the cached one, in an export). */
  readonly embedding: readonly number[];
}

/** What the cache must agree with to be imported. */
export interface CacheExpectation {
  readonly model: string;
  readonly dimensions: number | undefined;
  /** The length of the vectors already cached, if any. */
  readonly length: number | undefined;
  readonly cached: ReadonlyMap<string, readonly number[]>;
}

/** A decoder stops looking after this many problems (rejecting a huge input stays cheap). */
const MAX_PROBLEMS = 1000;
/** The most entries, and the longest vector, an import accepts. */
export const MAX_CACHE_ENTRIES = 1_000_000;
export const MAX_EMBEDDING_LENGTH = 65_536;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (record: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;

const sameVector = (a: readonly number[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((value, i) => Object.is(value, b[i]));

class TooManyProblems extends Error {}

/**
 * Decodes an exported cache (the object, or its JSON text) as hostile input, against the embedder
 * that imports it: the same model and `dimensions`; each entry a string `text` (each text once)
 * with a non-empty array of finite numbers, all of one length (the cache's own, when it holds
 * vectors already); a text the embedder has already must come with the vector it has (a cached
 * vector never changes). Never throws.
 *
 * @param input - the exported cache, or its JSON text
 * @param expect - the importing embedder's model, dimensions, vector length and cache
 * @returns the entries not cached yet, or every problem with its path and value
 * @example
 * ```ts
 * decodeEmbeddingCache({ format: 'x' }, expect);
 * // Left: format: expected "conversation-memory/embeddings", got "x"; …
 * ```
 * @internal
 */
export const decodeEmbeddingCache = (
  input: unknown,
  expect: CacheExpectation,
): E.Either<MemoryDecodeError, readonly EmbeddingCacheEntry[]> => {
  const problems: string[] = [];
  const problem = (text: string): void => {
    problems.push(text);
    if (problems.length >= MAX_PROBLEMS) throw new TooManyProblems();
  };
  const fresh: EmbeddingCacheEntry[] = [];
  try {
    readCache(parse(input, problem), expect, problem, fresh);
  } catch (error) {
    if (error instanceof TooManyProblems) {
      return E.left(new MemoryDecodeError(API, problems, { countComplete: false }));
    }
    problems.push(`(root): the input could not be read (${describeValue(error)})`);
  }
  return problems.length > 0 ? E.left(new MemoryDecodeError(API, problems)) : E.right(fresh);
};

const API = 'createOpenAIEmbedder.importCache';

/** What {@link parse} returns for a text that is not JSON (its problem is already reported). */
const NOT_JSON: unique symbol = Symbol('not JSON');

const parse = (input: unknown, problem: (text: string) => void): unknown => {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    problem(`(root): the text is not JSON (${input.length} characters)`);
    return NOT_JSON;
  }
};

const readCache = (
  json: unknown,
  expect: CacheExpectation,
  problem: (text: string) => void,
  fresh: EmbeddingCacheEntry[],
): void => {
  if (json === NOT_JSON) return;
  if (!isRecord(json)) {
    problem(`(root): expected an exported embedding cache (an object), got ${describeValue(json)}`);
    return;
  }
  const format = own(json, 'format');
  if (format !== EMBEDDING_CACHE_FORMAT) {
    problem(`format: expected "${EMBEDDING_CACHE_FORMAT}", got ${describeValue(format)}`);
  }
  const version = own(json, 'version');
  if (version !== 1) problem(`version: expected 1, got ${describeValue(version)}`);
  const model = own(json, 'model');
  if (model !== expect.model) {
    problem(
      `model: expected ${describeValue(expect.model)} (this embedder's: vectors of different models do not compare), got ${describeValue(model)}`,
    );
  }
  const dimensions = own(json, 'dimensions');
  const wanted = expect.dimensions ?? null;
  if (dimensions !== wanted) {
    problem(
      `dimensions: expected ${describeValue(wanted)} (this embedder's), got ${describeValue(dimensions)}`,
    );
  }
  const entries = own(json, 'entries');
  if (!Array.isArray(entries)) {
    problem(`entries: expected an array, got ${describeValue(entries)}`);
    return;
  }
  if (entries.length > MAX_CACHE_ENTRIES) {
    problem(`entries: expected at most ${MAX_CACHE_ENTRIES} entries, got ${entries.length}`);
    return;
  }
  readEntries(entries, expect, problem, fresh);
};

const readEntries = (
  entries: readonly unknown[],
  expect: CacheExpectation,
  problem: (text: string) => void,
  fresh: EmbeddingCacheEntry[],
): void => {
  let length = expect.dimensions ?? expect.length;
  let lengthFrom = length === undefined ? '' : " (this embedder's)";
  const seen = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    const path = `entries[${i}]`;
    const entry = entries[i];
    if (!isRecord(entry)) {
      problem(`${path}: expected an object with text and embedding, got ${describeValue(entry)}`);
      continue;
    }
    const text = own(entry, 'text');
    const embedding = own(entry, 'embedding');
    if (typeof text !== 'string') {
      problem(`${path}.text: expected a string, got ${describeValue(text)}`);
    } else if (seen.has(text)) {
      problem(`${path}.text: the same text as entries[${String(seen.get(text))}]`);
    } else seen.set(text, i);
    if (!Array.isArray(embedding) || embedding.length === 0) {
      problem(
        `${path}.embedding: expected a non-empty array of numbers, got ${describeValue(embedding)}`,
      );
      continue;
    }
    if (embedding.length > MAX_EMBEDDING_LENGTH) {
      problem(
        `${path}.embedding: expected at most ${MAX_EMBEDDING_LENGTH} numbers, got ${embedding.length}`,
      );
      continue;
    }
    const vector: number[] = [];
    for (let k = 0; k < embedding.length; k++) {
      const value: unknown = embedding[k];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        problem(`${path}.embedding[${k}]: expected a finite number, got ${describeValue(value)}`);
        break;
      }
      vector.push(value);
    }
    if (vector.length !== embedding.length) continue;
    if (length === undefined) {
      length = vector.length;
      lengthFrom = ` (as ${path})`;
    } else if (vector.length !== length) {
      problem(`${path}.embedding: expected ${length} numbers${lengthFrom}, got ${vector.length}`);
      continue;
    }
    if (typeof text !== 'string' || seen.get(text) !== i) continue;
    const cached = expect.cached.get(text);
    if (cached === undefined) fresh.push({ text, embedding: vector });
    else if (!sameVector(cached, vector)) {
      problem(
        `${path}.embedding: differs from the vector this embedder has for ${describeValue(text)}`,
      );
    }
  }
};
