import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  createMemory,
  decodeAction,
  getPositions,
  memoryActions,
  reconfigure,
  memoryReducer,
  replay,
  type MemoryAction,
  type MemoryConfig,
  type MemoryOptions,
  type MemoryState,
  type Message,
  type TrimmedEffect,
} from 'conversation-memory';
import { countMessageTokens } from 'conversation-memory/tokens';
import { trimToArb, WORDS_TOKENIZER } from '../arbitraries/config';
import { driverStepsArb, type DriverStep } from '../arbitraries/toolConversation';
import { checkPurity } from '../laws';
import { PolicyModel } from '../laws/policyModel';
import { checkReconfigureLaws } from '../laws/reconfigure';

/**
 * `reconfigure` on random states under random policies, to random configs (whole ones, or a few
 * fields): every law of the call, exact agreement with the plain policy model of
 * `test/laws/policyModel.ts` (the window re-planned under the new config, with counts of the new
 * tokenizer), the provider rules under `'strict'`, the limits, a full recount; and an event log
 * of the same actions replays (also after a JSON round trip of every action) to the live state.
 */

const tokenizerArb = fc.constantFrom('heuristic', WORDS_TOKENIZER, 'heuristic', 'o200k_base');

const configArb: fc.Arbitrary<MemoryConfig> = fc.record({
  maxMessages: fc.integer({ min: 1, max: 8 }),
  maxTokens: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 40 })),
  tokenizer: tokenizerArb,
  toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
  startOn: fc.constantFrom(null, 'user' as const),
  pinSystem: fc.boolean(),
  prune: fc.constant('oldest' as const),
  pruneThreshold: fc.constant(0.9),
  embedder: fc.constant('lexical'),
  trimTo: trimToArb,
});

/** A whole config, or some of its fields (possibly none, possibly all equal to the state's). */
const optionsArb: fc.Arbitrary<MemoryOptions> = fc.oneof(
  configArb,
  configArb.chain((config) =>
    fc.subarray(Object.keys(config) as (keyof MemoryConfig)[]).map((keys) => {
      const fields: Record<string, unknown> = {};
      for (const key of keys) fields[key] = config[key];
      return fields as MemoryOptions;
    }),
  ),
);

type Step = DriverStep | { readonly kind: 'reconfigure'; readonly options: MemoryOptions };

/** Driver steps of a tool conversation with a reconfigure before, between and after them. */
const scenarioArb = fc
  .tuple(
    configArb,
    driverStepsArb(8),
    fc.array(fc.tuple(fc.nat(), optionsArb), { minLength: 1, maxLength: 4 }),
  )
  .map(([config, driven, changes]) => {
    const steps: Step[] = [...driven];
    for (const [at, options] of changes) {
      steps.splice(at % (steps.length + 1), 0, { kind: 'reconfigure', options });
    }
    return { config, steps };
  });

const requestsTools = (message: Message): boolean =>
  message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0;

/** The provider rules, independent of any trimming logic (as in strictPolicy.prop.test.ts). */
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

/** At most one unit: nothing, one message, or (strict) one tool-call message and its results. */
const atMostOneUnit = (messages: readonly Message[], strict: boolean): boolean => {
  if (messages.length <= 1) return true;
  const [head, ...rest] = messages as [Message, ...Message[]];
  return strict && requestsTools(head) && rest.every((m) => m.role === 'tool');
};

/** What the runs exercised, so the property is known not to hold vacuously. */
const seen = { trims: 0, strictTrims: 0, recounts: 0, unchanged: 0 };

/** One reconfigure, checked against the laws and the model. */
const checkedReconfigure = (state: MemoryState, options: MemoryOptions): MemoryState => {
  const transition = checkPurity(reconfigure, state, options);
  checkReconfigureLaws(state, transition);
  const after = transition.state;
  if (after === state) seen.unchanged++;
  if (after.config.tokenizer !== state.config.tokenizer && state.messages.length > 0)
    seen.recounts++;
  const { config } = after;
  const count = (message: Message) => countMessageTokens(config.tokenizer, message);

  // The plain model, given the window with the new tokenizer's counts, plans the same trim.
  const model = new PolicyModel(config, count);
  const positions = getPositions(state);
  model.entries = state.messages.map((message, i) => ({
    message,
    position: positions[i] as number,
    tokens: count(message),
  }));
  model.nextPosition = state.nextPosition;
  const expected = model.enforce(true);
  const trim = transition.effects.find((e): e is TrimmedEffect => e.type === 'memory/trimmed');
  if (expected === undefined) {
    expect(trim).toBeUndefined();
  } else {
    seen.trims++;
    if (config.toolPairs === 'strict' && expected.rules.includes('toolPairBoundary'))
      seen.strictTrims++;
    expect(trim).toMatchObject({
      removed: expected.removed,
      positions: expected.positions,
      rules: expected.rules,
      removedTokens: expected.removedTokens,
      remainingTokens: expected.remainingTokens,
    });
  }
  expect(after.messages).toEqual(model.entries.map((e) => e.message));
  expect(getPositions(after)).toEqual(model.entries.map((e) => e.position));

  // Token totals equal a full recount with the new tokenizer.
  expect([...after.tokenCounts]).toEqual(after.messages.map(count));
  expect(after.totalTokens).toBe(after.messages.map(count).reduce((a, b) => a + b, 0));

  // The new limits hold, unless what remains is pinned messages and at most one unit; strict
  // windows follow the provider rules.
  const strict = config.toolPairs === 'strict';
  if (strict) expectProviderSafe(after.messages);
  const rest = after.messages.filter((m) => !(config.pinSystem && m.role === 'system'));
  const over =
    after.messages.length > config.maxMessages ||
    (config.maxTokens !== null && after.totalTokens > config.maxTokens);
  if (over) expect(atMostOneUnit(rest, strict), 'over a limit with more than one unit').toBe(true);
  return after;
};

const actionOf = (step: Step): MemoryAction => {
  switch (step.kind) {
    case 'addMessage':
      return memoryActions.messagesAdded(step.messages);
    case 'addMessages':
      return memoryActions.messagesAdded(step.messages);
    case 'clearMemory':
      return memoryActions.cleared();
    case 'reconfigure':
      return memoryActions.reconfigured(step.options);
  }
};

describe('reconfigure under random states and configs', () => {
  it('keeps every invariant under the new config and agrees with the plain model', () => {
    fc.assert(
      fc.property(scenarioArb, ({ config, steps }) => {
        let state = createMemory(config);
        for (const step of steps) {
          state =
            step.kind === 'reconfigure'
              ? checkedReconfigure(state, step.options)
              : memoryReducer(state, actionOf(step));
        }
      }),
    );
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  });

  it('a log of the same actions replays to the live state, also read back from JSON', () => {
    fc.assert(
      fc.property(scenarioArb, ({ config, steps }) => {
        let live = createMemory(config);
        let log = createEventLog(config, { snapshotEvery: 3 });
        let fromJson = createMemory(config);
        for (const step of steps) {
          const action = actionOf(step);
          live = memoryReducer(live, action);
          log = appendAction(log, action);
          const decoded = decodeAction(JSON.parse(JSON.stringify(action)));
          if (decoded._tag === 'Left') throw decoded.left;
          fromJson = memoryReducer(fromJson, decoded.right);
        }
        expect(replay(log)).toEqual(live);
        expect(fromJson).toEqual(live);
        expect(log.head).toEqual(live);
      }),
    );
  });
});
