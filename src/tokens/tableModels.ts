import type { EncodingName } from './encodings';
import type { MemoryEncoding } from './memoryEncoding';

/** A `Map` from each model to its encoding, so that `'constructor'` or `'__proto__'` finds nothing. */
const byModel = <E extends EncodingName>(
  groups: Readonly<Partial<Record<E, readonly string[]>>>,
): ReadonlyMap<string, E> => {
  const map = new Map<string, E>();
  for (const [encoding, models] of Object.entries(groups) as [E, readonly string[]][]) {
    for (const model of models) map.set(model, encoding);
  }
  return map;
};

/*
 * gpt-tokenizer 4's model table (`modelToEncodingMap` of `gpt-tokenizer/mapping`), copied as
 * facts, each model under its base encoding (`p50k_edit` counts as `p50k_base`, `gpt2` as
 * `r50k_base`: they differ only in special tokens, which are counted as text), leaving out what
 * modelFamilies.ts answers the same way (`gpt-oss-20b`; `gpt-4-…` and `gpt-3.5-turbo-…` by
 * prefix). Importing the table instead would put it in every bundle of the root entry, used or
 * not: gpt-tokenizer does not declare itself free of side effects, and its module computes the
 * table when it loads (1.3 KB gzipped with what it imports). test/tokens/tokens.tableModels.test.ts
 * compares every model of gpt-tokenizer's own table, so an upgrade that changes it fails there.
 */

/** The table's other models whose encoding a memory counts with (in a chat UI's first load). */
const COUNTED = /* @__PURE__ */ byModel<'cl100k_base'>({
  cl100k_base: [
    'gpt-3.5',
    'gpt-3.5-0301',
    'gpt-3.5-turbo',
    'gpt-4',
    'text-embedding-3-large',
    'text-embedding-3-small',
    'text-embedding-ada-002',
    'babbage-002',
    'davinci-002',
  ],
});

/** The table's legacy models, for `encodingForModel` and `estimateTokens` only. */
const OLDER = /* @__PURE__ */ byModel<'p50k_base' | 'r50k_base'>({
  p50k_base: [
    'text-davinci-002',
    'text-davinci-003',
    'code-davinci-001',
    'code-davinci-002',
    'davinci-codex',
    'code-cushman-001',
    'code-cushman-002',
    'cushman-codex',
    'code-davinci-edit-001',
    'text-davinci-edit-001',
  ],
  r50k_base: [
    'gpt2',
    'gpt-2',
    'text-ada-001',
    'text-babbage-001',
    'text-curie-001',
    'text-davinci-001',
    'ada',
    'babbage',
    'curie',
    'davinci',
    'code-search-ada-code-001',
    'code-search-ada-text-001',
    'text-similarity-ada-001',
    'text-search-ada-doc-001',
    'text-search-ada-query-001',
    'text-similarity-babbage-001',
    'text-search-babbage-doc-001',
    'text-search-babbage-query-001',
    'code-search-babbage-code-001',
    'code-search-babbage-text-001',
    'text-similarity-curie-001',
    'text-search-curie-doc-001',
    'text-search-curie-query-001',
    'text-similarity-davinci-001',
    'text-search-davinci-doc-001',
    'text-search-davinci-query-001',
  ],
});

/**
 * The encoding gpt-tokenizer's model table gives a model, when it is one a memory counts with.
 *
 * @param model - any string
 * @returns `'o200k_base'` or `'cl100k_base'`, or `undefined` (not in the table, or a legacy model)
 * @example
 * ```ts
 * countedTableModelEncoding('gpt-4'); // 'cl100k_base'
 * countedTableModelEncoding('davinci'); // undefined
 * ```
 * @internal
 */
export const countedTableModelEncoding = (model: string): MemoryEncoding | undefined =>
  COUNTED.get(model);

/**
 * The encoding gpt-tokenizer's model table gives a model, as its base encoding.
 *
 * @param model - any string
 * @returns its encoding, or `undefined` when the table does not list it
 * @example
 * ```ts
 * tableModelEncoding('text-davinci-003'); // 'p50k_base'
 * tableModelEncoding('gpt-4o'); // undefined (not in gpt-tokenizer's legacy table)
 * ```
 * @internal
 */
export const tableModelEncoding = (model: string): EncodingName | undefined =>
  COUNTED.get(model) ?? OLDER.get(model);
