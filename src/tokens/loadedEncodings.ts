import { shared } from '../util/shared';
import type { EncodingName } from './encodings';

/**
 * A loaded encoding's counter: the tokens of a text, special tokens counted as text.
 *
 * @example
 * ```ts
 * const count: EncodingCounter = (text) => text.length;
 * ```
 * @internal
 */
export type EncodingCounter = (text: string) => number;

/**
 * Loaded counters, shared by every copy of this package in the realm: the ESM, CJS and browser
 * builds of the root entry, and `conversation-memory/encodings`, which loads the encodings for the
 * browser build. Each table is loaded once per process. Named apart from 0.1.0's `encodings` slot:
 * a counter of that release is quadratic on long whitespace runs, and must not be picked up when
 * both releases are loaded side by side.
 */
const loaded = shared(
  'encodings-linear',
  () => new Map<EncodingName, EncodingCounter>(),
  (value) => value instanceof Map,
);

/**
 * The counter of an encoding that is already loaded.
 *
 * @param name - an encoding name
 * @returns its counter, or `undefined` when it is not loaded yet
 * @example
 * ```ts
 * loadedCounter('o200k_base')?.('Hello, world!'); // 4 once loaded
 * ```
 * @internal
 */
export const loadedCounter = (name: EncodingName): EncodingCounter | undefined => loaded.get(name);

/**
 * Keeps the counter of an encoding for every later use, in every copy of the package.
 *
 * @param name - an encoding name
 * @param count - its counter
 * @returns `count`
 * @example
 * ```ts
 * keepCounter('o200k_base', count);
 * ```
 * @internal
 */
export const keepCounter = (name: EncodingName, count: EncodingCounter): EncodingCounter => {
  loaded.set(name, count);
  return count;
};
