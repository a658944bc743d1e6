/**
 * The form names and texts are compared in: Unicode NFKC, lower case, white space collapsed, and
 * punctuation trimmed from both ends ("Alice." and " alice " are one name).
 *
 * @internal
 */
export const normalizeName = (name: string): string =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '');

/**
 * The form relations are compared in: lower case, runs of spaces and hyphens as one `_`
 * (`Works At` and `works-at` are `works_at`).
 *
 * @internal
 */
export const normalizeRelation = (relation: string): string =>
  relation
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/gu, '_');

/**
 * The form knowledge entries are compared in (for "the same entry"): NFKC, lower case, white
 * space collapsed, trimmed.
 *
 * @internal
 */
export const normalizeContent = (content: string): string =>
  content.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
