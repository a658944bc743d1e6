import type { Message } from '../model/message';
import { maskedToolResult } from './maskedToolResult';
import type { ViewDraft } from './repairToolPairs';
import type { MaskToolResults, ViewChange } from './viewTypes';

/** Two tool results are repeats when they have the same tool name and the same text content. */
const repeatKey = (message: Message): string | undefined =>
  typeof message.content === 'string' &&
  message.contentParts === undefined &&
  message.imageBase64 === undefined
    ? `${message.toolName ?? ''}\u0000${message.content}`
    : undefined;

/**
 * Masks stale tool results of a draft (rules in order, walking from the newest message):
 *
 * 1. The current turn (from the last user message on; the whole draft when it has no user
 *    message) is never touched, nor any message that is not a tool result of the source (an
 *    answer the view made for an unanswered call stays as it is, and is not counted).
 * 2. A result identical to a newer one sent verbatim (same tool name, same text content) is
 *    masked as a `'repeat'` of it (`sameAs`): the newest copy is the one sent.
 * 3. Otherwise a result is sent verbatim when it is one of the `keepLast` newest results sent
 *    verbatim (the current turn's count), or lies within the `keepTurns` newest user turns (the
 *    current turn is the first); else it is masked as `'stale'`.
 *
 * A masked result keeps its place, role, `toolCallId` and `toolName` (see `maskedToolResult`), so
 * the draft's roles, ids and groups are unchanged; each masking is a `view/masked` change, in
 * the order of the draft. One pass; one map of the contents sent verbatim.
 *
 * @internal
 */
export const maskToolResults = (draft: ViewDraft, mask: MaskToolResults): ViewDraft => {
  const { messages, sources, positions } = draft;
  const keepLast = mask.keepLast ?? 0;
  const keepTurns = mask.keepTurns ?? 0;
  let current = 0;
  for (let k = messages.length - 1; k >= 0; k--) {
    if (messages[k]?.role === 'user') {
      current = k;
      break;
    }
  }
  /** The call id of the newest result sent verbatim, by repeat key. */
  const sent = new Map<string, string>();
  const masked = new Map<Message, Message>();
  const changes: ViewChange[] = [];
  const next = messages.slice();
  let verbatim = 0;
  let turns = 0;
  for (let k = messages.length - 1; k >= 0; k--) {
    const message = messages[k] as Message;
    if (message.role === 'user') turns++;
    if (message.role !== 'tool' || (sources[k] as number) < 0) continue;
    const key = repeatKey(message);
    const id = message.toolCallId ?? '';
    if (k >= current) {
      verbatim++;
      if (key !== undefined && !sent.has(key)) sent.set(key, id);
      continue;
    }
    const sameAs = key === undefined ? undefined : sent.get(key);
    if (sameAs === undefined && (verbatim < keepLast || turns < keepTurns)) {
      verbatim++;
      if (key !== undefined) sent.set(key, id);
      continue;
    }
    const placeholder = maskedToolResult(message, sameAs);
    next[k] = placeholder;
    masked.set(placeholder, message);
    changes.push({
      type: 'view/masked',
      reason: sameAs === undefined ? 'stale' : 'repeat',
      index: sources[k] as number,
      position: positions[k] as number | null,
      toolCallId: id,
      toolName: message.toolName ?? null,
      ...(sameAs === undefined ? {} : { sameAs }),
      message: placeholder,
    });
  }
  if (masked.size === 0) return draft;
  for (let c = changes.length - 1; c >= 0; c--) draft.changes.push(changes[c] as ViewChange);
  return { ...draft, messages: next, masked };
};
