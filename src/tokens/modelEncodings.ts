import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
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

/** Encoding variants that share a base table and differ only in special tokens (counted as text). */
const BASE_OF: ReadonlyMap<string, EncodingName> = /* @__PURE__ */ new Map<string, EncodingName>([
  ['o200k_base', 'o200k_base'],
  ['o200k_harmony', 'o200k_base'],
  ['cl100k_base', 'cl100k_base'],
  ['p50k_base', 'p50k_base'],
  ['p50k_edit', 'p50k_base'],
  ['r50k_base', 'r50k_base'],
  ['gpt2', 'r50k_base'],
]);

/** gpt-tokenizer's model table, read by own property only. */
const tableEncoding = (model: string): EncodingName | undefined => {
  const table = modelToEncodingMap as Readonly<Record<string, unknown>>;
  if (!Object.hasOwn(table, model)) return undefined;
  const encoding = table[model];
  return typeof encoding === 'string' ? BASE_OF.get(encoding) : undefined;
};

/**
 * The encoding of a model this library recognizes (an exact model id, gpt-tokenizer's model
 * table, or a dated or fine-tuned variant by prefix), or `undefined` for any other string: no
 * fallback. Used to tell a model id from a tokenizer name (a user who writes
 * `tokenizer: 'gpt-4o'` means `'o200k_base'`).
 *
 * @param model - any string
 * @returns the model's encoding, or `undefined` when the model is not recognized
 * @example
 * ```ts
 * knownModelEncoding('gpt-4o-2024-08-06'); // 'o200k_base'
 * knownModelEncoding('my-local-model'); // undefined
 * ```
 * @internal
 */
export const knownModelEncoding = (model: string): EncodingName | undefined => {
  const exact = EXACT.get(model) ?? tableEncoding(model);
  if (exact !== undefined) return exact;
  for (const [prefix, encoding] of PREFIXES) {
    if (model.startsWith(prefix)) return encoding;
  }
  return undefined;
};

/**
 * The encoding the reference's `estimate_tokens` would use for a model (tiktoken's
 * `encoding_for_model`): an exact model id, then a known prefix (dated and fine-tuned variants),
 * and `cl100k_base` for anything unknown, which is the reference's fallback.
 *
 * @param model - a model id such as `'gpt-4o'` or `'gpt-4o-2024-08-06'`
 * @returns an encoding name
 * @example
 * ```ts
 * encodingForModel('gpt-4o'); // 'o200k_base'
 * encodingForModel('gpt-4-0613'); // 'cl100k_base'
 * encodingForModel('my-local-model'); // 'cl100k_base'
 * ```
 */
export const encodingForModel = (model: string): EncodingName =>
  knownModelEncoding(model) ?? 'cl100k_base';
