import type { Message } from '../model/message';
import type { ViewChange, ViewOmissionReason, ViewTarget } from './viewTypes';
import { interruptedToolResult } from './interruptedToolResult';

/**
 * A view under construction: parallel lists of the messages kept, their positions, and for each
 * the index of the first message of its group (a tool-call message and its results are one
 * group; any other message is a group of its own), so a budget can leave out whole groups.
 *
 * @internal
 */
export interface ViewDraft {
  readonly messages: Message[];
  readonly positions: (number | null)[];
  /** For each kept message, the index (in `messages`) where its group starts. */
  readonly groupStarts: number[];
  /** For each kept message, its index in the source (−1 for a message the view made). */
  readonly sources: number[];
  readonly changes: ViewChange[];
  /** The original of each masked result, by the placeholder sent in its place. */
  readonly masked?: ReadonlyMap<Message, Message>;
}

/** Reads a source message and its position by index. */
export interface ViewSource {
  readonly length: number;
  /** The message's index in what the caller gave (the window, or the whole transcript). */
  index(i: number): number;
  message(index: number): Message;
  position(index: number): number | null;
}

const omit = (
  draft: ViewDraft,
  source: ViewSource,
  index: number,
  reason: ViewOmissionReason,
): void => {
  draft.changes.push({
    type: 'view/omitted',
    reason,
    index: source.index(index),
    position: source.position(index),
    message: source.message(index),
  });
};

const keep = (
  draft: ViewDraft,
  source: number,
  message: Message,
  position: number | null,
  start: number,
): void => {
  draft.messages.push(message);
  draft.positions.push(position);
  draft.groupStarts.push(start);
  draft.sources.push(source);
};

/** Why a tool-call message cannot be sent: a call without an id, or an id already used. */
const badCalls = (
  message: Message,
  usedIds: ReadonlySet<string>,
): 'tool-call-without-id' | 'duplicate-tool-call-id' | undefined => {
  const own = new Set<string>();
  for (const call of message.toolCalls ?? []) {
    const id = call.id;
    if (id === undefined || id === '') return 'tool-call-without-id';
    if (usedIds.has(id) || own.has(id)) return 'duplicate-tool-call-id';
    own.add(id);
  }
  return undefined;
};

/**
 * The tool-pairing rules every tool-calling API shares, applied in one pass (rules in order):
 *
 * 1. A tool result that does not follow its call (only the call's other results, and for
 *    `'anthropic'` system messages, which it lifts out, may stand between) is left out:
 *    `'missing-tool-call-id'` without an id, `'duplicate-tool-result'` for a second answer,
 *    else `'tool-result-without-call'`.
 * 2. A tool-call message with a call that has no id, or an id an earlier call used, is left out
 *    with the results that follow it (its own reason for the message, the same for each result).
 * 3. A call that no result answers is answered in the view, right after the group's results, by
 *    an interrupted-call tool message (`view/answered`); memory is not changed.
 *
 * Linear in the source: one pass, one set of the ids seen.
 *
 * @internal
 */
export const repairToolPairs = (source: ViewSource, target: ViewTarget, draft: ViewDraft): void => {
  const usedIds = new Set<string>();
  const { length } = source;
  let i = 0;
  while (i < length) {
    const message = source.message(i);
    const calls = message.role === 'assistant' ? message.toolCalls : undefined;
    if (message.role === 'tool') {
      omit(
        draft,
        source,
        i,
        message.toolCallId === undefined || message.toolCallId === ''
          ? 'missing-tool-call-id'
          : 'tool-result-without-call',
      );
      i++;
      continue;
    }
    if (calls === undefined || calls.length === 0) {
      keep(draft, source.index(i), message, source.position(i), draft.messages.length);
      i++;
      continue;
    }
    // A tool-call group: the message, then the results (and, for Anthropic, system messages).
    const bad = badCalls(message, usedIds);
    for (const call of calls) if (call.id !== undefined && call.id !== '') usedIds.add(call.id);
    const start = draft.messages.length;
    if (bad !== undefined) omit(draft, source, i, bad);
    else keep(draft, source.index(i), message, source.position(i), start);
    const open = new Map<string, (typeof calls)[number]>();
    if (bad === undefined) for (const call of calls) open.set(call.id as string, call);
    const answered = new Set<string>();
    let j = i + 1;
    for (; j < length; j++) {
      const next = source.message(j);
      if (next.role === 'system' && target === 'anthropic') {
        keep(
          draft,
          source.index(j),
          next,
          source.position(j),
          bad === undefined ? start : draft.messages.length,
        );
        continue;
      }
      if (next.role !== 'tool') break;
      const id = next.toolCallId;
      if (bad !== undefined) omit(draft, source, j, bad);
      else if (id === undefined || id === '') omit(draft, source, j, 'missing-tool-call-id');
      else if (answered.has(id)) omit(draft, source, j, 'duplicate-tool-result');
      else if (!open.has(id)) omit(draft, source, j, 'tool-result-without-call');
      else {
        answered.add(id);
        open.delete(id);
        keep(draft, source.index(j), next, source.position(j), start);
      }
    }
    for (const call of open.values()) {
      const answer = interruptedToolResult(call);
      keep(draft, -1, answer, null, start);
      draft.changes.push({
        type: 'view/answered',
        toolCallId: call.id as string,
        toolName: call.name,
        position: source.position(i),
        message: answer,
      });
    }
    i = j;
  }
};
