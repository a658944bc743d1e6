/**
 * The UTF-8 length of `text` in bytes, counted without encoding it (no `TextEncoder`, no
 * `Buffer`): 1 to 4 bytes per code point; a lone surrogate counts as the 3 bytes of U+FFFD.
 *
 * @param text - any string
 * @returns its UTF-8 length
 * @example
 * ```ts
 * utf8Length('né😀'); // 1 + 2 + 4 = 7
 * ```
 * @internal
 */
export const utf8Length = (text: string): number => {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLow(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
};

const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Splits texts into the batches of one request each, in order: at most `batchSize` texts and at
 * most `maxBytes` UTF-8 bytes per batch, except that a text longer than `maxBytes` goes alone
 * (the API then decides). Every text is in exactly one batch.
 *
 * @param texts - the texts to fetch (already deduplicated)
 * @param batchSize - the most texts in a batch (≥ 1)
 * @param maxBytes - the most UTF-8 bytes in a batch (≥ 1)
 * @returns the batches, none empty
 * @example
 * ```ts
 * embeddingBatches(['a', 'b', 'c'], 2, 1000); // [['a', 'b'], ['c']]
 * embeddingBatches(['aaa', 'bb', 'c'], 10, 3); // [['aaa'], ['bb', 'c']]
 * ```
 * @internal
 */
export const embeddingBatches = (
  texts: readonly string[],
  batchSize: number,
  maxBytes: number,
): string[][] => {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const text of texts) {
    const size = utf8Length(text);
    if (batch.length > 0 && (batch.length >= batchSize || bytes + size > maxBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(text);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
};
