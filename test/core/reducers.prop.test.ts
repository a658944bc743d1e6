import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  applySummary,
  createMemory,
  enforceLimits,
  fixToolPairBoundary,
  fromDict,
  messageToDict,
  setSummary,
  type MemoryConfig,
  type MemoryState,
  type Message,
  type Transition,
  getPositions,
} from 'conversation-memory';
import { countHeuristicTokens } from '../../src/tokens/heuristic';
import { MAX_SUMMARY_CHARS } from 'conversation-memory/constants';
import { configArb, heuristicConfigArb } from '../arbitraries/config';
import { conversationArb } from '../arbitraries/conversation';
import { expectMessageRoundTrip, messageArb } from '../arbitraries/message';
import {
  addedBy,
  addOperationsArb,
  operationsArb,
  runOperation,
  type Operation,
} from '../arbitraries/operations';
import { summaryTextArb, textArb } from '../arbitraries/text';
import {
  checkPurity,
  checkSettledState,
  checkStateSerializable,
  checkTransitionLaws,
  removedBy,
} from '../laws';
import { ReferenceMemory, referenceAppendSummary } from '../laws/reference';

/** Loads messages the way a file would bring them: through the reference JSON, limits not applied. */
const load = (config: MemoryConfig, messages: readonly Message[]): MemoryState => {
  const decoded = fromDict(
    {
      max_messages: config.maxMessages,
      max_tokens: config.maxTokens,
      message_count: messages.length,
      messages: messages.map(messageToDict),
      summary: null,
    },
    { tokenizer: config.tokenizer },
  );
  if (decoded._tag === 'Left') throw decoded.left;
  return decoded.right;
};

/** Runs one operation through `checkPurity` and checks every transition law on the result. */
const step = (state: MemoryState, operation: Operation): Transition => {
  const transition = checkPurity(runOperation, state, operation);
  checkTransitionLaws(state, addedBy(operation), transition);
  return transition;
};

/** Operations after which the limits hold again, whatever state they started from. */
const settles = (operation: Operation): boolean =>
  operation.kind === 'addMessage' ||
  operation.kind === 'addMessages' ||
  operation.kind === 'enforceLimits' ||
  operation.kind === 'clearMemory';

describe('arbitraries', () => {
  it('every generated message round-trips through messageToDict and fromDict', () => {
    fc.assert(fc.property(messageArb, expectMessageRoundTrip));
  });

  it('every message of a generated conversation round-trips, and is admitted unchanged', () => {
    fc.assert(
      fc.property(conversationArb(), (messages) => {
        const empty = createMemory({ tokenizer: 'heuristic' });
        for (const message of messages) {
          expectMessageRoundTrip(message);
          expect(addMessage(empty, message).state.messages).toEqual([message]);
        }
      }),
    );
  });

  it('generated conversations contain complete multi-call tool turns', () => {
    // Guards the generator itself: a regression to "no tool turns" would make the boundary laws vacuous.
    const samples = fc.sample(conversationArb(), 200);
    const complete = samples.filter((messages) =>
      messages.some((m, i) => {
        const calls = m.role === 'assistant' ? (m.toolCalls ?? []) : [];
        return (
          calls.length > 1 &&
          calls.every((call, k) => messages[i + 1 + k]?.toolCallId === call.id) &&
          messages[i + 1 + calls.length]?.role === 'assistant'
        );
      }),
    );
    expect(complete.length).toBeGreaterThan(20);
  });

  it("countHeuristicTokens is the reference's floor(code points of content / 4)", () => {
    fc.assert(
      fc.property(messageArb, (message) => {
        const codePoints = [...(message.content ?? '')].length;
        expect(countHeuristicTokens(message)).toBe(Math.floor(codePoints / 4));
      }),
    );
  });
});

describe('reducer laws over random operation sequences', () => {
  it('every law holds after every step, from an empty memory', () => {
    fc.assert(
      fc.property(configArb, operationsArb(), (config, operations) => {
        let state = createMemory(config);
        checkStateSerializable(state);
        checkSettledState(state);
        for (const operation of operations) {
          state = step(state, operation).state;
          checkSettledState(state);
        }
      }),
    );
  });

  it('every law holds after every step, from a loaded memory over its limits', () => {
    fc.assert(
      fc.property(
        configArb,
        conversationArb(8),
        operationsArb(6),
        (config, initial, operations) => {
          let state = load(config, initial);
          checkStateSerializable(state);
          let settled = false;
          for (const operation of operations) {
            state = step(state, operation).state;
            settled ||= settles(operation);
            if (settled) checkSettledState(state);
          }
        },
      ),
    );
  });

  it('enforceLimits settles a loaded memory, purely, and is idempotent', () => {
    fc.assert(
      fc.property(configArb, conversationArb(8), (config, initial) => {
        const loaded = load(config, initial);
        const transition = checkPurity(enforceLimits, loaded);
        checkTransitionLaws(loaded, [], transition);
        checkSettledState(transition.state);
        // fixToolPairBoundary of a loaded state is a no-op: fromDict already fixed the boundary.
        expect(fixToolPairBoundary(loaded).state).toBe(loaded);
      }),
    );
  });
});

