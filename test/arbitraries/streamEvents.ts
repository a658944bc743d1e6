/**
 * Random `AgentStreamEvent`s: text deltas of any text (line breaks, lone surrogates, U+2028),
 * tool calls and results, real memory effects (from random operations on a small memory), and
 * finish events.
 */
import fc from 'fast-check';
import { createMemory, type AgentStreamEvent, type MemoryEffect } from 'conversation-memory';
import { assistantTextArb, messageArb, parametersArb } from './message';
import { operationsArb, runOperation } from './operations';
import { identifierArb, textArb } from './text';

/** Effects that reducers really produce: trims, summaries, … of a memory of 3 messages at most. */
const effectArb: fc.Arbitrary<MemoryEffect> = operationsArb(8)
  .map((operations) => {
    let state = createMemory({ maxMessages: 3 });
    const effects: MemoryEffect[] = [];
    for (const operation of operations) {
      const step = runOperation(state, operation);
      state = step.state;
      effects.push(...step.effects);
    }
    return effects;
  })
  .filter((effects) => effects.length > 0)
  .chain((effects) => fc.constantFrom(...effects));

export const agentStreamEventArb: fc.Arbitrary<AgentStreamEvent> = fc.oneof(
  { arbitrary: textArb.map((text) => ({ type: 'text-delta' as const, text })), weight: 5 },
  {
    arbitrary: fc.record({
      type: fc.constant('tool-call' as const),
      toolCallId: identifierArb,
      toolName: identifierArb,
      input: parametersArb,
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('tool-result' as const),
      toolCallId: identifierArb,
      toolName: textArb,
      output: textArb,
      isError: fc.boolean(),
    }),
    weight: 1,
  },
  {
    arbitrary: effectArb.map((effect) => ({ type: 'memory-effect' as const, effect })),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('finish' as const),
      result: fc.record({
        runId: identifierArb,
        message: fc.oneof(assistantTextArb, messageArb),
        iterations: fc.nat({ max: 10 }),
        stopReason: fc.constantFrom('final' as const, 'maxIterations' as const),
      }),
    }),
    weight: 1,
  },
);
