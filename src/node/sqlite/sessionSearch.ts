import { type SessionSearchResult } from 'conversation-memory';
import { rankSearchResults } from 'conversation-memory/store-kit';
import { searchWithFts } from './sessionFtsSearch';
import { rowAddressOf, shadowingKeyOf } from './sessionReferenceRows';
import { scanSessions } from './sessionScanSearch';
import type { ScoredSession } from './sessionScored';
import type { SessionDatabase } from './sessionDatabase';
import { readRowMeta } from './sessionRow';

/** A result, frozen, with its address (`sessionId` is the bare id when searched in `namespace`). */
const frozenHit = (hit: ScoredSession, namespace: string | undefined): SessionSearchResult =>
  Object.freeze({
    sessionId: hit.sessionId,
    ...(namespace === undefined ? rowAddressOf(hit.sessionId) : { id: hit.sessionId, namespace }),
    score: hit.score,
    matchedMessages: Object.freeze([...hit.matchedMessages]),
  });

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * The SQLite session store's search: FTS5 with the reference's formula when the database has it
 * on, else the reference's scan. A session is left out when it is expired, in another namespace,
 * damaged, or a reference row whose pair has a row of ours (`load` reads that one); a reference
 * row is reported as the pair it is (`rowAddressOf`), by its bare id when searched in its
 * namespace.
 *
 * @param database - the store's connection
 * @param query - the terms (lower-cased, at least one), the limit (≥ 1), the namespace, the time
 *   for the FTS5 backfill, whether an `updated_at` is expired, and the store's closed check
 * @returns the results, best first, frozen
 * @example
 * ```ts
 * await searchRows(database, { terms: ['lisbon'], limit: 5, namespace: undefined, now, expired, stillOpen });
 * ```
 */
export const searchRows = async (
  database: SessionDatabase,
  query: {
    readonly terms: readonly string[];
    readonly limit: number;
    readonly namespace: string | undefined;
    readonly now: number;
    readonly expired: (updatedAt: number) => boolean;
    readonly stillOpen: () => void;
  },
): Promise<readonly SessionSearchResult[]> => {
  const { terms, limit, namespace, now, expired, stillOpen } = query;
  const { fts, selectAllRows, selectMeta } = database.sql;
  /** The id to report for a session (bare in a namespace), or `undefined` to leave it out. */
  const visible = (key: string, updatedAt: unknown): string | undefined => {
    if (!isTime(updatedAt) || expired(updatedAt)) return undefined;
    const shadowing = shadowingKeyOf(key);
    if (shadowing !== undefined && selectMeta.get(shadowing) !== undefined) return undefined;
    if (namespace === undefined) return key;
    const address = rowAddressOf(key);
    return address.namespace === namespace ? address.id : undefined;
  };
  const found =
    fts === undefined
      ? rankSearchResults(
          await database.read(
            () =>
              scanSessions(selectAllRows.iterate(), terms, (row) =>
                'problems' in readRowMeta(row)
                  ? undefined
                  : visible(row.session_id, row.updated_at),
              ),
            stillOpen,
          ),
          limit,
        )
      : await searchWithFts(database, fts, terms, limit, visible, now, stillOpen);
  return Object.freeze(found.map((hit) => frozenHit(hit, namespace)));
};
