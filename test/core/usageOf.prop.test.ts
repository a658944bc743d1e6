import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  applySummary,
  clearMemory,
  commitSummary,
  createMemory,
  decodeState,
  fixToolPairBoundary,
  fromDict,
  getPendingSummary,
  holdForSummary,
  memoryActions,
  memoryReducer,
  reconfigure,
  toDict,
  usageOf,
  type ConversationUsage,
  type MemoryAction,
  type MemoryConfig,
  type MemoryState,
  type Message,
  type TrimmedEffect,
  type Transition,
} from 'conversation-memory';
import { readUsage } from '../../src/tokens/readUsage';
import { trimToArb } from '../arbitraries/config';
import { toolConversationArb } from '../arbitraries/toolConversation';
import { anyUsageArb, usageConversationArb } from '../arbitraries/usage';

/**
 * `usageOf(state)` (issue #29 §3): after any sequence of adds (assistant messages with a valid
 * `metadata.usage`, with an invalid one, with none), trims (limits, `trimTo`, the tool-pair rules,
 * redundancy pruning), summaries (`applySummary`, summarize-on-trim's hold and commit), removals
 * (`reconfigure` to tighter limits, `fixToolPairBoundary`) and clears, `usageOf` is the sum of the
 * valid usages of every assistant message added since the last clear (by `readUsage`'s rules,
 * the oracle here), with `calls` how many there were; every `memory/trimmed` effect carries the
 * usage of exactly what it removed (absent when none), so the effects and the last state together
 * account for every call; and replays, files and stored states carry the total exactly.
 */

const ZERO: ConversationUsage = {
  calls: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
};

/** The oracle: the usage an added message records, by readUsage's rules (assistant only). */
const usageOfMessage = (message: Message): ConversationUsage => {
  if (message.role !== 'assistant' || message.metadata?.['usage'] === undefined) return ZERO;
  const usage = readUsage(message.metadata['usage']);
  if (typeof usage === 'string') return ZERO;
  return {
    calls: 1,
    inputTokens: usage.inputTokens,
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    cacheWriteTokens: usage.cacheWriteTokens ?? 0,
    outputTokens: usage.outputTokens,
  };
};

const plus = (a: ConversationUsage, b: ConversationUsage): ConversationUsage => ({
  calls: a.calls + b.calls,
  inputTokens: a.inputTokens + b.inputTokens,
  cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
  cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

const sumOf = (messages: readonly Message[]): ConversationUsage =>
  messages.map(usageOfMessage).reduce(plus, ZERO);

/** Any policy, small limits (trims are frequent), any step ratio, either pruning. */
const configArb: fc.Arbitrary<MemoryConfig> = fc
  .record({
    maxMessages: fc.integer({ min: 1, max: 8 }),
    maxTokens: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 60 })),
    toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
    startOn: fc.constantFrom(null, 'user' as const),
    pinSystem: fc.boolean(),
    prune: fc.constantFrom('oldest' as const, 'redundant' as const),
    trimTo: trimToArb,
  })
  .map((fields) => createMemory({ ...fields, tokenizer: 'heuristic' }).config);

/** One call of the run: the messages are drawn apart and taken in order. */
type Step =
  | { readonly kind: 'add' | 'addMany'; readonly size: number }
  | { readonly kind: 'repeat'; readonly back: number }
  | { readonly kind: 'summary'; readonly text: string }
  | { readonly kind: 'commit' }
  | { readonly kind: 'tighten'; readonly maxMessages: number }
  | { readonly kind: 'fixBoundary' }
  | { readonly kind: 'clear' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('add' as const), size: fc.constant(1) }), weight: 8 },
  {
    arbitrary: fc.record({
      kind: fc.constant('addMany' as const),
      size: fc.integer({ min: 1, max: 4 }),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('repeat' as const), back: fc.nat({ max: 6 }) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('summary' as const), text: fc.string() }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('commit' as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('tighten' as const),
      maxMessages: fc.integer({ min: 1, max: 8 }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('fixBoundary' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('clear' as const) }), weight: 1 },
);

const trimsOf = (transition: Transition): TrimmedEffect[] =>
  transition.effects.filter((e): e is TrimmedEffect => e.type === 'memory/trimmed');

/**
 * Runs the steps call by call (with summarize-on-trim's hold after each trim when `hold`); after
 * each, checks usageOf against the oracle and each trim's usage against what it removed. Returns
 * the states and the actions that produced them.
 */
const drive = (
  config: MemoryConfig,
  messages: readonly Message[],
  steps: readonly Step[],
  hold: boolean,
) => {
  let state = createMemory(config);
  let next = 0;
  const added: Message[] = [];
  // Since the last clear (what usageOf counts); since the start (what the effects and usageOf count).
  let sinceClear = ZERO;
  let ever = ZERO;
  let reported = ZERO;
  const states: MemoryState[] = [];
  const actions: MemoryAction[] = [];
  const take = (count: number): Message[] => {
    const taken = messages.slice(next, next + count);
    next += taken.length;
    return taken;
  };
  const check = () => {
    expect(usageOf(state)).toStrictEqual(sinceClear);
    // An event consumer sums the effects' usage; with the window's calls, that is every call.
    expect(plus(reported, sumOf(state.messages))).toStrictEqual(ever);
    // Absent when nothing left with a usage: a state without usage is what it always was.
    if (state.trimmedUsage !== undefined) expect(state.trimmedUsage.calls).toBeGreaterThan(0);
  };
  const apply = (action: MemoryAction, transition: Transition, incoming: readonly Message[]) => {
    for (const message of incoming) {
      added.push(message);
      sinceClear = plus(sinceClear, usageOfMessage(message));
      ever = plus(ever, usageOfMessage(message));
    }
    const trims = trimsOf(transition);
    for (const trim of trims) {
      const left = sumOf(trim.removed);
      // The effect carries exactly the usage of what it removed; no key when there is none.
      if (left.calls === 0) expect(Object.hasOwn(trim, 'usage')).toBe(false);
      else expect(trim.usage).toStrictEqual(left);
      reported = plus(reported, left);
    }
    if (action.type === 'memory/cleared') sinceClear = ZERO;
    actions.push(action);
    state = transition.state;
    states.push(state);
    check();
    if (!hold) return;
    for (const trim of trims) {
      if (trim.reason !== 'enforce_limits') continue;
      const held = holdForSummary(state, trim);
      if (held.state === state) continue;
      actions.push(memoryActions.trimHeld(trim));
      state = held.state;
      states.push(state);
      check();
    }
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'add': {
        const [message] = take(1);
        if (message !== undefined) {
          apply(memoryActions.messageAdded(message), addMessage(state, message), [message]);
        }
        break;
      }
      case 'addMany': {
        const batch = take(step.size);
        apply(memoryActions.messagesAdded(batch), addMessages(state, batch), batch);
        break;
      }
      case 'repeat': {
        // A copy of an earlier message (its usage too): redundancy pruning removes the older one.
        const message = added[added.length - 1 - step.back];
        if (message !== undefined) {
          apply(memoryActions.messageAdded(message), addMessage(state, message), [message]);
        }
        break;
      }
      case 'summary':
        apply(memoryActions.summaryApplied(step.text), applySummary(state, step.text), []);
        break;
      case 'commit': {
        const through = getPendingSummary(state).positions.at(-1);
        if (through !== undefined) {
          apply(
            memoryActions.summaryCommitted('Summary.', through),
            commitSummary(state, 'Summary.', through),
            [],
          );
        }
        break;
      }
      case 'tighten': {
        const options = { maxMessages: step.maxMessages };
        apply(memoryActions.reconfigured(options), reconfigure(state, options), []);
        break;
      }
      case 'fixBoundary':
        apply(memoryActions.toolPairBoundaryFixed(), fixToolPairBoundary(state), []);
        break;
      case 'clear':
        apply(memoryActions.cleared(), clearMemory(state), []);
        break;
    }
  }
  return { states, actions };
};

