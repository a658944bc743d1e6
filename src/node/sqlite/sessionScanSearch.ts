import { scoreSessionMessages } from 'conversation-memory/store-kit';
import { readParsedMemory } from '../memoryColumn';
import type { SessionRow } from './sessionRow';
import type { ScoredSession } from './sessionScored';

/**
 * Whether a parsed memory has a user or assistant message whose content contains a term: a cheap
 * test before the full decode, exact (it reads the same messages and text the scoring does).
 */
const mayMatch = (parsed: unknown, terms: readonly string[]): boolean => {
  if (typeof parsed !== 'object' || parsed === null) return false;
  const messages = (parsed as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return false;
  return messages.some((message: unknown) => {
    if (typeof message !== 'object' || message === null) return false;
    const { role, content } = message as { role?: unknown; content?: unknown };
    if ((role !== 'user' && role !== 'assistant') || typeof content !== 'string') return false;
    const lowered = content.toLowerCase();
    return terms.some((term) => lowered.includes(term));
  });
};

/**
 * The reference's search without FTS5: every visible row whose memory has a matching message is
 * decoded (a row that does not decode is skipped) and scored by term frequency
 * (`scoreSessionMessages`: the number of occurrences of every term in every user and assistant
 * message, snippets of the first 5 matched messages in message order).
 *
 * @param rows - the rows to look at
 * @param terms - the search terms
 * @param visible - the id to report for a row, or `undefined` to leave it out (expired, corrupt
 *   columns, another namespace)
 * @returns the scored sessions, unordered
 * @example
 * ```ts
 * scanSessions(sql.selectAllRows.iterate(), ['lisbon'], (row) => row.session_id);
 * ```
 */
export const scanSessions = (
  rows: Iterable<SessionRow>,
  terms: readonly string[],
  visible: (row: SessionRow) => string | undefined,
): ScoredSession[] => {
  const results: ScoredSession[] = [];
  for (const row of rows) {
    const sessionId = visible(row);
    if (sessionId === undefined || typeof row.memory_json !== 'string') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.memory_json);
    } catch {
      continue;
    }
    if (!mayMatch(parsed, terms)) continue;
    const decoded = readParsedMemory(parsed, 'heuristic');
    if (!('state' in decoded)) continue;
    const scored = scoreSessionMessages(decoded.state.messages, terms);
    if (scored === undefined) continue;
    results.push({ sessionId, score: scored.score, matchedMessages: scored.matchedMessages });
  }
  return results;
};
