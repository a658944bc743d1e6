/**
 * The header of the knowledge graph's block (the reference's `KnowledgeGraphMemory.build_context`).
 *
 * @example
 * ```ts
 * KNOWN_RELATIONSHIPS_HEADER; // '[Known Relationships]'
 * ```
 */
export const KNOWN_RELATIONSHIPS_HEADER = '[Known Relationships]';

/**
 * The header of the entity memory's block (the reference's `EntityMemory.build_context`).
 *
 * @example
 * ```ts
 * KNOWN_ENTITIES_HEADER; // '[Known Entities]'
 * ```
 */
export const KNOWN_ENTITIES_HEADER = '[Known Entities]';

/**
 * The header of the long-term entries with importance ≥ 0.7 (the reference's
 * `KnowledgeMemory.build_context`).
 *
 * @example
 * ```ts
 * IMPORTANT_KNOWLEDGE_HEADER; // '[Important Knowledge]'
 * ```
 */
export const IMPORTANT_KNOWLEDGE_HEADER = '[Important Knowledge]';

/**
 * The header of the long-term entries with importance < 0.7, after a blank line when the
 * important ones come first.
 *
 * @example
 * ```ts
 * GENERAL_KNOWLEDGE_HEADER; // '[General Knowledge]'
 * ```
 */
export const GENERAL_KNOWLEDGE_HEADER = '[General Knowledge]';

/**
 * What ends a knowledge block cut to `maxContextChars` (the reference's suffix, 16 characters).
 *
 * @example
 * ```ts
 * TRUNCATED_SUFFIX; // '\n... (truncated)'
 * ```
 */
export const TRUNCATED_SUFFIX = '\n... (truncated)';

/**
 * The importance from which an entry is listed under {@link IMPORTANT_KNOWLEDGE_HEADER} (the
 * reference's 0.7).
 *
 * @example
 * ```ts
 * IMPORTANT_KNOWLEDGE_MIN; // 0.7
 * ```
 */
export const IMPORTANT_KNOWLEDGE_MIN = 0.7;

/**
 * What joins two blocks in `knowledgeBlocks(...).text`: a blank line (the reference sends each
 * block as its own system message, and separates its own two knowledge sections with a blank
 * line).
 *
 * @example
 * ```ts
 * BLOCK_SEPARATOR; // '\n\n'
 * ```
 */
export const BLOCK_SEPARATOR = '\n\n';

/**
 * The header of `modelView`'s recall block: messages that left the window and match the newest
 * question, quoted with their dates.
 *
 * @example
 * ```ts
 * RECALL_HEADER; // '[Earlier in this conversation]'
 * ```
 */
export const RECALL_HEADER = '[Earlier in this conversation]';

/**
 * Every block header a model could take for ours: the five above, the reference's legacy
 * knowledge headers (`[Long-term Memory]`, `[Recent Memory]`), the summary message's
 * `[Conversation Summary]`, the compressed context's `[Compressed context]` and the recall
 * block's `[Earlier in this conversation]`. The sanitizer
 * defangs any of them inside a fact.
 *
 * @example
 * ```ts
 * RESERVED_HEADERS.includes('[Conversation Summary]'); // true
 * ```
 */
export const RESERVED_HEADERS: readonly string[] = /* @__PURE__ */ Object.freeze([
  KNOWN_RELATIONSHIPS_HEADER,
  KNOWN_ENTITIES_HEADER,
  IMPORTANT_KNOWLEDGE_HEADER,
  GENERAL_KNOWLEDGE_HEADER,
  '[Long-term Memory]',
  '[Recent Memory]',
  '[Conversation Summary]',
  '[Compressed context]',
  RECALL_HEADER,
]);
