import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  clearMemory,
  createMemory,
  fromDict,
  getPositions,
  memoryActions,
  memoryReducer,
  toDict,
  type MemoryConfig,
  type MemoryState,
  type Message,
  type TrimmedEffect,
  type Transition,
} from 'conversation-memory';
import { countHeuristicTokens } from '../../src/tokens/heuristic';
import { trimToArb } from '../arbitraries/config';
import { driverStepsArb, type DriverStep } from '../arbitraries/toolConversation';
import { checkEnforceIdempotent, checkIncremental, checkSerializable } from '../laws';

/**
 * `trimTo` (issue #29 §1): trimming in steps. Under every policy and any ratio, after every call
 * the window is within its limits (or holds only what a trim never removes), every message that
 * leaves is in exactly one `memory/trimmed` effect, and between two such effects the window only
 * grows at its end; a step that a limit starts ends within `trimTo` × each limit (or at what a
 * trim never removes); and replaying the same actions gives the same states. The plain policy
 * model (`test/laws/policyModel.ts`) checks the exact windows in test/core/strictPolicy.prop.test.ts,
 * test/core/reconfigure.prop.test.ts and test/prune/redundant.prop.test.ts, which draw `trimTo` too.
 */

/** Any policy, small limits (so that steps are frequent), any ratio. */
const stepConfigArb: fc.Arbitrary<MemoryConfig> = fc
  .record({
    maxMessages: fc.integer({ min: 1, max: 10 }),
    maxTokens: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 60 })),
    toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
    startOn: fc.constantFrom(null, 'user' as const),
    pinSystem: fc.boolean(),
    trimTo: trimToArb,
  })
  .map((fields) => createMemory({ ...fields, tokenizer: 'heuristic' }).config);

const requestsTools = (message: Message): boolean =>
  message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0;

/**
 * Whether the window holds only what no trim removes: pinned system messages and at most one
 * unit (one message, or under `'strict'` one tool-call message with its results).
 */
const atMinimum = (state: MemoryState): boolean => {
  const { pinSystem, toolPairs } = state.config;
  const rest = state.messages.filter((m) => !(pinSystem && m.role === 'system'));
  if (rest.length <= 1) return true;
  const [head, ...tail] = rest as [Message, ...Message[]];
  return toolPairs === 'strict' && requestsTools(head) && tail.every((m) => m.role === 'tool');
};

const within = (state: MemoryState, maxMessages: number, maxTokens: number | null): boolean =>
  state.messages.length <= maxMessages && (maxTokens === null || state.totalTokens <= maxTokens);

const trimsOf = (transition: Transition): TrimmedEffect[] =>
  transition.effects.filter((e): e is TrimmedEffect => e.type === 'memory/trimmed');

/** Checks one call: the laws, the limits, steps and the unchanged prefix. */
const checkCall = (
  before: MemoryState,
  added: readonly Message[],
  transition: Transition,
  gone: Set<number>,
): void => {
  checkSerializable(transition);
  checkIncremental(transition.state);
  checkEnforceIdempotent(transition.state);
  const after = transition.state;
  const trims = trimsOf(transition);
  // Conservation, by position: the window before and the added messages are the window after
  // and the removed ones, each once, the same messages.
  const byPosition = new Map<number, Message>();
  getPositions(before).forEach((p, i) => byPosition.set(p, before.messages[i] as Message));
  added.forEach((m, k) => byPosition.set(before.nextPosition + k, m));
  const out = new Map<number, Message>();
  getPositions(after).forEach((p, i) => out.set(p, after.messages[i] as Message));
  for (const trim of trims) {
    expect(trim.positions).toHaveLength(trim.removed.length);
    trim.positions.forEach((p, i) => {
      expect(out.has(p), `position ${p} both kept and removed`).toBe(false);
      out.set(p, trim.removed[i] as Message);
    });
  }
  expect(new Map([...out].sort((a, b) => a[0] - b[0]))).toEqual(
    new Map([...byPosition].sort((a, b) => a[0] - b[0])),
  );
  const { maxMessages, maxTokens, trimTo } = after.config;
  expect(within(after, maxMessages, maxTokens) || atMinimum(after), 'over a limit').toBe(true);

  // Each message that leaves is in exactly one effect, once in all of a conversation.
  for (const trim of trims) {
    for (const position of trim.positions) {
      expect(gone.has(position), `position ${position} left twice`).toBe(false);
      gone.add(position);
    }
  }
  if (trims.length === 0) {
    // No trim: the window only grew at its end, its prefix the very same messages.
    expect(after.messages.length).toBe(before.messages.length + added.length);
    before.messages.forEach((m, i) => expect(after.messages[i]).toBe(m));
    return;
  }
  const limitRules = trims.some(
    (trim) =>
      trim.reason === 'enforce_limits' &&
      (trim.breakdown.messageLimit > 0 || trim.breakdown.tokenLimit > 0),
  );
  if (!limitRules) return;
  // A limit rule removes only when the window passed a limit.
  const incomingTokens = added.reduce((total, m) => total + countHeuristicTokens(m), 0);
  expect(
    before.messages.length + added.length > maxMessages ||
      (maxTokens !== null && before.totalTokens + incomingTokens > maxTokens),
    'a limit rule removed below the limits',
  ).toBe(true);
  // A step ends within trimTo × each limit, or at what a trim never removes.
  const stepMessages = Math.max(1, Math.floor(trimTo * maxMessages));
  const stepTokens = maxTokens === null ? null : trimTo * maxTokens;
  expect(
    within(after, stepMessages, stepTokens) || atMinimum(after),
    `a step ended above ${stepMessages} messages / ${stepTokens} tokens`,
  ).toBe(true);
};

