import type { MemoryConfig } from './config';
import type { Message } from './message';

/**
 * The whole memory: a plain, readonly, JSON-serializable record. Reducers take one and return a
 * new one; nothing ever mutates it, so it can sit in a Redux or Zustand store, be diffed by
 * DevTools, and be kept at every step for time travel.
 *
 * `tokenCounts[i]` is the token count of `messages[i]`, computed once with `config.tokenizer`
 * when the message entered; `totalTokens` is their sum, kept incrementally. Trimming never
 * re-counts.
 *
 * @example
 * ```ts
 * const state: MemoryState = addMessage(createMemory(), userMessage('hi')).state;
 * state.messages.length; // 1
 * ```
 */
export interface MemoryState {
  readonly config: MemoryConfig;
  readonly messages: readonly Message[];
  readonly tokenCounts: readonly number[];
  readonly totalTokens: number;
  /** Summarize-on-trim text, or `null` when there is none. */
  readonly summary: string | null;
}
