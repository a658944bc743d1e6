import { checkConfig, configError } from '../internal/checkConfig';
import { EMPTY, makeState } from '../internal/window';
import type { MemoryOptions } from '../model/config';
import type { MemoryState } from '../model/state';

/**
 * Creates an empty memory: a plain, frozen, JSON-serializable record. Defaults are the
 * reference's (`maxMessages: 20`, `maxTokens: null`) with the GPT-4o tokenizer.
 *
 * @param options - `maxMessages` (integer ≥ 1), `maxTokens` (integer ≥ 1 or `null`), `tokenizer`
 * @returns the initial state
 * @throws MemoryConfigError (a `RangeError`) naming each invalid field and its value, e.g.
 *   `[conversation-memory] createMemory: maxMessages must be at least 1, received 0`
 * @example
 * ```ts
 * const state = createMemory({ maxMessages: 10, maxTokens: 4000 });
 * state.messages; // []
 * ```
 */
export const createMemory = (options?: MemoryOptions): MemoryState =>
  createMemoryFor('createMemory', options);

/**
 * {@link createMemory} for the public call named `api`, which the error of bad options names
 * (`new ConversationMemory`).
 *
 * @internal
 */
export const createMemoryFor = (api: string, options: MemoryOptions | undefined): MemoryState => {
  const checked = checkConfig(options);
  if (!checked.ok) throw configError(api, checked);
  return makeState({
    config: checked.config,
    messages: EMPTY,
    tokenCounts: EMPTY,
    positionRuns: EMPTY,
    nextPosition: 0,
    totalTokens: 0,
    summary: null,
    pendingMessages: EMPTY,
    pendingPositions: EMPTY,
    summaryCoverage: EMPTY,
  });
};
