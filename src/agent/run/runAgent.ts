import { ProviderResponseError } from '../../errors/errorClasses';
import { errorText } from '../../internal/errorText';
import { normalizeMessage } from '../../internal/normalizeMessage';
import { assistantMessage, toolMessage } from '../../model/constructors';
import type { Message } from '../../model/message';
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
  if (calls === undefined || calls.every((call) => call.id !== undefined)) return message;
  // A call without an id could never be answered by id: give it one.
  return assistantMessage(
    message.content,
    calls.map((call, i) =>
      call.id === undefined ? { ...call, id: `${context.runId}-${iteration}-${i}` } : call,
    ),
  );
};

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
      await addToMemory(context, [reply]);
      await summarizePending(context);
      return { runId, message: reply, iterations: iteration, stopReason: 'final' };
    }
    await addToMemory(context, [reply]);
    if (iteration >= maxIterations) {
      const notRun = calls.map((call) =>
        toolMessage(`Not run: ${stoppedText(maxIterations)}`, {
          toolCallId: call.id,
          toolName: call.name,
        }),
      );
      const stop = assistantMessage(stoppedText(maxIterations));
      view.push(...notRun, stop);
      for (const message of [...notRun, stop]) await addToMemory(context, [message]);
      await summarizePending(context);
      return { runId, message: stop, iterations: iteration, stopReason: 'maxIterations' };
    }
    for (const call of calls) {
      const answer = await executeTool(context.tools, call);
      view.push(answer);
      await addToMemory(context, [answer]);
    }
  }
};
