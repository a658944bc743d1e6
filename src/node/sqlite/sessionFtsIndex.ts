import type { Message } from 'conversation-memory';
import { readMemoryJson } from './sessionRow';
import type { Statements } from './sessionStatements';

/** The FTS5 statements (present when FTS5 search is on). */
type FtsStatements = NonNullable<Statements['fts']>;

/**
 * The texts the reference indexes (and its scan scores): the content of user and assistant
 * messages, when not empty. Tool and system messages are never searched.
 *
 * @example
 * ```ts
 * searchableContents([userMessage('hi'), systemMessage('rules')]); // ['hi']
 * ```
 */
export const searchableContents = (messages: readonly Message[]): string[] => {
  const out: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    if (typeof message.content === 'string' && message.content !== '') out.push(message.content);
  }
  return out;
};

/**
 * Makes the FTS5 rows of one session hold exactly its searchable messages, and records when (the
 * reference's re-index, done incrementally: rows still wanted stay, the others are deleted by rowid,
 * and only new messages are inserted; appending one message to 1,000 touches one row, not 2,000).
 * Rows keep message order, as a message that stays keeps its older rowid. Call it inside the write
 * transaction that wrote the session.
 *
 * @example
 * ```ts
 * indexSession(sql.fts, 'u1:s1', state.messages, now);
 * ```
 */
export const indexSession = (
  fts: FtsStatements,
  key: string,
  messages: readonly Message[],
  indexedAt: number,
): void => {
  const wanted = searchableContents(messages);
  const missing = new Map<string, number>();
  for (const content of wanted) missing.set(content, (missing.get(content) ?? 0) + 1);
  const kept = new Map<string, number>();
  for (const row of fts.selectMessages.all(key)) {
    const still = typeof row.content === 'string' ? (missing.get(row.content) ?? 0) : 0;
    if (still > 0) {
      missing.set(row.content as string, still - 1);
      kept.set(row.content as string, (kept.get(row.content as string) ?? 0) + 1);
    } else {
      fts.deleteMessage.run(row.id);
    }
  }
  for (const content of wanted) {
    const covered = kept.get(content) ?? 0;
    if (covered > 0) kept.set(content, covered - 1);
    else fts.insertMessage.run(content, key);
  }
  fts.markIndexed.run(key, indexedAt);
};

/**
 * Removes a session's FTS5 rows and its index entry (with the row itself).
 *
 * @example
 * ```ts
 * unindexSession(sql.fts, 's1');
 * ```
 */
export const unindexSession = (fts: FtsStatements, key: string): void => {
  fts.deleteMessages.run(key);
  fts.deleteIndexed.run(key);
};

/**
 * Moves a session's FTS5 rows from one key to another (a reference row moved to its storage key),
 * keeping their rowids (so their order); its index entry is dropped: {@link indexSession} under
 * the new key, in the same transaction, records it again.
 *
 * @example
 * ```ts
 * moveIndex(sql.fts, '50%', '50%25');
 * ```
 */
export const moveIndex = (fts: FtsStatements, from: string, to: string): void => {
  fts.renameMessages.run(to, from);
  fts.deleteIndexed.run(from);
};

/**
 * The reference's lazy backfill: indexes every row with no index entry, or one older than the
 * row (`indexed_at < updated_at`: a database the reference wrote before it had search, or a
 * writer that does not index). A row that does not decode is indexed as having no messages, so
 * search skips it. Call it inside a write transaction.
 *
 * @param fts - the FTS5 statements
 * @param now - the time to record for a row whose `updated_at` is not a number
 * @returns the keys whose rows decoded
 * @example
 * ```ts
 * db.transaction(() => backfillIndex(sql.fts, now)).immediate();
 * ```
 */
export const backfillIndex = (fts: FtsStatements, now: number): string[] => {
  const sound: string[] = [];
  for (const row of fts.selectStale.all()) {
    const decoded = readMemoryJson(row.memory_json, 'heuristic');
    const messages = 'state' in decoded ? decoded.state.messages : [];
    const at =
      typeof row.updated_at === 'number' && Number.isFinite(row.updated_at) ? row.updated_at : now;
    indexSession(fts, row.session_id, messages, at);
    if ('state' in decoded) sound.push(row.session_id);
  }
  return sound;
};

/**
 * The reference's FTS5 query: each term in double quotes (a `"` inside doubled), joined with
 * `OR`, so no term is read as FTS5 syntax. A null character, which ends an FTS5 string early (an
 * "unterminated string" error), becomes a space: both separate tokens, so the phrase is the same.
 *
 * @example
 * ```ts
 * matchExpression(['lisbon', 'say"hi']); // '"lisbon" OR "say""hi"'
 * ```
 */
export const matchExpression = (terms: readonly string[]): string =>
  terms.map((term) => `"${term.replaceAll('"', '""').replaceAll('\u0000', ' ')}"`).join(' OR ');
