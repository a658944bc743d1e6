/**
 * The most entities, relations or entries one stored knowledge state may hold, each list counted
 * on its own (facts in force and retired ones together). The reducers keep far fewer (their
 * limits, 50 / 200 / 50 by default, plus as many retired facts); this bound only makes a hostile
 * input cheap to refuse: a longer list is rejected before any of its items is read.
 *
 * @example
 * ```ts
 * MAX_KNOWLEDGE_FACTS; // 100000
 * ```
 */
export const MAX_KNOWLEDGE_FACTS = 100_000;

/**
 * The most attributes (retired values included) or aliases one stored entity may hold.
 *
 * @example
 * ```ts
 * MAX_ENTITY_PARTS; // 1000
 * ```
 */
export const MAX_ENTITY_PARTS = 1000;

/**
 * The longest string a stored knowledge state may hold, in UTF-16 code units (`text.length`):
 * names, aliases, attribute values, relation ends, entry contents and categories, ids; and the
 * JSON text of an entry's `metadata`.
 *
 * @example
 * ```ts
 * MAX_KNOWLEDGE_TEXT_LENGTH; // 100000
 * ```
 */
export const MAX_KNOWLEDGE_TEXT_LENGTH = 100_000;

/**
 * The largest message position a knowledge state may name (cursors and fact sources), 2^48, as
 * for the memory's own positions.
 *
 * @example
 * ```ts
 * MAX_KNOWLEDGE_POSITION; // 281474976710656
 * ```
 */
export const MAX_KNOWLEDGE_POSITION = 2 ** 48;

/**
 * The largest time, in milliseconds from the epoch (either side), a knowledge state may hold:
 * what a `Date` can hold.
 *
 * @example
 * ```ts
 * MAX_KNOWLEDGE_TIME; // 8640000000000000
 * ```
 */
export const MAX_KNOWLEDGE_TIME = 8.64e15;
