import { SessionConflictError } from 'conversation-memory';
import { isSessionExpired, type SessionKey } from 'conversation-memory/store-kit';
import type { PostgresConnection } from './connection';
import { readMemoryJson } from './sessionRow';
import type { SessionStatements } from './sessionStatements';

/**
 * What one save needs from its store.
 *
 * @example
 * ```ts
 * const context: PostgresSaveContext = { connection, sql, ttl: 3600, now: () => Date.now() / 1000 };
 * ```
 */
export interface PostgresSaveContext {
  readonly connection: PostgresConnection;
  readonly sql: SessionStatements;
  readonly ttl: number | undefined;
  readonly now: () => number;
}

/**
 * A session's new content: the memory JSON, its message count and the text of its searchable
 * messages (`null`: too large to index).
 *
 * @example
 * ```ts
 * const content: SessionContent = { json: '{…}', messageCount: 2, searchText: 'hello\nhi' };
 * ```
 */
export interface SessionContent {
  readonly json: string;
  readonly messageCount: number;
  readonly searchText: string | null;
}

/** Rounds of check-and-retry before a save that keeps being overtaken gives up. */
const MAX_ROUNDS = 10;

/**
 * Saves `content` under `where` in one statement per round: the revision check and the write are
 * one `INSERT … ON CONFLICT DO UPDATE … WHERE` (or, for an expected revision ≥ 1, one conditional
 * `UPDATE`), so of concurrent savers with the same expected revision exactly one wins. When the
 * statement writes nothing, the row is read: a sound, live row of another revision is a conflict;
 * a row whose memory this store did not write (its digest does not match) is decoded here, and
 * then either marked sound or, when it does not decode, moved to `sessions_corrupt` (each one
 * statement, conditional on the memory that was decoded), and the save tries again.
 *
 * @returns the new revision
 * @throws SessionConflictError when `expected` is stale (nothing is written)
 * @example
 * ```ts
 * await savePostgresRow(context, sessionKeyOf('s1'), content, 0, 'PostgresSessionStore.save'); // 1
 * ```
 */
export const savePostgresRow = async (
  context: PostgresSaveContext,
  where: SessionKey,
  content: SessionContent,
  expected: number | undefined,
  api: string,
): Promise<number> => {
  const { connection, sql, ttl } = context;
  let seen = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = context.now();
    const values = [
      where.key,
      where.namespace ?? null,
      where.id,
      content.json,
      content.messageCount,
      now,
      content.searchText,
      expected ?? null,
      ttl ?? null,
    ];
    const statement = expected === undefined || expected === 0 ? sql.upsert : sql.update;
    const written = await connection.query(api, true, statement, values);
    const revision = Number(written[0]?.['revision']);
    if (written.length === 1 && Number.isSafeInteger(revision)) return revision;
    const [row] = await connection.query(api, false, sql.selectRow, [where.key]);
    if (row === undefined) {
      if (expected !== undefined && expected > 0) {
        throw new SessionConflictError(api, where.key, expected, 0);
      }
      continue; // deleted since the statement looked: try again
    }
    if (row['sound'] !== 't') {
      // Conditional on the very memory decoded here: a row changed since is looked at again.
      const memory = row['memory_json'];
      if ('state' in readMemoryJson(memory, 'heuristic')) {
        await connection.query(api, true, sql.adopt, [where.key, memory]);
      } else {
        await connection.query(api, true, sql.setAside, [where.key, memory, now]);
      }
      continue;
    }
    const updatedAt = Number(row['updated_at']);
    const live = !isSessionExpired(updatedAt, ttl, context.now());
    seen = live ? Number(row['revision']) : 0;
    if (expected !== undefined && expected !== seen) {
      throw new SessionConflictError(api, where.key, expected, seen);
    }
    // Changed between the statement and the read: try again.
  }
  // Overtaken again and again by other writers.
  throw new SessionConflictError(api, where.key, expected ?? seen, seen + 1);
};
