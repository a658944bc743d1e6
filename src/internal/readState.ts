import { MemoryArgumentError } from '../errors/memoryErrors';
import type { MemoryState } from '../model/state';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';

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

/**
 * The key under which Immer keeps a draft's internal state: every draft answers it, and nothing
 * else does. It is a registered symbol (`Symbol.for`) in Immer 10 and 11 (what Redux Toolkit 2
 * uses) and in Immer 8 and 9 (Redux Toolkit 1), which lets the core recognise a draft from any
 * copy of Immer without importing it. (Some Immer 6–7 era builds used an unregistered `Symbol`;
 * their drafts are not recognised here.)
 */
const IMMER_DRAFT_STATE: unique symbol = /* @__PURE__ */ Symbol.for('immer-state');

/**
 * Whether an object is an Immer draft (one property read, through the draft's own `get` trap:
 * its `has` trap does not see the key).
 */
const isImmerDraft = (value: object): boolean =>
  (value as { readonly [IMMER_DRAFT_STATE]?: unknown })[IMMER_DRAFT_STATE] !== undefined;

/** What to do with a draft, said where it is rejected. */
const DRAFT_PROBLEM =
  "received an Immer draft (a Redux Toolkit case reducer's state), whose proxies Immer revokes " +
  'when the producer returns; pass current(draft) or original(draft) (from immer or ' +
  '@reduxjs/toolkit: addMessage(current(state.memory), message)), or use conversation-memory/redux';

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
 * - an Immer draft (a Redux Toolkit case reducer calling `addMessage(state.memory, m)`) is
 *   rejected with `MemoryArgumentError`, which says to pass `current(draft)` or `original(draft)`:
 *   working on the draft would put proxies into the new state, and Immer revokes them when its
 *   producer ends. Drafts are recognised by Immer's registered `Symbol.for('immer-state')` key, so
 *   the core does not import Immer (the Redux adapter unwraps its drafts itself);
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
  let problem: string;
  const candidate = state as Partial<MemoryState> | null;
  try {
    if (typeof state === 'object' && state !== null && isImmerDraft(state)) {
      problem = DRAFT_PROBLEM;
    } else if (isStateShaped(candidate)) {
      // A copy of a draft (`{ ...draft }`) is no draft, but its arrays are.
      if (!isImmerDraft(candidate.messages)) return candidate;
      problem = DRAFT_PROBLEM;
    } else {
      problem = describeNotAState(state);
    }
  } catch (error) {
    problem = `the value could not be read: ${errorText(error)}`;
  }
  throw new MemoryArgumentError(
    api,
    `state must be a MemoryState (made by createMemory, a reducer or fromDict), ${problem}`,
  );
};
