import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  clearMemory,
  createMemory,
  enforceLimits,
  fixToolPairBoundary,
  fromDict,
  planTrim,
  toDict,
  type MemoryConfig,
  type MemoryEffect,
  type MemoryState,
  type Message,
  type TrimRule,
  type Transition,
  getPositions,
} from 'conversation-memory';
import { countHeuristicTokens } from '../../src/tokens/heuristic';
import { trimToArb } from '../arbitraries/config';
import { driverStepsArb, type DriverStep } from '../arbitraries/toolConversation';
import { PolicyModel, type ModelTrim } from '../laws/policyModel';

/**
 * The strict policy (issue #6 §5) under random conversations with multi-call tool turns, random
 * limits and random `pinSystem` / `startOn`, driven by `addMessage`, `addMessages` and now and then
 * `clearMemory`. After every reducer call the window must be provider-safe, within its limits
 * (unless only pinned messages and one unit remain), conserve every message, keep positions, and
 * agree exactly with the plain model in `test/laws/policyModel.ts`.
 */

const policyConfigArb = (toolPairs: 'strict' | 'reference'): fc.Arbitrary<MemoryConfig> =>
  fc.record({
    maxMessages: fc.integer({ min: 1, max: 8 }),
    maxTokens: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 30 })),
    tokenizer: fc.constant('heuristic' as const),
    toolPairs: fc.constant(toolPairs),
    startOn: fc.constantFrom(null, 'user' as const),
    pinSystem: fc.boolean(),
    prune: fc.constant('oldest' as const),
    pruneThreshold: fc.constant(0.9),
    embedder: fc.constant('lexical'),
    trimTo: trimToArb,
  });

const requestsTools = (message: Message): boolean =>
  message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0;

/**
 * The provider rules, checked independently of any trimming logic: every tool result answers a
 * waiting call of the tool-call message it follows (only tool results between them), each call at
 * most once; a tool-call message whose calls are not all answered is only allowed as the window's
 * last group.
 */
const expectProviderSafe = (messages: readonly Message[]): void => {
  let waiting: (string | undefined)[] | undefined;
  messages.forEach((message, i) => {
    if (message.role === 'tool') {
      const slot =
        message.toolCallId === undefined ? -1 : (waiting?.indexOf(message.toolCallId) ?? -1);
      expect(slot, `tool result at ${i} answers no waiting call`).not.toBe(-1);
      waiting?.splice(slot, 1);
      return;
    }
    expect(waiting ?? [], `unanswered calls before message ${i}`).toEqual([]);
    waiting = requestsTools(message) ? (message.toolCalls ?? []).map((c) => c.id) : undefined;
  });
};

/** What is left when pinned system messages are set aside. */
const unpinned = (state: MemoryState): Message[] =>
  state.messages.filter((m) => !(state.config.pinSystem && m.role === 'system'));

/** At most one unit: nothing, one message, or (strict) one tool-call message and its results. */
const atMostOneUnit = (messages: readonly Message[], strict: boolean): boolean => {
  if (messages.length <= 1) return true;
  const [head, ...rest] = messages as [Message, ...Message[]];
  return strict && requestsTools(head) && rest.every((m) => m.role === 'tool');
};

const breakdownOf = (rules: readonly TrimRule[]) => {
  const breakdown = { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 };
  // 'redundant' never happens here (prune: 'oldest').
  for (const rule of rules) breakdown[rule as keyof typeof breakdown]++;
  return breakdown;
};

const expectedTrim = (trim: ModelTrim | undefined): MemoryEffect[] =>
  trim === undefined
    ? []
    : [
        {
          type: 'memory/trimmed',
          reason: 'enforce_limits',
          removed: trim.removed,
          positions: trim.positions,
          rules: trim.rules,
          remaining: trim.remaining,
          removedTokens: trim.removedTokens,
          remainingTokens: trim.remainingTokens,
          breakdown: breakdownOf(trim.rules),
        },
      ];

const sumTokens = (messages: readonly Message[]): number =>
  messages.reduce((total, m) => total + countHeuristicTokens(m), 0);

