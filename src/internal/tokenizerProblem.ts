import { loadAdvice } from '../tokens/encodingLoader';
import { isKnownTokenizer, isTokenizerReady } from '../tokens/registry';
import { describeValue } from '../util/describeValue';
import { tokenizerOfModel } from '../tokens/tokenizerOfModel';

/** When a model id is given where a tokenizer name belongs: the encoding of that model. */
const modelHint = (name: unknown): string => {
  if (typeof name !== 'string') return '';
  const encoding = tokenizerOfModel(name);
  return encoding === undefined
    ? ''
    : ` (${describeValue(name)} is a model; its tokenizer is "${encoding}")`;
};

/**
 * Why a tokenizer name cannot be used here, or `undefined` when it can: unknown, or a built-in
 * encoding this runtime cannot load synchronously (a browser that has not awaited
 * `loadTokenizer`). Phrased to follow the field's name.
 *
 * @internal
 */
export const tokenizerProblem = (name: unknown): string | undefined => {
  if (!isKnownTokenizer(name)) {
    return `must be "o200k_base", "cl100k_base", "heuristic" or a name registered with registerTokenizer, received ${describeValue(name)}${modelHint(name)}`;
  }
  if (!isTokenizerReady(name)) {
    return `must be loaded first in this runtime: ${loadAdvice(name)}`;
  }
  return undefined;
};
