import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import type { Message } from '../../model/message';
import type { SessionAddress } from './sessionKey';

/** Snippets are kept for this many matched messages per session. */
const MAX_SNIPPETS = 5;
/** Content up to this many characters is its own snippet. */
const WHOLE_SNIPPET = 160;
/** Characters kept before the first match, and the length of a cut snippet. */
const LEAD = 40;
const SPAN = 154;

/**
 * One result of {@link SessionStore.search}: the session (`sessionId` is its storage key, as
 * `list` gives it, or its bare id when the search was given a namespace; `id` and `namespace`
 * always load it back), its score and up to 5 snippets of the messages that matched.
 *
 * @example
 * ```ts
 * const hit: SessionSearchResult = { sessionId: 's1', id: 's1', score: 2, matchedMessages: ['Lisbon in May'] };
 * ```
 */
export interface SessionSearchResult extends SessionAddress {
  readonly sessionId: string;
  readonly score: number;
  readonly matchedMessages: readonly string[];
}

/**
 * The default number of search results.
 *
 * @example
 * ```ts
 * DEFAULT_SEARCH_LIMIT; // 5
 * ```
 */
export const DEFAULT_SEARCH_LIMIT = 5;

/**
 * The reference's search terms: the query lower-cased and split on whitespace.
 *
 * @example
 * ```ts
 * searchTerms('  Lisbon HOTEL '); // ['lisbon', 'hotel']
 * ```
 */
export const searchTerms = (query: unknown): readonly string[] => {
  if (typeof query !== 'string') {
    throw new MemoryArgumentError(
      'search',
      `query must be a string, received ${describeValue(query)}`,
    );
  }
  return query
    .toLowerCase()
    .split(/\s+/u)
    .filter((term) => term !== '');
};

/**
 * Reads a search's `limit`: `undefined` is 5; an integer (`0` or less gives no results).
 *
 * @example
 * ```ts
 * searchLimitOf(undefined); // 5
 * ```
 */
export const searchLimitOf = (limit: unknown): number => {
  if (limit === undefined || limit === null) return DEFAULT_SEARCH_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit)) {
    throw new MemoryArgumentError(
      'search',
      `options.limit must be an integer, received ${describeValue(limit)}`,
    );
  }
  return limit;
};

/** Non-overlapping occurrences, as Python's `str.count`. */
const countOf = (text: string, term: string): number => {
  let count = 0;
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + term.length)) count++;
  return count;
};

const hasSurrogates = (text: string): boolean => /[\uD800-\uDFFF]/u.test(text);

/**
 * The reference's snippet: the whole content up to 160 characters; else 154 characters from 40
 * before the first match, with `...` on the cut sides. Counted in code points, as Python does.
 *
 * @example
 * ```ts
 * snippetOf('short text', 'short text', ['text']); // 'short text'
 * ```
 */
export const snippetOf = (content: string, lowered: string, terms: readonly string[]): string => {
  const wide = hasSurrogates(content);
  const chars = wide ? Array.from(content) : undefined;
  const length = chars === undefined ? content.length : chars.length;
  if (length <= WHOLE_SNIPPET) return content;
  let first = -1;
  for (const term of terms) {
    const at = lowered.indexOf(term);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  if (first === -1) first = 0;
  // A UTF-16 index into the lowered text, as a code-point index.
  if (wide) first = Array.from(lowered.slice(0, first)).length;
  const start = Math.max(0, first - LEAD);
  const end = start + SPAN;
  const body = chars === undefined ? content.slice(start, end) : chars.slice(start, end).join('');
  return `${start > 0 ? '...' : ''}${body}${end < length ? '...' : ''}`;
};

/**
 * Scores one session's messages against the terms (the reference's scan): only user and
 * assistant messages with text content count; each adds the occurrences of every term; snippets
 * of the first 5 matched messages, in order. `undefined` when nothing matched.
 *
 * @example
 * ```ts
 * scoreSessionMessages([userMessage('Lisbon or lisbon?')], ['lisbon']); // { score: 2, matchedMessages: ['Lisbon or lisbon?'] }
 * ```
 */
export const scoreSessionMessages = (
  messages: readonly Message[],
  terms: readonly string[],
): { score: number; matchedMessages: string[] } | undefined => {
  let score = 0;
  const matchedMessages: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const content = message.content;
    if (content === null || content === '') continue;
    const lowered = content.toLowerCase();
    let hits = 0;
    for (const term of terms) hits += countOf(lowered, term);
    if (hits === 0) continue;
    score += hits;
    if (matchedMessages.length < MAX_SNIPPETS)
      matchedMessages.push(snippetOf(content, lowered, terms));
  }
  return score === 0 ? undefined : { score, matchedMessages };
};

/**
 * Compares strings by code point, as Python and SQLite order them (UTF-16 order differs above
 * U+FFFF). Stores sort `list` with it.
 *
 * @example
 * ```ts
 * ['b', 'a'].sort(compareCodePoints); // ['a', 'b']
 * ```
 */
export const compareCodePoints = (a: string, b: string): number => {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
};

/**
 * Orders results by score (highest first), then by `sessionId`, and keeps `limit` (sorts the
 * given array).
 *
 * @example
 * ```ts
 * rankSearchResults([{ sessionId: 'b', score: 1, matchedMessages: [] }], 5);
 * ```
 */
export const rankSearchResults = <
  T extends Pick<SessionSearchResult, 'sessionId' | 'score'> = SessionSearchResult,
>(
  results: T[],
  limit: number,
): readonly T[] =>
  limit <= 0
    ? []
    : results
        .sort((a, b) => b.score - a.score || compareCodePoints(a.sessionId, b.sessionId))
        .slice(0, limit);
