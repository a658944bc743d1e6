/**
 * `modelView`'s cache breakpoints as properties (issue #29 §2): for any state (tool turns cut
 * short, stray results, system messages anywhere, a summary, knowledge, a budget, masking) and
 * each target, the view marks at most four messages, ascending; each ends the lead (the system
 * messages the view begins with), the stable part before the newest turn, or the newest turn;
 * the newest turn's last message (that the target keeps in place) is always marked; nothing else
 * of the view changes. And each marked prefix is a prefix of the next call's view once the
 * conversation grows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  assistantMessage,
  createMemory,
  modelView,
  setSummary,
  systemMessage,
  toolMessage,
  userMessage,
  type Message,
  type ModelViewOptions,
  type ViewTarget,
} from 'conversation-memory';
import { toolConversationArb } from '../arbitraries/toolConversation';

const targetArb = fc.constantFrom<ViewTarget>('anthropic', 'openai', 'none');
const cacheArb = fc.constantFrom<ModelViewOptions['cache']>(true, { ttl: '1h' }, {});

const optionsArb = fc.record({
  target: targetArb,
  knowledge: fc.option(fc.constantFrom('[Known Entities]\n- Ann', '[Important Knowledge]\n- x')),
  budget: fc.option(fc.integer({ min: 10, max: 400 })),
  mask: fc.option(fc.record({ keepLast: fc.integer({ min: 0, max: 3 }) })),
});

/** A value of `optionsArb`. */
type OptionsValue = typeof optionsArb extends fc.Arbitrary<infer T> ? T : never;

const viewOptions = (o: OptionsValue): ModelViewOptions => ({
  target: o.target,
  ...(o.knowledge === null ? {} : { knowledge: o.knowledge }),
  ...(o.budget === null ? {} : { budget: o.budget }),
  ...(o.mask === null ? {} : { maskToolResults: o.mask }),
});

/** The marks the rule allows, computed from the messages alone (the rule's statement). */
const expectRule = (messages: readonly Message[], marks: readonly number[], target: ViewTarget) => {
  expect(marks.length).toBeLessThanOrEqual(4);
  marks.forEach((mark, i) => {
    expect(Number.isInteger(mark) && mark >= 0 && mark < messages.length).toBe(true);
    if (i > 0) expect(mark).toBeGreaterThan(marks[i - 1] as number);
  });
  let lead = 0;
  while (messages[lead]?.role === 'system') lead++;
  // Anthropic lifts every system message into `system`: after the lead, none is in its place.
  const inPlace = (k: number) =>
    k < lead || target !== 'anthropic' || messages[k]?.role !== 'system';
  let turn = -1;
  for (let k = messages.length - 1; k >= lead; k--) {
    if (messages[k]?.role === 'user') {
      turn = k;
      break;
    }
  }
  const lastInPlace = (end: number) => {
    for (let k = end - 1; k >= lead; k--) if (inPlace(k)) return k;
    return -1;
  };
  const newest = lastInPlace(messages.length);
  const stable = turn === -1 ? -1 : lastInPlace(turn);
  // The lead's end, the newest turn's last message: always marked when they exist.
  if (lead > 0) expect(marks).toContain(lead - 1);
  if (newest >= 0) expect(marks).toContain(newest);
  for (const mark of marks) {
    expect(inPlace(mark)).toBe(true);
    // Each mark ends one of the three prefixes, and nothing else is marked.
    expect([lead - 1, stable, newest]).toContain(mark);
  }
};

describe('modelView cache breakpoints (properties)', () => {
  it('marks at most four, each at the end of the lead, the stable part or the newest turn; the rest of the view is unchanged', () => {
    fc.assert(
      fc.property(
        toolConversationArb(8),
        fc.option(fc.constantFrom('Ann is 30.', 'The user likes tea.')),
        fc.boolean(),
        optionsArb,
        cacheArb,
        (messages, summary, pinSystem, o, cache) => {
          let state = addMessages(
            createMemory({ tokenizer: 'heuristic', maxMessages: 1000, pinSystem }),
            messages,
          ).state;
          if (summary !== null) state = setSummary(state, summary).state;
          const options = viewOptions(o);
          const plain = modelView(state, options);
          const cached = modelView(state, { ...options, cache });
          const { cache: marks, ...rest } = cached;
          expect(rest).toEqual(plain);
          const ttl = typeof cache === 'object' && cache !== null ? cache.ttl : undefined;
          expect(marks?.ttl).toBe(ttl ?? '5m');
          expectRule(cached.messages, marks?.breakpoints ?? [], o.target);
        },
      ),
    );
  });

  /** A well-formed conversation: user turns answered in text or by a finished tool group. */
  const turnArb = fc.record({
    system: fc.boolean(),
    calls: fc.integer({ min: 0, max: 2 }),
  });
  const conversation = (turns: readonly { system: boolean; calls: number }[]): Message[] => {
    const out: Message[] = [];
    turns.forEach((turn, t) => {
      if (turn.system) out.push(systemMessage(`note ${t}`));
      out.push(userMessage(`question ${t}`));
      if (turn.calls > 0) {
        const calls = Array.from({ length: turn.calls }, (_, i) => ({
          id: `c${t}_${i}`,
          name: 'lookup',
          parameters: { i },
        }));
        out.push(assistantMessage(null, calls));
        for (const c of calls) {
          out.push(toolMessage(`found ${c.id}`, { toolCallId: c.id, toolName: 'lookup' }));
        }
      }
      out.push(assistantMessage(`answer ${t}`));
    });
    return out;
  };

  it('each marked prefix is a prefix of the next call once the conversation grows', () => {
    fc.assert(
      fc.property(
        fc.array(turnArb, { maxLength: 6 }),
        fc.option(fc.constant('Ann is 30.')),
        targetArb,
        fc.constantFrom<readonly Message[]>(
          [userMessage('next')],
          [userMessage('next'), assistantMessage('reply')],
          [
            userMessage('next'),
            assistantMessage(null, [{ id: 'n1', name: 'lookup', parameters: {} }]),
            toolMessage('found', { toolCallId: 'n1', toolName: 'lookup' }),
          ],
        ),
        (turns, summary, target, more) => {
          let state = addMessages(createMemory({ tokenizer: 'heuristic', maxMessages: 1000 }), [
            ...conversation(turns),
            userMessage('now'),
          ]).state;
          if (summary !== null) state = setSummary(state, summary).state;
          const view = modelView(state, { target, cache: true });
          const next = modelView(addMessages(state, more).state, { target, cache: true });
          for (const mark of view.cache?.breakpoints ?? []) {
            expect(next.messages.slice(0, mark + 1)).toEqual(view.messages.slice(0, mark + 1));
          }
          // The newest turn of this call is marked, and the next call marks past it.
          expect(view.cache?.breakpoints.at(-1)).toBe(view.messages.length - 1);
          expect(next.cache?.breakpoints.at(-1)).toBe(next.messages.length - 1);
        },
      ),
    );
  });
});
