import type { KnowledgeEntry, KnowledgeState } from '../model/knowledge';
import type { ForgottenPayload } from '../model/knowledgeActions';
import { NO_EFFECTS } from '../internal/window';
import { retiredFact } from './facts';
import { KnowledgeDraft, type KnowledgeTransition } from './knowledgeDraft';
import { unindexEntry } from './knowledgeIndex';
import { normalizeContent } from './normalize';
import { readForgottenPayload } from './readKnowledgePayload';

/**
 * The entry in force that `{ id }` or `{ content }` names (content compared case- and
 * space-insensitively), or `undefined`.
 *
 * @example
 * ```ts
 * findEntry(state, { content: 'prefers dark mode' })?.id; // 'k1'
 * ```
 */
export const findEntry = (
  state: KnowledgeState,
  which: { readonly id: string } | { readonly content: string },
): KnowledgeEntry | undefined => {
  if ('id' in which) return state.entries.find((e) => e.id === which.id && e.retiredAt === null);
  const key = normalizeContent(which.content);
  return state.entries.find((e) => e.retiredAt === null && normalizeContent(e.content) === key);
};

/**
 * Retires a knowledge entry (reducer of `knowledge/forgotten`, the `forget` tool): the entry in
 * force with the `id` (as `recall` shows it), or with the `content` (compared case- and
 * space-insensitively), gets `retiredAt` and `retiredBy: 'forgotten'`; it stays in the state, so
 * an "as of" query or an undo still sees it. `persistent` protects from eviction, not from this.
 * An entry that is not in force changes nothing.
 *
 * @param state - the knowledge state
 * @param payload - `{ id, at }` or `{ content, at }`
 * @returns the new state and its effects (the same state and none when nothing matched)
 * @throws MemoryArgumentError naming the field, for a malformed payload
 * @example
 * ```ts
 * const { effects } = forgotten(state, { id: 'k1', at: Date.now() });
 * effects[0]?.type; // 'knowledge/retired'
 * ```
 */
export const forgotten = (
  state: KnowledgeState,
  payload: ForgottenPayload,
): KnowledgeTransition => {
  const read = readForgottenPayload(payload, 'forgotten');
  const entry = findEntry(state, read);
  if (entry === undefined) return { state, effects: NO_EFFECTS };
  const draft = new KnowledgeDraft(state);
  const i = draft.index.entryById.get(entry.id) as number;
  unindexEntry(draft.index, entry, i);
  draft.setEntry(i, retiredFact(entry, read.at, 'forgotten', null, null));
  draft.effect({ type: 'knowledge/retired', kind: 'entry', id: entry.id, reason: 'forgotten' });
  return draft.finish();
};