/** Every message ever added, by position, and how each one that left was removed. */
class Ledger {
  readonly added: Message[] = [];
  readonly removedBy = new Map<number, TrimRule | 'clear'>();

  /** Records the effects of one call: each removed message at most once, matching its position. */
  record(effects: readonly MemoryEffect[]): void {
    for (const effect of effects) {
      if (effect.type !== 'memory/trimmed') continue;
      expect(effect.positions).toHaveLength(effect.removed.length);
      effect.positions.forEach((position, i) => {
        if (i > 0) expect(position).toBeGreaterThan(effect.positions[i - 1] as number);
        expect(this.removedBy.has(position), `position ${position} removed twice`).toBe(false);
        expect(effect.removed[i]).toEqual(this.added[position]);
        this.removedBy.set(
          position,
          effect.reason === 'clear' ? 'clear' : (effect.rules[i] as TrimRule),
        );
      });
    }
  }
}

/** The laws of a state after any call, whatever the policy. */
const expectSettled = (state: MemoryState, ledger: Ledger, model: PolicyModel): void => {
  const { config } = state;
  const strict = config.toolPairs === 'strict';
  // The plain model agrees on the window and the positions.
  expect(state.messages).toEqual(model.entries.map((e) => e.message));
  const positions = getPositions(state);
  expect(positions).toEqual(model.entries.map((e) => e.position));

  // Positions: the order of entry, rising strictly, never reused; every message ever added is in
  // the window or in exactly one trimmed effect.
  expect(state.nextPosition).toBe(ledger.added.length);
  positions.forEach((position, i) => {
    if (i > 0) expect(position).toBeGreaterThan(positions[i - 1] as number);
    expect(ledger.removedBy.has(position)).toBe(false);
    expect(state.messages[i]).toEqual(ledger.added[position]);
  });
  expect(state.messages.length + ledger.removedBy.size).toBe(ledger.added.length);

  // Tokens: the stored total is the sum of the stored counts, each a fresh count.
  expect(state.tokenCounts).toEqual(state.messages.map(countHeuristicTokens));
  expect(state.totalTokens).toBe(sumTokens(state.messages));

  if (strict) expectProviderSafe(state.messages);

  // Pinned system messages leave only by a clear.
  if (config.pinSystem) {
    ledger.added.forEach((message, position) => {
      if (message.role !== 'system') return;
      const how = ledger.removedBy.get(position);
      expect(how === undefined || how === 'clear', `system at ${position} removed by ${how}`).toBe(
        true,
      );
    });
  }

  // Limits hold unless what remains is pinned messages and at most one unit.
  const rest = unpinned(state);
  const over =
    state.messages.length > config.maxMessages ||
    (config.maxTokens !== null && state.totalTokens > config.maxTokens);
  if (over) expect(atMostOneUnit(rest, strict), 'over a limit with more than one unit').toBe(true);
  if (config.startOn === 'user' && !atMostOneUnit(rest, strict)) {
    expect(rest[0]?.role).toBe('user');
  }
  if (!strict && rest.length > 1) {
    expect(rest[0]?.role).not.toBe('tool');
    expect(requestsTools(rest[0] as Message)).toBe(false);
  }

  // Settled: the explicit reducers and the plan have nothing to do.
  expect(planTrim(state)).toEqual({ removed: [], rules: [], remainingTokens: state.totalTokens });
  expect(enforceLimits(state).state).toBe(state);
  expect(fixToolPairBoundary(state).state).toBe(state);
  expect(addMessages(state, []).state).toBe(state);

  // Persistence: a JSON round trip gives back an equal state.
  const decoded = fromDict(JSON.parse(JSON.stringify(toDict(state))));
  if (decoded._tag === 'Left') throw decoded.left;
  expect(decoded.right).toStrictEqual(state);
};

