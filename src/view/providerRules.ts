import { hasAnthropicContent, isEmptyForOpenAI } from '../formats/messageContent';
import type { Message } from '../model/message';
import type { ViewChange, ViewOmissionReason, ViewTarget } from './viewTypes';
import type { ViewDraft } from './repairToolPairs';

/**
 * Keeps the draft's messages for which `keepAt(k)` holds, recording each one left out with
 * `reason`; group starts are renumbered. Linear.
 *
 * @internal
 */
export const filterDraft = (
  draft: ViewDraft,
  keepAt: (k: number) => boolean,
  reason: ViewOmissionReason,
): ViewDraft => {
  const { masked } = draft;
  const next: ViewDraft = {
    messages: [],
    positions: [],
    groupStarts: [],
    sources: [],
    changes: draft.changes,
    ...(masked === undefined ? {} : { masked }),
  };
  // Masked results left out: the change records the original, and their `view/masked` goes.
  let unmasked: Set<Message> | undefined;
  // Group starts only grow along the draft, so the last one renumbered is the only one to recall.
  let oldStart = -1;
  let newStart = -1;
  for (let k = 0; k < draft.messages.length; k++) {
    const message = draft.messages[k] as Message;
    const position = draft.positions[k] as number | null;
    if (!keepAt(k)) {
      const source = draft.sources[k] as number;
      const original = masked?.get(message);
      if (original !== undefined) (unmasked ??= new Set()).add(message);
      if (source >= 0) next.changes.push(omitted(reason, source, position, original ?? message));
      else {
        // An answer the view made goes with its call: its `view/answered` change goes too.
        const at = next.changes.findIndex(
          (c) => c.type === 'view/answered' && c.message === message,
        );
        if (at >= 0) next.changes.splice(at, 1);
      }
      continue;
    }
    const start = draft.groupStarts[k] as number;
    if (start !== oldStart) {
      oldStart = start;
      newStart = next.messages.length;
    }
    next.messages.push(message);
    next.positions.push(position);
    next.groupStarts.push(newStart);
    next.sources.push(draft.sources[k] as number);
  }
  if (unmasked !== undefined) dropMaskedChanges(next.changes, unmasked);
  return next;
};

/** Removes, in place and in one pass, the `view/masked` changes of the placeholders `gone`. */
const dropMaskedChanges = (changes: ViewChange[], gone: ReadonlySet<Message>): void => {
  let kept = 0;
  for (const change of changes) {
    if (change.type === 'view/masked' && gone.has(change.message)) continue;
    changes[kept++] = change;
  }
  changes.length = kept;
};

const omitted = (
  reason: ViewOmissionReason,
  index: number,
  position: number | null,
  message: Message,
): ViewChange => ({ type: 'view/omitted', reason, index, position, message });

/**
 * The target's rule on empty messages: OpenAI refuses an assistant message with `null` content
 * and nothing else; Anthropic refuses a user or assistant message with no content block, except
 * a final assistant message.
 *
 * @internal
 */
export const dropEmptyMessages = (draft: ViewDraft, target: ViewTarget): ViewDraft => {
  if (target === 'none') return draft;
  const { messages } = draft;
  let lastTurn = messages.length - 1;
  while (lastTurn >= 0 && messages[lastTurn]?.role === 'system') lastTurn--;
  const empty = (k: number): boolean => {
    const message = messages[k] as Message;
    if (target === 'openai') return isEmptyForOpenAI(message);
    if (message.role !== 'user' && message.role !== 'assistant') return false;
    if (k === lastTurn && message.role === 'assistant') return false;
    return !hasAnthropicContent(message);
  };
  if (!messages.some((_, k) => empty(k))) return draft;
  return filterDraft(draft, (k) => !empty(k), 'empty-content');
};

/**
 * Anthropic's first-turn rule: with system messages lifted out, the first message is a user turn.
 * Leading assistant turns (with their tool results) are left out; system messages stay.
 *
 * @internal
 */
export const dropLeadingAssistantTurns = (draft: ViewDraft, target: ViewTarget): ViewDraft => {
  if (target !== 'anthropic') return draft;
  const { messages, groupStarts } = draft;
  let firstUser = -1;
  for (let k = 0; k < messages.length; k++) {
    const role = messages[k]?.role;
    if (role === 'user') {
      firstUser = k;
      break;
    }
  }
  const end = firstUser === -1 ? messages.length : (groupStarts[firstUser] as number);
  const leading = (k: number): boolean => k < end && messages[k]?.role !== 'system';
  if (!messages.some((_, k) => leading(k))) return draft;
  return filterDraft(draft, (k) => !leading(k), 'first-message-not-user');
};
