import fc from 'fast-check';
import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import { describe, expect, it } from 'vitest';
import { encodingForModel } from 'conversation-memory/tokens';
// Internal: the lookups behind encodingForModel and the config check's model hint.
import { knownModelEncoding } from '../../src/tokens/modelEncodings';
import { exactModelEncoding, prefixModelEncoding } from '../../src/tokens/modelFamilies';
import { tokenizerOfModel } from '../../src/tokens/tokenizerOfModel';

/**
 * The model lookups no longer import gpt-tokenizer's model table (its module computes the table
 * when it loads, and gpt-tokenizer does not declare itself free of side effects, so every bundle
 * of the root entry carried it). They use a copy; this file holds the copy to the table: the
 * lookups must answer exactly as the former lookup over gpt-tokenizer's own table did, for every
 * model of the table and any other string.
 */
const BASE: Readonly<Record<string, string>> = {
  o200k_base: 'o200k_base',
  o200k_harmony: 'o200k_base',
  cl100k_base: 'cl100k_base',
  p50k_base: 'p50k_base',
  p50k_edit: 'p50k_base',
  r50k_base: 'r50k_base',
  gpt2: 'r50k_base',
};
const TABLE = modelToEncodingMap as Readonly<Record<string, string>>;
const TABLE_MODELS = Object.keys(TABLE);

/** The former knownModelEncoding: exact ids, then gpt-tokenizer's table, then prefixes. */
const formerKnown = (model: string): string | undefined =>
  exactModelEncoding(model) ??
  (Object.hasOwn(TABLE, model) ? BASE[TABLE[model] as string] : undefined) ??
  prefixModelEncoding(model);

const formerHint = (model: string): string | undefined => {
  const encoding = formerKnown(model);
  return encoding === 'o200k_base' || encoding === 'cl100k_base' ? encoding : undefined;
};

/** Any string, a model of the table, or one with a suffix or cut short (prefix look-alikes). */
const modelIds = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(...TABLE_MODELS),
  fc
    .tuple(
      fc.constantFrom(...TABLE_MODELS, 'gpt-4o', 'o1', 'ft:gpt-4'),
      fc.string({ maxLength: 8 }),
    )
    .map(([model, tail]) => model + tail),
  fc
    .tuple(fc.constantFrom(...TABLE_MODELS), fc.nat({ max: 20 }))
    .map(([model, cut]) => model.slice(0, Math.max(1, model.length - cut))),
);

describe('the model table, copied', () => {
  it.each(TABLE_MODELS)('%s has the encoding gpt-tokenizer gives it', (model) => {
    const expected = BASE[TABLE[model] as string];
    expect(knownModelEncoding(model)).toBe(expected);
    expect(encodingForModel(model)).toBe(expected);
    expect(tokenizerOfModel(model)).toBe(
      expected === 'o200k_base' || expected === 'cl100k_base' ? expected : undefined,
    );
  });

  it('every model id gets the encoding and the hint it got from gpt-tokenizer’s table', () => {
    fc.assert(
      fc.property(modelIds, (model) => {
        expect(knownModelEncoding(model)).toBe(formerKnown(model));
        expect(tokenizerOfModel(model)).toBe(formerHint(model));
      }),
      { numRuns: 2000 },
    );
  });
});