describe('differential: the reducers agree with the reference algorithm (heuristic tokens)', () => {
  it('same window and same removed messages, in order, after every add', () => {
    fc.assert(
      fc.property(
        heuristicConfigArb,
        fc.option(conversationArb(8), { freq: 2 }),
        addOperationsArb(),
        (config, initial, operations) => {
          const reference = new ReferenceMemory(
            config.maxMessages,
            config.maxTokens,
            countHeuristicTokens,
          ).load(initial ?? []);
          let state = initial === null ? createMemory(config) : load(config, initial);
          expect(state.messages).toEqual(reference.messages);
          expect(getPositions(state)).toEqual(reference.positions);
          for (const operation of operations) {
            const transition =
              operation.kind === 'addMessage'
                ? addMessage(state, operation.message)
                : addMessages(state, addedBy(operation));
            if (operation.kind === 'addMessage') reference.add(operation.message);
            else reference.addMany(addedBy(operation));
            state = transition.state;
            expect(state.messages).toEqual(reference.messages);
            expect(getPositions(state)).toEqual(reference.positions);
            expect(state.nextPosition).toBe(reference.nextPosition);
            expect(removedBy(transition)).toEqual(reference.lastTrimmed);
            const trim = transition.effects.find((e) => e.type === 'memory/trimmed');
            if (reference.lastTrimmed.length > 0) {
              expect(trim).toMatchObject({
                reason: 'enforce_limits',
                breakdown: reference.breakdown,
                positions: reference.lastTrimmedPositions,
                rules: reference.lastRules,
              });
            } else {
              expect(trim).toBeUndefined();
            }
          }
        },
      ),
    );
  });

  it('a tool turn that does not fit leaves the window as the reference leaves it', () => {
    // The reference's own example (§1.5): user, assistant(tc), tool, assistant → ['Found cats'].
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), (maxMessages) => {
        const turn: Message[] = [
          { role: 'user', content: 'Find cats' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', name: 'search', parameters: {} }],
          },
          { role: 'tool', content: 'cats.png', toolCallId: 'c1', toolName: 'search' },
          { role: 'assistant', content: 'Found cats' },
        ];
        const reference = new ReferenceMemory(maxMessages, null, countHeuristicTokens);
        let state = createMemory({ maxMessages, tokenizer: 'heuristic' });
        for (const message of turn) {
          state = addMessage(state, message).state;
          reference.add(message);
          expect(state.messages).toEqual(reference.messages);
        }
        expect(state.messages.at(-1)).toEqual({ role: 'assistant', content: 'Found cats' });
        if (maxMessages === 3) expect(state.messages).toEqual([turn[3]]);
      }),
    );
  });
});

describe('applySummary agrees with the reference _append_summary', () => {
  it('joins with one space, keeps the newest 4000 code points, and ignores empty text', () => {
    expect(MAX_SUMMARY_CHARS).toBe(4000);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            { arbitrary: summaryTextArb.map((text) => ({ apply: text })), weight: 4 },
            {
              arbitrary: fc
                .option(fc.oneof(fc.constant(''), textArb), { nil: null })
                .map((text) => ({ set: text })),
              weight: 1,
            },
          ),
          { maxLength: 8 },
        ),
        (steps) => {
          let state = addMessage(createMemory({ tokenizer: 'heuristic' }), {
            role: 'user',
            content: 'hi',
          }).state;
          let model: string | null = null;
          for (const item of steps) {
            const before = state;
            let transition: Transition;
            if ('apply' in item) {
              transition = checkPurity(applySummary, state, item.apply);
              model = referenceAppendSummary(model, item.apply);
            } else {
              transition = checkPurity(setSummary, state, item.set);
              model = item.set;
            }
            checkTransitionLaws(before, [], transition);
            state = transition.state;
            expect(state.summary).toBe(model);
            expect(state.messages).toBe(before.messages);
            expect(state.tokenCounts).toBe(before.tokenCounts);
            if (model === before.summary) {
              expect(state).toBe(before);
              expect(transition.effects).toEqual([]);
            } else {
              expect(transition.effects).toEqual([
                { type: 'memory/summaryChanged', summary: model, previous: before.summary },
              ]);
            }
            if (state.summary !== null) {
              expect([...state.summary].length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
            }
          }
        },
      ),
    );
  });
});
