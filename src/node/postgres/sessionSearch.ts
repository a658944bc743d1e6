import { Buffer } from 'node:buffer';
import type { MemoryState, SessionSearchResult } from 'conversation-memory';
import {
  rankSearchResults,
  scoreSessionMessages,
  sessionAddressOf,
} from 'conversation-memory/store-kit';
import type { PostgresConnection } from './connection';
import { readRowAddress } from './rowAddress';
import { readMemoryJson } from './sessionRow';
import type { SessionStatements } from './sessionStatements';

/**
 * The session store's search: PostgreSQL full-text search (`to_tsvector('simple', …)` over the
 * searchable messages, a GIN index, the query's terms OR-ed as `plainto_tsquery`s) finds the
 * candidates; each is then scored exactly as the reference's scan scores it (the kit's
 * `scoreSessionMessages`: occurrences of the terms in user and assistant messages, snippets of
 * the first five). So scores and snippets are the other stores', and a term is found where it is
 * a whole word of a message (as with the SQLite store's FTS5: `cat` finds `cat.` but not `cats`).
 */

/**
 * The largest search text indexed, in UTF-8 bytes: PostgreSQL refuses a `tsvector` of more than
 * 1 MB of words, and a longer session is left unindexed (always a candidate, scanned).
 */
const MAX_INDEXED_BYTES = 1_000_000;

/**
 * The text the search index holds for a state: its user and assistant messages with text, lower
 * cased as the search's terms are, one per line (`null`: too large to index). NUL characters,
 * which PostgreSQL text cannot hold, become spaces.
 *
 * @example
 * ```ts
 * sessionSearchText(addMessage(createMemory(), userMessage('Lisbon')).state); // 'lisbon'
 * ```
 */
export const sessionSearchText = (state: MemoryState): string | null => {
  const parts: string[] = [];
  for (const message of state.messages) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    if (typeof message.content !== 'string' || message.content === '') continue;
    parts.push(message.content.toLowerCase().replaceAll('\u0000', ' '));
  }
  const text = parts.join('\n');
  return Buffer.byteLength(text, 'utf8') > MAX_INDEXED_BYTES ? null : text;
};

/**
 * What a search asks, read and checked by the store.
 *
 * @example
 * ```ts
 * const query: PostgresSearch = { terms: ['lisbon'], limit: 5, namespace: undefined, now: 1764500000, ttl: undefined };
 * ```
 */
export interface PostgresSearch {
  readonly terms: readonly string[];
  readonly limit: number;
  readonly namespace: string | undefined;
  readonly now: number;
  readonly ttl: number | undefined;
}

/**
 * Runs a search (see the module comment): the candidates from the index, each decoded (a row that
 * does not decode is skipped) and scored, ranked by score then `sessionId`.
 *
 * @example
 * ```ts
 * await searchSessions(connection, sql, { terms: ['lisbon'], limit: 5, namespace: 'u1', now, ttl }, api);
 * ```
 */
export const searchSessions = async (
  connection: PostgresConnection,
  sql: SessionStatements,
  search: PostgresSearch,
  api: string,
): Promise<readonly SessionSearchResult[]> => {
  const { terms, limit, namespace } = search;
  const rows = await connection.query(api, false, sql.searchCandidates, [
    [...new Set(terms)],
    search.now,
    search.ttl ?? null,
    namespace ?? null,
  ]);
  const results: SessionSearchResult[] = [];
  for (const row of rows) {
    const address = readRowAddress(row['session_key'], row['session_id'], row['namespace']);
    if (address === undefined) continue;
    const memory = readMemoryJson(row['memory_json'], 'heuristic');
    if (!('state' in memory)) continue;
    const scored = scoreSessionMessages(memory.state.messages, terms);
    if (scored === undefined) continue;
    const { key } = address;
    results.push(
      Object.freeze({
        sessionId: namespace === undefined ? key : address.id,
        ...sessionAddressOf(key),
        score: scored.score,
        matchedMessages: Object.freeze(scored.matchedMessages),
      }),
    );
  }
  return Object.freeze([...rankSearchResults(results, limit)]);
};