/** Runs the driver steps call by call, checking each; returns the states and actions. */
const drive = (config: MemoryConfig, steps: readonly DriverStep[]) => {
  let state = createMemory(config);
  const states: MemoryState[] = [];
  const actions: Parameters<typeof memoryReducer>[1][] = [];
  const gone = new Set<number>();
  const call = (added: readonly Message[], transition: Transition): void => {
    checkCall(state, added, transition, gone);
    state = transition.state;
    states.push(state);
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'addMessage':
        for (const message of step.messages) {
          actions.push(memoryActions.messageAdded(message));
          call([message], addMessage(state, message));
        }
        break;
      case 'addMessages':
        actions.push(memoryActions.messagesAdded(step.messages));
        call(step.messages, addMessages(state, step.messages));
        break;
      case 'clearMemory':
        actions.push(memoryActions.cleared());
        call([], clearMemory(state));
        break;
    }
  }
  return { states, actions };
};

describe('trimTo: trimming in steps (property)', () => {
  it('after every call: within the limits, every message that leaves in one effect, the prefix unchanged between trims, each step within trimTo × the limits', () => {
    fc.assert(
      fc.property(stepConfigArb, driverStepsArb(30), (config, steps) => {
        drive(config, steps);
      }),
    );
  });

  it('replays exactly: the same actions through memoryReducer give the same states, also from a state read back from its file', () => {
    fc.assert(
      fc.property(stepConfigArb, driverStepsArb(20), fc.nat(), (config, steps, cut) => {
        const { states, actions } = drive(config, steps);
        let replayed = createMemory(config);
        actions.forEach((action, k) => {
          replayed = memoryReducer(replayed, action);
          expect(replayed).toStrictEqual(states[k]);
        });
        // A state written to its file and read back continues the same.
        if (actions.length === 0) return;
        const at = cut % actions.length;
        const decoded = fromDict(JSON.parse(JSON.stringify(toDict(states[at] as MemoryState))));
        if (decoded._tag === 'Left') throw decoded.left;
        let resumed = decoded.right;
        for (const action of actions.slice(at + 1)) resumed = memoryReducer(resumed, action);
        expect(resumed).toStrictEqual(states[states.length - 1]);
      }),
    );
  });

  it('plain messages under a message limit: a step every maxMessages − target + 1 adds, down to floor(trimTo × maxMessages) (at least 1)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        trimToArb,
        fc.integer({ min: 0, max: 120 }),
        (maxMessages, trimTo, adds) => {
          const target = Math.max(1, Math.floor(trimTo * maxMessages));
          let state = createMemory({ maxMessages, trimTo, tokenizer: 'heuristic' });
          let expected = 0;
          for (let k = 0; k < adds; k++) {
            const { state: next, effects } = addMessage(state, { role: 'user', content: `m${k}` });
            const stepped = state.messages.length === maxMessages;
            expect(effects.length, `add ${k}`).toBe(stepped ? 1 : 0);
            if (stepped) {
              expect((effects[0] as TrimmedEffect).removed).toHaveLength(maxMessages + 1 - target);
              expect(next.messages).toHaveLength(target);
            } else {
              expect(next.messages).toHaveLength(state.messages.length + 1);
            }
            expected = stepped ? target : expected + 1;
            expect(next.messages.length).toBe(expected);
            state = next;
          }
        },
      ),
    );
  });

  it('under a token limit: a step ends at most trimTo × maxTokens, a message over the target stays alone', () => {
    // 40 characters = 10 heuristic tokens; maxTokens 100, trimTo 0.5: a step keeps 5 messages.
    let state = createMemory({
      maxMessages: 1_000,
      maxTokens: 100,
      trimTo: 0.5,
      tokenizer: 'heuristic',
    });
    const ten = (k: number): Message => ({ role: 'user', content: `${k}`.padEnd(40, '.') });
    const trims: number[] = [];
    for (let k = 0; k < 30; k++) {
      const t = addMessage(state, ten(k));
      if (t.effects.length > 0) trims.push(k);
      state = t.state;
    }
    // Steps at the 11th add, then every 6 adds (5 kept + 6 = 11 messages, 110 tokens).
    expect(trims).toEqual([10, 16, 22, 28]);
    expect(state.totalTokens).toBe(60);
    // A message of 80 tokens (over the target of 50, within the limit): the step keeps it alone,
    // within the limit; it leaves at the next step, which then keeps the newer messages.
    const big = addMessage(state, { role: 'user', content: 'x'.repeat(320) });
    expect((big.effects[0] as TrimmedEffect).removed).toHaveLength(6);
    expect(big.state.messages.map((m) => m.content?.length)).toEqual([320]);
    let next = addMessages(big.state, [ten(97), ten(98)]);
    expect(next.effects).toEqual([]);
    expect(next.state.totalTokens).toBe(100);
    next = addMessage(next.state, ten(99));
    expect((next.effects[0] as TrimmedEffect).removed.map((m) => m.content?.length)).toEqual([320]);
    expect(next.state.totalTokens).toBe(30);
    // A message over the limit itself stays alone, as with trimTo 1.
    const huge = addMessage(next.state, { role: 'user', content: 'y'.repeat(800) });
    expect(huge.state.messages).toHaveLength(1);
    expect(huge.state.totalTokens).toBe(200);
  });
});
