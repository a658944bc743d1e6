/**
 * The bounds the extraction readers (`readEntityAnswer`, `readTripleAnswer`) put on a model's
 * answer. The answer is untrusted text: these keep the work and the memory of a read bounded,
 * whatever the model (or whoever controls its input) wrote.
 */

/**
 * The longest answer read, in UTF-16 units; a longer one is refused before it is parsed. The
 * reference asks for at most 500 tokens (about 2,000 characters), so this leaves room for any
 * model and option.
 *
 * @example
 * ```ts
 * MAX_ANSWER_CHARS; // 262144
 * ```
 */
export const MAX_ANSWER_CHARS = 262_144;

/**
 * The most items an answer's list may have; a longer list is refused (nothing is committed).
 *
 * @example
 * ```ts
 * MAX_EXTRACTED_ITEMS; // 500
 * ```
 */
export const MAX_EXTRACTED_ITEMS = 500;

/**
 * The longest name kept, after trimming: an entity's `name` and `entity_type`, a triple's
 * `subject`, `relation` and `object`, and an attribute's key. An item whose name (or subject,
 * relation, object) is longer is skipped, as one without a name is; a longer `entity_type` reads
 * as `'other'`, a longer attribute key is dropped.
 *
 * @example
 * ```ts
 * MAX_EXTRACTED_NAME_CHARS; // 200
 * ```
 */
export const MAX_EXTRACTED_NAME_CHARS = 200;

/**
 * The longest attribute value kept; a longer value is dropped (its key with it).
 *
 * @example
 * ```ts
 * MAX_ATTRIBUTE_VALUE_CHARS; // 1000
 * ```
 */
export const MAX_ATTRIBUTE_VALUE_CHARS = 1_000;

/**
 * The most attributes kept for one entity (the first ones of the answer, in its order).
 *
 * @example
 * ```ts
 * MAX_ENTITY_ATTRIBUTES; // 32
 * ```
 */
export const MAX_ENTITY_ATTRIBUTES = 32;
