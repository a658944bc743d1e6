import { current, isDraft, isModified, original } from 'immer';
import { MemoryArgumentError } from '../errors/errorClasses';
import type { MemoryState } from '../model/state';
import { describeValue } from './describeValue';

const isStateShaped = (candidate: Partial<MemoryState> | null): candidate is MemoryState => {
  if (typeof candidate !== 'object' || candidate === null) return false;
  const { config, messages, tokenCounts, totalTokens, summary } = candidate;
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof config.maxMessages === 'number' &&
    (config.maxTokens === null || typeof config.maxTokens === 'number') &&
    typeof config.tokenizer === 'string' &&
    Array.isArray(messages) &&
    Array.isArray(tokenCounts) &&
    messages.length === tokenCounts.length &&
    typeof totalTokens === 'number' &&
    (summary === null || typeof summary === 'string')
  );
};

/**
 * Reads the state argument of a reducer or selector, in O(1):
 *
 * - an Immer draft (a Redux Toolkit reducer doing `state.memory = addMessage(state.memory, m).state`)
 *   is unwrapped to the state it stands for: the original when the draft is untouched, else a
 *   snapshot (`current`). Working on the draft itself would put proxies into the new state, and
 *   Immer revokes them when its producer ends;
 * - anything that is not shaped like a `MemoryState` (a JavaScript caller, a store slice that was
 *   never initialized, a facade instead of its state) is rejected with `MemoryArgumentError`.
 *
 * It checks the shape, not the content: states are made by this library and trusted.
 *
 * @internal
 */
export const readState = (state: unknown, api: string): MemoryState => {
  const plain: unknown = isDraft(state)
    ? isModified(state)
      ? current(state)
      : original(state)
    : state;
  if (isStateShaped(plain as Partial<MemoryState> | null)) return plain as MemoryState;
  throw new MemoryArgumentError(
    api,
    `state must be a MemoryState (made by createMemory, a reducer or fromDict), received ${describeValue(state)}`,
  );
};
