import fc from 'fast-check';
import type { Message } from 'conversation-memory';
import {
  assistantTextArb,
  assistantToolCallMessage,
  messageArb,
  systemMessageArb,
  toolCallArb,
  toolResultFor,
  userMessageArb,
} from './message';
import { identifierArb } from './text';

/**
 * A realistic multi-call tool turn: the user asks, the assistant requests 1–3 tool calls (each
 * with a distinct id), every call gets its matching tool result in order, and the assistant
 * answers.
 */
export const toolTurnArb: fc.Arbitrary<Message[]> = fc
  .uniqueArray(toolCallArb('required'), {
    minLength: 1,
    maxLength: 3,
    selector: (call) => call.id,
  })
  .chain((calls) =>
    fc.tuple(
      userMessageArb,
      assistantToolCallMessage(calls),
      fc.tuple(...calls.map(toolResultFor)),
      assistantTextArb,
    ),
  )
  .map(([question, request, results, answer]) => [question, request, ...results, answer]);

/** A tool result that answers no call in the conversation. */
export const orphanToolResultArb: fc.Arbitrary<Message> = fc
  .tuple(toolCallArb('required'), identifierArb)
  .chain(([call, id]) => toolResultFor({ ...call, id: `orphan_${id}` }));

/** An assistant tool-call message whose results never arrive. */
export const orphanToolCallArb: fc.Arbitrary<Message> = fc
  .array(toolCallArb(), { minLength: 1, maxLength: 3 })
  .chain(assistantToolCallMessage);

/**
 * One turn of a conversation, as the messages it adds: a user message, a question and answer, a
 * full tool turn, a system notice, an orphan tool result, an orphan tool-call request, a tool turn
 * cut short (results missing), or any odd message.
 */
export const turnArb: fc.Arbitrary<Message[]> = fc.oneof(
  { arbitrary: userMessageArb.map((m) => [m]), weight: 2 },
  { arbitrary: fc.tuple(userMessageArb, assistantTextArb), weight: 3 },
  { arbitrary: toolTurnArb, weight: 4 },
  { arbitrary: systemMessageArb.map((m) => [m]), weight: 1 },
  { arbitrary: orphanToolResultArb.map((m) => [m]), weight: 1 },
  { arbitrary: orphanToolCallArb.map((m) => [m]), weight: 1 },
  { arbitrary: toolTurnArb.map((turn) => turn.slice(0, -2)), weight: 1 },
  { arbitrary: messageArb.map((m) => [m]), weight: 2 },
);

/** A conversation: a few turns, flattened into messages oldest first. */
export const conversationArb = (maxTurns = 6): fc.Arbitrary<Message[]> =>
  fc.array(turnArb, { maxLength: maxTurns, size: 'max' }).map((turns) => turns.flat());
