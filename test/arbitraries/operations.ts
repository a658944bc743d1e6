import fc from 'fast-check';
import {
  addMessage,
  addMessages,
  applySummary,
  clearMemory,
  enforceLimits,
  fixToolPairBoundary,
  setSummary,
  type MemoryState,
  type Message,
  type Transition,
} from 'conversation-memory';
import { conversationArb, turnArb } from './conversation';
import { messageArb } from './message';
import { summaryTextArb, textArb } from './text';

/** One reducer call, as data, so a failing sequence prints readably and replays exactly. */
export type Operation =
  | { readonly kind: 'addMessage'; readonly message: Message }
  | { readonly kind: 'addMessages'; readonly messages: readonly Message[] }
  | { readonly kind: 'enforceLimits' }
  | { readonly kind: 'fixToolPairBoundary' }
  | { readonly kind: 'applySummary'; readonly text: string }
  | { readonly kind: 'setSummary'; readonly text: string | null }
  | { readonly kind: 'clearMemory' };

/** The messages an operation adds (empty for everything but the two add reducers). */
export const addedBy = (operation: Operation): readonly Message[] => {
  if (operation.kind === 'addMessage') return [operation.message];
  if (operation.kind === 'addMessages') return operation.messages;
  return [];
};

/** Runs one operation with the library's reducer. */
export const runOperation = (state: MemoryState, operation: Operation): Transition => {
  switch (operation.kind) {
    case 'addMessage':
      return addMessage(state, operation.message);
    case 'addMessages':
      return addMessages(state, operation.messages);
    case 'enforceLimits':
      return enforceLimits(state);
    case 'fixToolPairBoundary':
      return fixToolPairBoundary(state);
    case 'applySummary':
      return applySummary(state, operation.text);
    case 'setSummary':
      return setSummary(state, operation.text);
    case 'clearMemory':
      return clearMemory(state);
  }
};

const add = (message: Message): Operation => ({ kind: 'addMessage', message });
const addMany = (messages: readonly Message[]): Operation => ({ kind: 'addMessages', messages });

/**
 * Only the two add reducers: a whole turn added at once, or message by message, single odd
 * messages, and `addMessages([])`. What the reference can do, for the differential property.
 */
export const addOperationsArb = (maxLength = 16): fc.Arbitrary<Operation[]> =>
  fc
    .array(
      fc.oneof(
        { arbitrary: turnArb.map((turn) => [addMany(turn)]), weight: 3 },
        { arbitrary: turnArb.map((turn) => turn.map(add)), weight: 4 },
        { arbitrary: messageArb.map((m) => [add(m)]), weight: 2 },
        { arbitrary: conversationArb(3).map((messages) => [addMany(messages)]), weight: 1 },
        { arbitrary: fc.constant([addMany([])]), weight: 1 },
      ),
      { minLength: 1, maxLength, size: 'max' },
    )
    .map((groups) => groups.flat());

/**
 * Any sequence of reducer calls: mostly adds (turns at once or one by one, including
 * `addMessages([])`), plus `enforceLimits`, `fixToolPairBoundary`, `applySummary`, `setSummary`
 * (text or `null`; `checkNoOpCalls` probes the unchanged summary) and, rarely, `clearMemory`.
 */
export const operationsArb = (maxLength = 16): fc.Arbitrary<Operation[]> =>
  fc
    .array(
      fc.oneof(
        { arbitrary: turnArb.map((turn) => [addMany(turn)]), weight: 6 },
        { arbitrary: turnArb.map((turn) => turn.map(add)), weight: 8 },
        { arbitrary: messageArb.map((m) => [add(m)]), weight: 4 },
        { arbitrary: fc.constant([addMany([])]), weight: 2 },
        { arbitrary: fc.constant([{ kind: 'enforceLimits' } as const]), weight: 2 },
        { arbitrary: fc.constant([{ kind: 'fixToolPairBoundary' } as const]), weight: 2 },
        {
          arbitrary: summaryTextArb.map((text) => [{ kind: 'applySummary', text } as const]),
          weight: 2,
        },
        {
          arbitrary: fc
            .option(textArb, { nil: null, freq: 3 })
            .map((text) => [{ kind: 'setSummary', text } as const]),
          weight: 2,
        },
        { arbitrary: fc.constant([{ kind: 'clearMemory' } as const]), weight: 1 },
      ),
      { minLength: 1, maxLength, size: 'max' },
    )
    .map((groups): Operation[] => groups.flat());
