import { ProviderResponseError } from '../../errors/errorClasses';
import { errorText } from '../../internal/errorText';
import { normalizeMessage } from '../../internal/normalizeMessage';
import { assistantMessage, toolMessage } from '../../model/constructors';
import type { Message, ToolCall } from '../../model/message';
import type { AgentRunResult } from '../types';
import type { RunContext } from './context';
import { executeTool } from './executeTool';
import { addToMemory } from './memoryStep';
import { RunView } from './runView';
import { summarizePending } from './summarizePending';

/** The provider's reply as a canonical assistant message, every tool call with an id. */
const readReply = (context: RunContext, result: unknown, iteration: number): Message => {
  const api = `${context.provider.name}.complete`;
  let message: Message;
  try {
    message = normalizeMessage((result as { message?: unknown } | null)?.message, api);
  } catch (error) {
    throw new ProviderResponseError(api, `the reply is not a valid message: ${errorText(error)}`, {
      cause: error,
    });
  }
  if (message.role !== 'assistant') {
    throw new ProviderResponseError(
      api,
      `the reply must be an assistant message, received role "${message.role}"`,
    );
  }
  const calls = message.toolCalls;
  if (calls === undefined) return message;
  // A call without an id (or with an empty or repeated one) could never be answered by id:
  // give it one of its own.
  const seen = new Set<string>();
  const unanswerable = (id: string | undefined): boolean => {
    if (id === undefined || id === '' || seen.has(id)) return true;
    seen.add(id);
    return false;
  };
  const fixed = calls.map((call, i) =>
    unanswerable(call.id) ? { ...call, id: `${context.runId}-${iteration}-${i}` } : call,
  );
  if (fixed.every((call, i) => call === calls[i])) return message;
  return assistantMessage(message.content, fixed);
};

/** A reply with nothing in it: no text, no parts, no image, no tool call. */
const isEmptyReply = (message: Message): boolean =>
  (message.content ?? '').trim() === '' &&
  message.contentParts === undefined &&
  message.imageBase64 === undefined &&
  message.toolCalls === undefined;

/** Answers calls that will not run, so memory never ends with an unanswered call. */
const notRun = (calls: readonly ToolCall[], why: string): Message[] =>
  calls.map((call) => toolMessage(`Not run: ${why}`, { toolCallId: call.id, toolName: call.name }));

/** The text of the message a run ends with when `maxIterations` runs out. */
export const stoppedText = (maxIterations: number): string =>
  `Stopped: the agent reached maxIterations (${maxIterations}) before the model gave a final answer.`;

/**
 * One run: the seed's flow. The input is added to memory (`addMany`), then the loop: a main model
 * call (the summary injected first when memory holds one); a reply with tool calls is added to
 * memory, each call runs and its result is added, and the loop goes on; a reply without tool
 * calls is the final answer, added to memory and returned. Trimmed messages are summarized before
 * each later model call and at the end (never more summary calls than main calls). When
 * `maxIterations` runs out on a reply with tool calls, each call is answered with a "not run"
 * result and a final notice is added, so memory never ends with an unanswered call.
 *
 * @internal
 */
export const runAgent = async (
  context: RunContext,
  input: readonly Message[],
): Promise<AgentRunResult> => {
  const { memory, runId, maxIterations } = context;
  const view = new RunView(memory);
  view.push(...input);
  await addToMemory(context, input);

  for (let iteration = 1; ; iteration++) {
    if (iteration > 1) await summarizePending(context);
    const result = await context.provider.complete({
      model: context.model,
      systemPrompt: context.systemPrompt,
      messages: view.messages(memory),
      ...(context.toolSpecs.length > 0 ? { tools: context.toolSpecs } : {}),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    const reply = readReply(context, result, iteration);
    view.push(reply);
    const calls = reply.toolCalls ?? [];
    if (calls.length === 0) {
      // An empty answer is returned but not kept: providers refuse an empty assistant turn in
      // the middle of a history (Anthropic: "all messages must have non-empty content …").
      if (!isEmptyReply(reply)) await addToMemory(context, [reply]);
      await summarizePending(context);
      return { runId, message: reply, iterations: iteration, stopReason: 'final' };
    }
    await addToMemory(context, [reply]);
    if (iteration >= maxIterations) {
      const stop = assistantMessage(stoppedText(maxIterations));
      const answers = notRun(calls, stoppedText(maxIterations));
      view.push(...answers, stop);
      for (const message of [...answers, stop]) await addToMemory(context, [message]);
      await summarizePending(context);
      return { runId, message: stop, iterations: iteration, stopReason: 'maxIterations' };
    }
    for (const [i, call] of calls.entries()) {
      if (context.signal?.aborted === true) {
        // Aborted: the remaining tools do not run; their calls are answered, then the run rejects.
        for (const answer of notRun(calls.slice(i), 'the run was aborted.')) {
          await addToMemory(context, [answer]);
        }
        throw context.signal.reason;
      }
      const answer = await executeTool(context.tools, call, context.signal);
      view.push(answer);
      await addToMemory(context, [answer]);
    }
  }
};
