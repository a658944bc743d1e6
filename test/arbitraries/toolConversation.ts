import fc from 'fast-check';
import type { Message, ToolCall } from 'conversation-memory';

/**
 * Conversations with multi-call tool turns, for the strict trimming policy (issue #6 §5).
 *
 * Every message gets a unique tag at the start of its content (`u3`, `a4`, `t5`, …) so that a
 * message can be told from every other; a filler of random length after the tag gives it a random
 * `'heuristic'` weight (floor(length / 4)). Call ids are unique per turn (`c<turn>_<i>`), so a
 * result answers exactly the call it names.
 */

/** The shape of one turn, before tags and ids are given out. */
type TurnShape =
  | { readonly kind: 'user' | 'assistant' | 'system'; readonly filler: number }
  | {
      readonly kind: 'tools';
      readonly filler: number;
      /** The filler of each call's result. */
      readonly results: readonly number[];
      /** The order in which the results arrive (a permutation of the calls). */
      readonly order: readonly number[];
      /** How many of the results (in `order`) arrive; fewer than all leaves the group unanswered. */
      readonly answered: number;
      /** Whether one more call, without an id, is requested (it can never be answered). */
      readonly anonymous: boolean;
      /** The filler of the assistant's answer after the results, if it answers. */
      readonly answer: number | null;
    }
  | {
      readonly kind: 'stray';
      readonly filler: number;
      /** `'reuse'`: the id of an earlier call; `'none'`: no `toolCallId` at all. */
      readonly id: 'fresh' | 'reuse' | 'none';
    };

const fillerArb = fc.integer({ min: 0, max: 24 });

const toolTurnShapeArb: fc.Arbitrary<TurnShape> = fc.integer({ min: 1, max: 3 }).chain((calls) => {
  const indices = Array.from({ length: calls }, (_, i) => i);
  return fc.record({
    kind: fc.constant('tools' as const),
    filler: fillerArb,
    results: fc.array(fillerArb, { minLength: calls, maxLength: calls }),
    order: fc.shuffledSubarray(indices, { minLength: calls, maxLength: calls }),
    // Mostly every result arrives; now and then the turn is cut short.
    answered: fc.oneof(
      { arbitrary: fc.constant(calls), weight: 5 },
      { arbitrary: fc.integer({ min: 0, max: calls }), weight: 1 },
    ),
    // A call without an id: rare (one turn in eight).
    anonymous: fc.integer({ min: 0, max: 7 }).map((roll) => roll === 0),
    answer: fc.option(fillerArb, { nil: null }),
  });
});

/** One turn's shape: plain messages, a tool turn, or a stray tool result. */
const turnShapeArb: fc.Arbitrary<TurnShape> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('user' as const), filler: fillerArb }), weight: 4 },
  {
    arbitrary: fc.record({ kind: fc.constant('assistant' as const), filler: fillerArb }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('system' as const), filler: fillerArb }), weight: 1 },
  { arbitrary: toolTurnShapeArb, weight: 5 },
  {
    arbitrary: fc.record({
      kind: fc.constant('stray' as const),
      filler: fillerArb,
      id: fc.constantFrom('fresh' as const, 'reuse' as const, 'none' as const),
    }),
    weight: 1,
  },
);

/** Turns the shapes into messages, giving out tags and ids in order. */
const realize = (shapes: readonly TurnShape[]): Message[] => {
  const messages: Message[] = [];
  let tag = 0;
  const text = (prefix: string, filler: number): string => `${prefix}${tag++}${'.'.repeat(filler)}`;
  let lastIds: string[] = [];
  shapes.forEach((shape, turn) => {
    switch (shape.kind) {
      case 'user':
      case 'assistant':
      case 'system':
        messages.push({ role: shape.kind, content: text(shape.kind[0] as string, shape.filler) });
        return;
      case 'stray': {
        const content = text('x', shape.filler);
        if (shape.id === 'none') {
          messages.push({ role: 'tool', content, toolName: 'calc' });
        } else {
          const id = shape.id === 'reuse' && lastIds[0] !== undefined ? lastIds[0] : `s${turn}`;
          messages.push({ role: 'tool', content, toolCallId: id, toolName: 'calc' });
        }
        return;
      }
      case 'tools': {
        const ids = shape.results.map((_, i) => `c${turn}_${i}`);
        const calls: ToolCall[] = ids.map((id) => ({ id, name: 'calc', parameters: { turn } }));
        if (shape.anonymous) calls.push({ name: 'calc', parameters: { anonymous: true } });
        messages.push({ role: 'assistant', content: text('a', shape.filler), toolCalls: calls });
        for (const i of shape.order.slice(0, shape.answered)) {
          messages.push({
            role: 'tool',
            content: text('t', shape.results[i] as number),
            toolCallId: ids[i] as string,
            toolName: 'calc',
          });
        }
        if (shape.answer !== null) {
          messages.push({ role: 'assistant', content: text('a', shape.answer) });
        }
        lastIds = ids;
        return;
      }
    }
  });
  return messages;
};

/** A conversation with multi-call tool turns, system messages, strays and cut-short turns. */
export const toolConversationArb = (maxTurns = 10): fc.Arbitrary<Message[]> =>
  fc.array(turnShapeArb, { maxLength: maxTurns }).map(realize);

/** One call of the driver: messages added one by one, or as one batch, or a clear. */
export type DriverStep =
  | { readonly kind: 'addMessage' | 'addMessages'; readonly messages: readonly Message[] }
  | { readonly kind: 'clearMemory' };

/**
 * A conversation cut into driver steps: runs of 1–4 messages, each added with `addMessage` one at
 * a time or with one `addMessages` call (so a group's results may arrive in a later batch than
 * its call), and now and then a `clearMemory`.
 */
export const driverStepsArb = (maxTurns = 10): fc.Arbitrary<DriverStep[]> =>
  fc
    .tuple(
      toolConversationArb(maxTurns),
      fc.array(
        fc.record({
          size: fc.integer({ min: 1, max: 4 }),
          kind: fc.oneof(
            { arbitrary: fc.constant('addMessage' as const), weight: 5 },
            { arbitrary: fc.constant('addMessages' as const), weight: 5 },
            { arbitrary: fc.constant('clearMemory' as const), weight: 1 },
          ),
        }),
        { maxLength: 40 },
      ),
    )
    .map(([messages, cuts]) => {
      const steps: DriverStep[] = [];
      let next = 0;
      for (const cut of cuts) {
        if (next >= messages.length) break;
        if (cut.kind === 'clearMemory') {
          steps.push({ kind: 'clearMemory' });
          continue;
        }
        steps.push({ kind: cut.kind, messages: messages.slice(next, next + cut.size) });
        next += cut.size;
      }
      if (next < messages.length)
        steps.push({ kind: 'addMessages', messages: messages.slice(next) });
      return steps;
    });
