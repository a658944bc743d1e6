import { MemoryArgumentError } from '../errors/errorClasses';
import type { MemoryState } from '../model/state';
import { describeValue } from './describeValue';

/**
 * Rejects, in O(1), a value passed where a `MemoryState` belongs (a JavaScript caller, a store
 * slice that was never initialized, a facade instead of its state). It checks the shape, not the
 * content: states are made by this library and trusted.
 *
 * @internal
 */
export const assertState = (state: unknown, api: string): void => {
  const candidate = state as Partial<MemoryState> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.config !== 'object' ||
    candidate.config === null ||
    !Array.isArray(candidate.messages) ||
    !Array.isArray(candidate.tokenCounts) ||
    candidate.messages.length !== candidate.tokenCounts.length ||
    typeof candidate.totalTokens !== 'number'
  ) {
    throw new MemoryArgumentError(
      api,
      `state must be a MemoryState (made by createMemory, a reducer or fromDict), received ${describeValue(state)}`,
    );
  }
};
