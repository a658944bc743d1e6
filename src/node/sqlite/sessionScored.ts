import type { SessionSearchResult } from 'conversation-memory';

/**
 * A scored session as the searches find it: the id to report (the storage key, or the bare id in
 * a namespace), the score and the snippets; the store adds its `id` and `namespace`.
 *
 * @example
 * ```ts
 * const hit: ScoredSession = { sessionId: 'u1:s1', score: 2, matchedMessages: ['Lisbon in May'] };
 * ```
 */
export type ScoredSession = Omit<SessionSearchResult, 'id' | 'namespace'>;
