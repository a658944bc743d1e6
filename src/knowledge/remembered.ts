import type { KnowledgeEntry, KnowledgeState } from '../model/knowledge';
import type { RememberedPayload } from '../model/knowledgeActions';
import { MemoryArgumentError } from '../errors/memoryErrors';
import { escapeText } from '../util/escapeText';
import { describeValue } from '../util/describeValue';
import { counterOf, factIdProblem } from './codec/knowledgeIds';
import { dropRetiredBeyond, evictBeyond } from './evict';
import { mentionedAgain, newFact, retiredFact } from './facts';
import { KnowledgeDraft, type KnowledgeTransition } from './knowledgeDraft';
import { indexEntry, unindexEntry } from './knowledgeIndex';
import { normalizeContent } from './normalize';
import { readRememberedPayload } from './readKnowledgePayload';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When an entry's TTL runs out (`recordedAt + ttlDays` days), or `null` for none.
 *
 * @example
 * ```ts
 * expiresAt({ ...entry, recordedAt: 0, ttlDays: 1 }); // 86400000
 * ```
 */
export const expiresAt = (entry: Pick<KnowledgeEntry, 'recordedAt' | 'ttlDays'>): number | null =>
  entry.ttlDays === null ? null : entry.recordedAt + entry.ttlDays * DAY_MS;

/**
 * Retires every entry in force whose TTL has run out at `at` (`retiredBy: 'expired'`, `validTo`
 * its expiry).
 *
 * @internal
 */
export const expireEntries = (draft: KnowledgeDraft, at: number): void => {
  draft.entries.forEach((entry, i) => {
    const end = expiresAt(entry);
    if (entry.retiredAt !== null || end === null || at <= end) return;
    unindexEntry(draft.index, entry, i);
    draft.setEntry(i, retiredFact(entry, at, 'expired', null, end));
    draft.effect({ type: 'knowledge/retired', kind: 'entry', id: entry.id, reason: 'expired' });
  });
};

/**
 * Stores a long-term knowledge entry (reducer of `knowledge/remembered`, the reference's
 * `remember`). The rules, in order:
 *
 * 1. Entries whose TTL ran out by `at` are retired (`'expired'`).
 * 2. **The same entry in force** (same content, compared case- and space-insensitively) is not
 *    stored twice: it gains a mention and `updatedAt`, the higher importance, and `persistent` if
 *    either is (`knowledge/merged`, rule `'identical'`); its id stays.
 * 3. Otherwise the entry is added with the payload's id: `k<n>` (the id counter moves past `n`) or
 *    the reference's 32-digit hex uuid; another shape, or an id already used, is an argument error.
 * 4. Entries in force beyond `maxEntries` are evicted by keep score (keepScore.ts: importance ×
 *    mentions × recency), never a persistent one, never this one (the reference evicts the lowest
 *    importance first); retired entries beyond twice the limit are dropped.
 *
 * @param state - the knowledge state
 * @param payload - the entry and when
 * @returns the new state and its effects
 * @throws MemoryArgumentError naming the field, for a malformed payload or a used id
 * @example
 * ```ts
 * const { state } = remembered(createKnowledge(), {
 *   id: 'k1', content: 'Prefers dark mode', category: 'preference', importance: 0.8,
 *   persistent: true, ttlDays: null, metadata: {}, at: Date.now(),
 * });
 * state.entries[0]?.content; // 'Prefers dark mode'
 * ```
 */
export const remembered = (
  state: KnowledgeState,
  payload: RememberedPayload,
): KnowledgeTransition => {
  const read = readRememberedPayload(payload, 'remembered');
  const idProblem = factIdProblem('entry', read.id, describeValue);
  if (idProblem !== undefined)
    throw new MemoryArgumentError('remembered', `action.payload.id ${idProblem}`);
  const draft = new KnowledgeDraft(state);
  expireEntries(draft, read.at);
  const same = draft.index.entryByContent.get(normalizeContent(read.content));
  if (same !== undefined) {
    const stored = draft.entries[same] as KnowledgeEntry;
    const merged: KnowledgeEntry = {
      ...mentionedAgain(stored, null, 1),
      updatedAt: read.at,
      importance: Math.max(stored.importance, read.importance),
      persistent: stored.persistent || read.persistent,
    };
    draft.touched.add(stored.id);
    draft.setEntry(same, merged);
    draft.effect({ type: 'knowledge/merged', kind: 'entry', id: stored.id, rule: 'identical' });
  } else {
    if (draft.index.entryById.has(read.id)) {
      // The index was updated in place and was taken from the cache: the next call rebuilds it.
      throw new MemoryArgumentError(
        'remembered',
        `action.payload.id "${escapeText(read.id, 40)}" is the id of an entry already stored`,
      );
    }
    const entry: KnowledgeEntry = {
      ...newFact(read.id, read.at, read.at, null, 1),
      content: read.content,
      category: read.category,
      importance: read.importance,
      persistent: read.persistent,
      ttlDays: read.ttlDays,
      metadata: read.metadata,
      updatedAt: read.at,
    };
    draft.touched.add(entry.id);
    // A counter id (k12) keeps the id counter above it, as for every generated id.
    const counter = counterOf(read.id);
    if (counter !== undefined && counter >= draft.nextId) draft.nextId = counter + 1;
    indexEntry(draft.index, entry, draft.pushEntry(entry));
    draft.effect({ type: 'knowledge/added', kind: 'entry', fact: entry });
  }
  evictBeyond(draft, 'entries', read.maxEntries, read.at);
  dropRetiredBeyond(draft, 'entries', read.maxEntries);
  return draft.finish();
};