describe('usageOf: the usage of every call of a conversation (property)', () => {
  it('after any adds, trims, pruning, summaries, removals and clears: the sum of every valid usage added since the last clear; each trim effect carries what it removed', () => {
    fc.assert(
      fc.property(
        configArb,
        usageConversationArb(toolConversationArb(12)),
        fc.array(stepArb, { maxLength: 40 }),
        fc.boolean(),
        (config, messages, steps, hold) => {
          drive(config, messages, steps, hold);
        },
      ),
    );
  });

  it('replays exactly, and files and stored states carry the total: memoryReducer, toDict/fromDict and decodeState give the same states', () => {
    fc.assert(
      fc.property(
        configArb,
        usageConversationArb(toolConversationArb(8)),
        fc.array(stepArb, { maxLength: 25 }),
        fc.boolean(),
        (config, messages, steps, hold) => {
          const { states, actions } = drive(config, messages, steps, hold);
          let replayed = createMemory(config);
          actions.forEach((action, k) => {
            replayed = memoryReducer(replayed, action);
            expect(replayed).toStrictEqual(states[k]);
          });
          for (const state of states) {
            const loaded = fromDict(JSON.parse(JSON.stringify(toDict(state))));
            if (loaded._tag === 'Left') throw loaded.left;
            expect(usageOf(loaded.right)).toStrictEqual(usageOf(state));
            expect(loaded.right.trimmedUsage).toStrictEqual(state.trimmedUsage);
            const stored = decodeState(JSON.parse(JSON.stringify(state)));
            if (stored._tag === 'Left') throw stored.left;
            expect(stored.right).toStrictEqual(state);
          }
        },
      ),
    );
  });

  it('a metadata.usage that is not a valid usage is ignored, never thrown on: a call counts exactly when readUsage accepts its usage, in the window and after it left', () => {
    fc.assert(
      fc.property(anyUsageArb, (usage) => {
        const accepted = readUsage(usage);
        const expected: ConversationUsage =
          typeof accepted === 'string'
            ? ZERO
            : {
                calls: 1,
                inputTokens: accepted.inputTokens,
                cachedInputTokens: accepted.cachedInputTokens ?? 0,
                cacheWriteTokens: accepted.cacheWriteTokens ?? 0,
                outputTokens: accepted.outputTokens,
              };
        const reply: Message = {
          role: 'assistant',
          content: 'Hi',
          metadata: { usage: usage as never },
        };
        const memory = createMemory({ maxMessages: 1, tokenizer: 'heuristic' });
        const inWindow = addMessage(memory, reply).state;
        expect(usageOf(inWindow)).toStrictEqual(expected);
        const { state: after, effects } = addMessage(inWindow, { role: 'user', content: 'next' });
        expect(usageOf(after)).toStrictEqual(expected);
        const trim = trimsOf({ state: after, effects })[0];
        expect(trim?.usage).toStrictEqual(expected.calls === 0 ? undefined : expected);
        // Only assistant messages record calls: the same usage on a user message counts nothing.
        const fromUser = addMessage(memory, {
          role: 'user',
          content: 'Hi',
          metadata: { usage: usage as never },
        });
        expect(usageOf(fromUser.state)).toStrictEqual(ZERO);
      }),
    );
  });
});
