import { current, isDraft, isModified, original } from 'immer';
import { MemoryArgumentError } from '../errors/errorClasses';
import type { MemoryState } from '../model/state';
import { describeValue } from './describeValue';
import { errorText } from './errorText';

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
    Array.isArray(candidate.positionRuns) &&
    typeof candidate.nextPosition === 'number' &&
    typeof totalTokens === 'number' &&
    Array.isArray(candidate.pendingMessages) &&
    Array.isArray(candidate.pendingPositions) &&
    Array.isArray(candidate.summaryCoverage) &&
    typeof config.toolPairs === 'string' &&
    (summary === null || typeof summary === 'string')
  );
};

/** What the caller passed instead of a state, said so that it points at the fix. */
const describeNotAState = (value: unknown): string => {
  if (typeof value === 'object' && value !== null) {
    const methods = value as { getHistory?: unknown; addMany?: unknown };
    // Recognised by its methods: the reducers must not import the facade (bundle size), and a
    // bundler may have renamed the class (`_ConversationMemory`).
    if (typeof methods.getHistory === 'function' && typeof methods.addMany === 'function') {
      return 'received a ConversationMemory (the object API); pass its .state, or call the method on it';
    }
    if ('messages' in value && 'tokenCounts' in value && !('positionRuns' in value)) {
      return 'received a state of conversation-memory 0.1.0 (it has no positionRuns); keep states as toDict JSON and load them with fromDict, which reads every version';
    }
    if ('state' in value && 'effects' in value) {
      return 'received what looks like a Transition ({ state, effects }, what a reducer returns); pass its .state';
    }
  }
  return `received ${describeValue(value)}`;
};

/**
 * Reads the state argument of a reducer or selector, in O(1):
 *
 * - an Immer draft (a Redux Toolkit reducer doing `state.memory = addMessage(state.memory, m).state`)
 *   is unwrapped to the state it stands for: the original when the draft is untouched, else a
 *   snapshot (`current`). Working on the draft itself would put proxies into the new state, and
 *   Immer revokes them when its producer ends;
 * - anything that is not shaped like a `MemoryState` (a JavaScript caller, a store slice that was
 *   never initialized, a facade or a transition instead of a state) is rejected with
 *   `MemoryArgumentError`, which says what it looks like; so is a value that throws when read (a
 *   revoked Proxy).
 *
 * It checks the shape, not the content: states are made by this library and trusted.
 *
 * @internal
 */
export const readState = (state: unknown, api: string): MemoryState => {
  let plain: unknown;
  let problem: string | undefined;
  try {
    plain = isDraft(state) ? (isModified(state) ? current(state) : original(state)) : state;
    if (isStateShaped(plain as Partial<MemoryState> | null)) return plain as MemoryState;
    problem = describeNotAState(state);
  } catch (error) {
    problem = `the value could not be read: ${errorText(error)}`;
  }
  throw new MemoryArgumentError(
    api,
    `state must be a MemoryState (made by createMemory, a reducer or fromDict), ${problem}`,
  );
};
