import { snippetOf } from 'conversation-memory/store-kit';
import type { ScoredSession } from './sessionScored';
import type { MatchRow } from './sessionStatements';

/** Snippets kept per session, as the reference. */
const MAX_SNIPPETS = 5;

/**
 * A session found by FTS5, before the check that its row decodes.
 *
 * @example
 * ```ts
 * const found: FtsCandidate = { key: 'u1:s1', sessionId: 's1', score: 1.4, matchedMessages: ['Lisbon'] };
 * ```
 */
export interface FtsCandidate extends ScoredSession {
  readonly key: string;
  readonly matchedMessages: string[];
  score: number;
}

/**
 * The reference's FTS5 scoring: each matching message adds `1 + r / (1 + r)` to its session, where
 * `r = max(0, -bm25)`, so the number of matching messages always dominates and bm25 breaks ties;
 * snippets (the reference's rule) of the first 5 matches in bm25 order.
 *
 * @param rows - the matches, best bm25 first
 * @param terms - the search terms (for the snippets)
 * @param visible - the id to report for a session, or `undefined` to leave it out (expired,
 *   another namespace)
 * @returns one candidate per session, unordered
 * @example
 * ```ts
 * scoreMatches([{ key: 's1', content: 'Lisbon', rank: -0.5, updated_at: 1 }], ['lisbon'], (key) => key);
 * // [{ key: 's1', sessionId: 's1', score: 1 + 0.5 / 1.5, matchedMessages: ['Lisbon'] }]
 * ```
 */
export const scoreMatches = (
  rows: Iterable<MatchRow>,
  terms: readonly string[],
  visible: (row: MatchRow) => string | undefined,
): FtsCandidate[] => {
  const sessions = new Map<string, FtsCandidate | null>();
  for (const row of rows) {
    let found = sessions.get(row.key);
    if (found === undefined) {
      const sessionId = visible(row);
      found =
        sessionId === undefined ? null : { key: row.key, sessionId, score: 0, matchedMessages: [] };
      sessions.set(row.key, found);
    }
    if (found === null) continue;
    const r = Math.max(0, -row.rank);
    found.score += 1 + r / (1 + r);
    if (found.matchedMessages.length < MAX_SNIPPETS) {
      found.matchedMessages.push(snippetOf(row.content, row.content.toLowerCase(), terms));
    }
  }
  return [...sessions.values()].filter((found): found is FtsCandidate => found !== null);
};
