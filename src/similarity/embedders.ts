import { EmbedderError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { lazy } from '../util/lazy';
import { shared } from '../util/shared';
import type { EmbedderName } from '../model/config';

/**
 * Maps a text to a vector. It must be deterministic (the same text gives the same vector, in every
 * process, so a replay prunes the same messages) and synchronous (reducers are pure and
 * synchronous: a network embedder answers from a cache it fills ahead, as
 * `createOpenAIEmbedder` does). Two texts are compared by the cosine of their vectors; a vector is
 * a list of numbers or a `Float32Array` / `Float64Array`.
 *
 * @example
 * ```ts
 * const letters: Embedder = (text) => [text.length, text.split(' ').length];
 * ```
 */
export type Embedder = (text: string) => readonly number[] | Float32Array | Float64Array;

/** The built-in embedders. */
export const BUILT_IN_EMBEDDERS: readonly string[] = /* @__PURE__ */ Object.freeze(['lexical']);

/** Registered embedders, shared by every copy of the package loaded in this realm (ESM and CJS). */
const custom = /* @__PURE__ */ lazy(() =>
  shared(
    'embedders',
    () => new Map<string, Embedder>(),
    (value) => value instanceof Map,
  ),
);

/**
 * Tells whether `name` is an embedder this runtime knows: `'lexical'` or a registered name.
 *
 * @example
 * ```ts
 * isKnownEmbedder('lexical'); // true
 * ```
 */
export const isKnownEmbedder = (name: unknown): name is EmbedderName =>
  typeof name === 'string' && (BUILT_IN_EMBEDDERS.includes(name) || custom().has(name));

/**
 * The registered function of `name`, or `undefined` (for `'lexical'` and unknown names).
 *
 * @internal
 */
export const registeredEmbedder = (name: string): Embedder | undefined => custom().get(name);

/**
 * Registers an embedder under a name that configs can then give as `embedder`, as
 * `registerTokenizer` does for tokenizers. A name cannot be taken twice with different functions
 * (a state pruned with one would be replayed with another); registering the same function again
 * is a no-op. Vectors are compared by cosine similarity, bucketed by SimHash bands.
 *
 * @param name - a non-empty name other than `'lexical'`
 * @param embed - a deterministic, synchronous {@link Embedder}
 * @throws EmbedderError when the name or the function is unusable
 * @example
 * ```ts
 * registerEmbedder('letters', (text) => [text.length, text.split(' ').length]);
 * const state = createMemory({ prune: 'redundant', embedder: 'letters' });
 * ```
 */
export const registerEmbedder = (name: string, embed: Embedder): void => {
  const api = 'registerEmbedder';
  if (typeof name !== 'string' || name === '') {
    throw new EmbedderError(
      api,
      `name must be a non-empty string, received ${describeValue(name)}`,
    );
  }
  if (typeof embed !== 'function') {
    throw new EmbedderError(api, `embed must be a function, received ${describeValue(embed)}`);
  }
  if (BUILT_IN_EMBEDDERS.includes(name)) {
    throw new EmbedderError(
      api,
      `${describeValue(name)} is a built-in embedder and cannot be replaced`,
    );
  }
  const existing = custom().get(name);
  if (existing !== undefined && existing !== embed) {
    throw new EmbedderError(
      api,
      `${describeValue(name)} is already registered with another function; choose a new name`,
    );
  }
  custom().set(name, embed);
};

/**
 * The problem with an `embedder` option value, or `undefined` when it names a known embedder.
 *
 * @internal
 */
export const embedderProblem = (name: unknown): string | undefined =>
  isKnownEmbedder(name)
    ? undefined
    : `must be "lexical" or a name registered with registerEmbedder, received ${describeValue(name)}`;
