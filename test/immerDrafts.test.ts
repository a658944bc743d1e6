import { castDraft, produce } from 'immer';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  applySummary,
  clearMemory,
  createMemory,
  getHistory,
  type MemoryState,
  userMessage,
} from 'conversation-memory';

/**
 * Redux Toolkit reducers run inside Immer's `produce`, so `state.memory` there is a draft:
 * `state.memory = addMessage(state.memory, message).state` is the natural way to use the
 * reducers in a slice. The reducers unwrap the draft; a state built from the draft itself would
 * hold proxies that Immer revokes when the producer returns.
 */
interface Store {
  readonly memory: MemoryState;
  readonly other: number;
}

const base: Store = { memory: createMemory({ maxMessages: 2, tokenizer: 'heuristic' }), other: 0 };

describe('reducers called on Immer drafts (Redux Toolkit slices)', () => {
  it('addMessage on an untouched draft gives a plain state that outlives the producer', () => {
    const next = produce(base, (draft) => {
      draft.memory = castDraft(addMessage(draft.memory, userMessage('hello')).state);
    });
    expect(getHistory(next.memory)).toEqual([userMessage('hello')]);
    expect(JSON.parse(JSON.stringify(next.memory))).toEqual(next.memory);
    expect(base.memory.messages).toEqual([]);
  });

  it('chains several reducers in one producer and trims as usual', () => {
    const next = produce(base, (draft) => {
      for (const text of ['a', 'b', 'c'])
        draft.memory = castDraft(addMessage(draft.memory, userMessage(text)).state);
      draft.memory = castDraft(applySummary(draft.memory, 'summary of a').state);
    });
    expect(getHistory(next.memory).map((m) => m.content)).toEqual(['b', 'c']);
    expect(next.memory.summary).toBe('summary of a');
  });

  it('works after the draft was modified in place by other code', () => {
    const start = produce(base, (draft) => {
      draft.memory = castDraft(addMessage(draft.memory, userMessage('first')).state);
    });
    const next = produce(start, (draft) => {
      (draft.memory as { summary: string | null }).summary = 'edited in the draft';
      draft.memory = castDraft(clearMemory(draft.memory).state);
    });
    expect(next.memory.messages).toEqual([]);
    expect(next.memory.summary).toBeNull();
    expect(start.memory.messages).toHaveLength(1);
  });
});