/** Runs one driver step call by call, checking every transition against the model. */
const run = (
  state: MemoryState,
  step: DriverStep,
  ledger: Ledger,
  model: PolicyModel,
): MemoryState => {
  const check = (transition: Transition, expected: MemoryEffect[]): MemoryState => {
    expect(transition.effects).toEqual(expected);
    for (const effect of transition.effects) {
      if (effect.type !== 'memory/trimmed') continue;
      expect(effect.remaining).toBe(transition.state.messages.length);
      expect(effect.remainingTokens).toBe(transition.state.totalTokens);
      expect(effect.removedTokens).toBe(sumTokens(effect.removed));
    }
    ledger.record(transition.effects);
    expectSettled(transition.state, ledger, model);
    return transition.state;
  };
  switch (step.kind) {
    case 'addMessage':
      for (const message of step.messages) {
        ledger.added.push(message);
        state = check(addMessage(state, message), expectedTrim(model.add([message])));
      }
      return state;
    case 'addMessages':
      ledger.added.push(...step.messages);
      return check(addMessages(state, step.messages), expectedTrim(model.add(step.messages)));
    case 'clearMemory': {
      const gone = model.clear();
      const transition = clearMemory(state);
      if (gone.length === 0) {
        expect(transition.state).toBe(state);
        return check(transition, []);
      }
      return check(transition, [
        {
          type: 'memory/trimmed',
          reason: 'clear',
          removed: gone.map((e) => e.message),
          positions: gone.map((e) => e.position),
          remaining: 0,
          removedTokens: sumTokens(gone.map((e) => e.message)),
          remainingTokens: 0,
        },
      ]);
    }
  }
};

const drive = (config: MemoryConfig, steps: readonly DriverStep[]): void => {
  let state = createMemory(config);
  const ledger = new Ledger();
  const model = new PolicyModel(config, countHeuristicTokens);
  for (const step of steps) state = run(state, step, ledger, model);
};

describe("toolPairs: 'strict' under random conversations", () => {
  it('keeps every law after every call, and agrees with the plain model', () => {
    fc.assert(fc.property(policyConfigArb('strict'), driverStepsArb(), drive));
  });

  it('keeps every law with tight limits (one or two messages, a few tokens)', () => {
    const tight = policyConfigArb('strict').map((config) => ({
      ...config,
      maxMessages: Math.min(config.maxMessages, 2),
      maxTokens: config.maxTokens === null ? null : Math.min(config.maxTokens, 6),
    }));
    fc.assert(fc.property(tight, driverStepsArb(), drive));
  });
});

describe('windows larger than the small-window copy (over 48 messages)', () => {
  // Past 48 elements the window is copied by concat and an in-place cut of its start, and a block
  // removed behind pinned messages moves the pinned prefix up first: the same laws and model.
  it('keeps every law and agrees with the plain model, both policies, pinned or not', () => {
    const large = fc
      .tuple(policyConfigArb('strict'), fc.constantFrom('strict' as const, 'reference' as const))
      .chain(([config, toolPairs]) =>
        fc.integer({ min: 49, max: 64 }).map((maxMessages) => ({
          ...config,
          toolPairs,
          maxMessages,
          maxTokens: null,
        })),
      );
    // A system prompt first, so that pinSystem has something to pin, then enough messages to
    // fill the window, so that every later step trims a large window.
    const withPrompt = driverStepsArb().map((steps): DriverStep[] => [
      { kind: 'addMessage', messages: [{ role: 'system', content: 'You are terse.' }] },
      {
        kind: 'addMessages',
        messages: Array.from({ length: 64 }, (_, i) => ({
          role: 'user' as const,
          content: `m${i}`,
        })),
      },
      ...steps,
    ]);
    fc.assert(fc.property(large, withPrompt, drive), { numRuns: 60 });
  });
});

describe("toolPairs: 'reference' with pinSystem / startOn", () => {
  // The plain reference (pinSystem false, startOn null) is proved against the reference memory in
  // test/core/reducers.prop.test.ts; here the two new options are on, at random, on the same policy.
  it('agrees with the plain model and keeps the reference laws', () => {
    const config = policyConfigArb('reference').filter((c) => c.pinSystem || c.startOn !== null);
    fc.assert(fc.property(config, driverStepsArb(), drive));
  });
});
