import type { EncodingName } from './encodings';

/**
 * Current model families, by exact id, that gpt-tokenizer's legacy table does not list. A `Map`,
 * so that a model id such as `'constructor'` or `'__proto__'` finds nothing (a plain object would
 * answer with what `Object.prototype` holds).
 */
const EXACT: ReadonlyMap<string, EncodingName> = /* @__PURE__ */ new Map<string, EncodingName>([
  ['gpt-5', 'o200k_base'],
  ['gpt-4.5', 'o200k_base'],
  ['gpt-4.1', 'o200k_base'],
  ['gpt-4o', 'o200k_base'],
  ['chatgpt-4o-latest', 'o200k_base'],
  ['o1', 'o200k_base'],
  ['o3', 'o200k_base'],
  ['o4-mini', 'o200k_base'],
  ['gpt-oss-20b', 'o200k_base'],
  ['gpt-oss-120b', 'o200k_base'],
]);

/** Dated and fine-tuned variants, by prefix, longest first where prefixes nest. */
const PREFIXES: readonly (readonly [string, EncodingName])[] = [
  ['ft:gpt-4o', 'o200k_base'],
  ['ft:gpt-4', 'cl100k_base'],
  ['ft:gpt-3.5-turbo', 'cl100k_base'],
  ['ft:davinci-002', 'cl100k_base'],
  ['ft:babbage-002', 'cl100k_base'],
  ['gpt-5-', 'o200k_base'],
  ['gpt-4.5-', 'o200k_base'],
  ['gpt-4.1-', 'o200k_base'],
  ['gpt-4o-', 'o200k_base'],
  ['chatgpt-4o-', 'o200k_base'],
  ['gpt-oss-', 'o200k_base'],
  ['o1-', 'o200k_base'],
  ['o3-', 'o200k_base'],
  ['o4-mini-', 'o200k_base'],
  ['gpt-4-', 'cl100k_base'],
  ['gpt-3.5-turbo-', 'cl100k_base'],
  ['gpt-35-turbo-', 'cl100k_base'],
];

/**
 * The encoding of a current model family this library lists itself, by exact id (no table of
 * gpt-tokenizer's is read).
 *
 * @param model - any string
 * @returns the model's encoding, or `undefined`
 * @example
 * ```ts
 * exactModelEncoding('gpt-4o'); // 'o200k_base'
 * exactModelEncoding('gpt-4o-2024-08-06'); // undefined (a dated variant: see prefixModelEncoding)
 * ```
 * @internal
 */
export const exactModelEncoding = (model: string): EncodingName | undefined => EXACT.get(model);

/**
 * The encoding of a dated or fine-tuned variant of a model family, by prefix.
 *
 * @param model - any string
 * @returns the encoding of the first prefix the model starts with, or `undefined`
 * @example
 * ```ts
 * prefixModelEncoding('gpt-4o-2024-08-06'); // 'o200k_base'
 * prefixModelEncoding('ft:gpt-4-0613:org::id'); // 'cl100k_base'
 * ```
 * @internal
 */
export const prefixModelEncoding = (model: string): EncodingName | undefined => {
  for (const [prefix, encoding] of PREFIXES) {
    if (model.startsWith(prefix)) return encoding;
  }
  return undefined;
};
