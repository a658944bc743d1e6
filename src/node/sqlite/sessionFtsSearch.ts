import { rankSearchResults } from 'conversation-memory/store-kit';
import type { ScoredSession } from './sessionScored';
import { rethrowBusy } from './busyRetry';
import { backfillIndex, matchExpression } from './sessionFtsIndex';
import { scoreMatches } from './sessionFtsScore';
import type { SessionDatabase } from './sessionDatabase';
import type { Statements } from './sessionStatements';

/**
 * The reference's FTS5 search on a database with FTS5 on: first the lazy backfill (only when
 * some row is not indexed, or was indexed before it changed: one write transaction), then one
 * query ranked by bm25, scored per session with `1 + r / (1 + r)` per matching message, ordered
 * by score then id; sessions whose rows do not decode are skipped, checked in rank order until
 * `limit` results are found.
 *
 * @param database - the connection
 * @param fts - its FTS5 statements
 * @param terms - the search terms (lower-cased)
 * @param limit - at most this many results (≥ 1)
 * @param visible - the id to report for a session, or `undefined` (expired, another namespace)
 * @param now - the store's time, recorded for rows whose `updated_at` is not a number
 * @param stillOpen - throws when the store was closed while waiting for a lock
 * @returns the results, best first
 * @example
 * ```ts
 * await searchWithFts(database, database.sql.fts, ['lisbon'], 5, (key) => key, now, () => {});
 * ```
 */
export const searchWithFts = async (
  database: SessionDatabase,
  fts: NonNullable<Statements['fts']>,
  terms: readonly string[],
  limit: number,
  visible: (key: string, updatedAt: unknown) => string | undefined,
  now: number,
  stillOpen: () => void,
): Promise<ScoredSession[]> => {
  if ((await database.read(() => fts.selectStale.get(), stillOpen)) !== undefined) {
    await database.write(
      () => {
        for (const key of backfillIndex(fts, now)) database.known.add(key);
      },
      rethrowBusy,
      stillOpen,
    );
  }
  return database.read(() => {
    const candidates = scoreMatches(fts.match.iterate(matchExpression(terms)), terms, (row) =>
      visible(row.key, row.updated_at),
    );
    const out: ScoredSession[] = [];
    for (const hit of rankSearchResults(candidates, candidates.length)) {
      if (out.length >= limit) break;
      const row = database.sql.selectMeta.get((hit as (typeof candidates)[number]).key);
      if (row !== undefined && database.decodes(row)) out.push(hit);
    }
    return out;
  }, stillOpen);
};
