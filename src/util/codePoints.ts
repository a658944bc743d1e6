/**
 * Counts Unicode code points, as Python's `len(str)` does: a surrogate pair counts once.
 * A single pass over UTF-16 units with no allocation.
 *
 * @internal
 */
export const codePointLength = (text: string): number => {
  let pairs = 0;
  const last = text.length - 1;
  for (let i = 0; i < last; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
};

/**
 * The last `count` code points of `text` (Python's `text[-count:]`), never splitting a pair.
 *
 * @internal
 */
export const lastCodePoints = (text: string, count: number): string => {
  if (text.length <= count) return text;
  const total = codePointLength(text);
  if (total <= count) return text;
  let toSkip = total - count;
  let i = 0;
  while (toSkip > 0) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    i += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    toSkip--;
  }
  return text.slice(i);
};
