import { InvalidMessageError } from '../../errors/memoryErrors';
import { ProviderResponseError } from '../../errors/agentErrors';
import { errorText } from '../../util/errorText';
import { normalizeMessage } from '../../internal/normalizeMessage';
import { assistantMessage, toolMessage } from '../../messages/constructors';
import type { Message, ToolCall } from '../../model/message';
import type { CompletionResult } from '../provider';
import { interruptedToolResult } from '../../view/interruptedToolResult';
import { callModel } from './callModel';
import { interruptedCalls } from './interruptedCalls';
import { markInterrupted } from './markInterrupted';
import { notify } from './notify';
import { runTool } from './runTool';
import type { AgentRunResult } from '../types';
import type { RunContext } from './context';
import { addToMemory } from './memoryStep';
import { withRunMessageId } from './runMessageId';
import { RunView } from './runView';
import { summarizePending } from './summarizePending';
import { extractKnowledge, knowledgeText, startKnowledge } from './knowledgeStep';

/**
 * The reply with the call's usage recorded in its `metadata.usage` (the application's other
 * metadata kept), so that `usageOf` can sum it; metadata is never counted as tokens nor sent.
 */
const withUsage = (reply: Message, usage: CompletionResult['usage']): Message =>
  usage === undefined
    ? reply
    : normalizeMessage(
        { ...reply, metadata: { ...reply.metadata, usage: { ...usage } } },
        'agent.run',
      );

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

/** Emits the calls of a reply as `tool-call` events. */
const emitCalls = (context: RunContext, calls: readonly ToolCall[]): void => {
  for (const call of calls) {
    context.emit?.({
      type: 'tool-call',
      toolCallId: call.id ?? '',
      toolName: call.name,
      input: call.parameters,
    });
  }
};

/**
 * Answers the calls a stopped run left unanswered at the end of memory (a crash or a kill inside
 * a tool, a failed append), before anything else is added, except those the input's leading tool
 * results answer (an application that recovered the results itself): each with an interrupted-call tool
 * message (or, with `rerun` and a tool declared `idempotent`, by running it again), added to
 * memory as normal messages right after the call, and reported to `onToolInterrupted`.
 *
 * @internal
 */
export const answerInterrupted = async (
  context: RunContext,
  view: RunView,
  rerun: boolean,
  input: readonly Message[],
): Promise<number> => {
  const { memory } = context;
  if (memory === undefined) return 0;
  // Tool results at the head of the input answer calls themselves (the application had them).
  const supplied = new Set<string>();
  for (const message of input) {
    if (message.role !== 'tool') break;
    if (message.toolCallId !== undefined) supplied.add(message.toolCallId);
  }
  const calls = interruptedCalls(memory.state.messages).filter(
    (call) => !supplied.has(call.id as string),
  );
  for (const call of calls) {
    await notify(
      context.observers,
      'onToolInterrupted',
      [context.runId, call.id as string, call.name, call.parameters],
      context.runId,
      context.report,
    );
    const tool = context.tools.get(call.name);
    const answer =
      rerun && tool?.idempotent === true
        ? await runTool(context, call)
        : interruptedToolResult(call);
    view.push([answer], await addToMemory(context, [answer]));
  }
  return calls.length;
};

/**
 * One run: the seed's flow. Calls a stopped run left unanswered are answered first; the input is
 * added to memory (`addMany`), then the loop: a main model call with the model view of the run's
 * transcript (`modelView`: the summary injected first, covered messages left out, and whatever
 * the provider would refuse repaired); a reply with tool calls is added to memory, each call
 * runs and its result is added, and the loop goes on; a reply without tool calls is the final
 * answer, added to memory and returned. Trimmed messages are summarized before each later model
 * call and at the end (never more summary calls than main calls). When `maxIterations` runs out
 * on a reply with tool calls, each call is answered with a "not run" result and a final notice
 * is added, so memory never ends with an unanswered call.
 *
 * @internal
 */
export const runAgent = async (
  context: RunContext,
  input: readonly Message[],
  resume?: { readonly rerun: boolean },
): Promise<AgentRunResult> => {
  const { memory, runId, maxIterations } = context;
  const view = new RunView(memory);
  if (context.mask !== undefined) context.mask.view = view;
  await startKnowledge(context);
  const interrupted = await answerInterrupted(context, view, resume?.rerun === true, input);
  if (resume !== undefined && interrupted === 0) {
    const last = memory?.state.messages.at(-1);
    if (last === undefined) {
      throw new InvalidMessageError(
        'agent.resume',
        memory === undefined
          ? 'there is no conversation to resume: the agent has no memory, session or event store'
          : 'there is no conversation to resume: the memory is empty',
      );
    }
    // Nothing was interrupted: a conversation that ends with a final answer is already done.
    if (last.role === 'assistant' && (last.toolCalls?.length ?? 0) === 0) {
      return { runId, message: last, iterations: 0, stopReason: 'final' };
    }
  }
  if (input.length > 0) view.push(input, await addToMemory(context, input));

  for (let iteration = 1; ; iteration++) {
    if (iteration > 1) await summarizePending(context, iteration);
    const seen = { text: '' };
    const recall = context.recall;
    const { messages, cache } = view.view(
      memory,
      context.target,
      knowledgeText(context, view.messages()),
      context.mask?.keep,
      context.cache?.ttl,
      recall === undefined
        ? undefined
        : {
            source: await recall.feed.current(context.journal?.version),
            budget: recall.budget,
            k: recall.k,
          },
    );
    const key = context.cache?.key;
    const request = {
      model: context.model,
      systemPrompt: context.systemPrompt,
      messages: context.markInterrupted === true ? markInterrupted(messages) : messages,
      ...(context.toolSpecs.length > 0 ? { tools: context.toolSpecs } : {}),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(cache === undefined ? {} : { cache: key === undefined ? cache : { ...cache, key } }),
    };
    let result: CompletionResult;
    try {
      result = await callModel(context, context.provider, request, 'main', iteration, seen);
    } catch (error) {
      await keepWhatWasSeen(context, seen.text);
      throw error;
    }
    const reply = withRunMessageId(
      context,
      withUsage(readReply(context, result, iteration), result.usage),
    );
    const calls = reply.toolCalls ?? [];
    if (context.emit !== undefined && seen.text === '' && (reply.content ?? '') !== '') {
      // A provider that does not stream: its whole text is one delta.
      context.emit({ type: 'text-delta', text: reply.content as string });
    }
    emitCalls(context, calls);
    if (calls.length === 0) {
      // An empty answer is returned but not kept: providers refuse an empty assistant turn in
      // the middle of a history (Anthropic: "all messages must have non-empty content …").
      if (!isEmptyReply(reply)) view.push([reply], await addToMemory(context, [reply]));
      await summarizePending(context, iteration);
      await extractKnowledge(context, view.runMessages());
      return { runId, message: reply, iterations: iteration, stopReason: 'final' };
    }
    view.push([reply], await addToMemory(context, [reply]));
    if (iteration >= maxIterations) {
      const stop = withRunMessageId(context, assistantMessage(stoppedText(maxIterations)));
      const answers = notRun(calls, stoppedText(maxIterations)).map((answer) =>
        withRunMessageId(context, answer),
      );
      for (const message of [...answers, stop]) {
        view.push([message], await addToMemory(context, [message]));
      }
      await summarizePending(context, iteration);
      await extractKnowledge(context, view.runMessages());
      return { runId, message: stop, iterations: iteration, stopReason: 'maxIterations' };
    }
    for (const [i, call] of calls.entries()) {
      if (context.signal?.aborted === true) {
        // Aborted: the remaining tools do not run; their calls are answered, then the run rejects.
        for (const answer of notRun(calls.slice(i), 'the run was aborted.')) {
          await addToMemory(context, [withRunMessageId(context, answer)]);
        }
        throw context.signal.reason;
      }
      const answer = withRunMessageId(context, await runTool(context, call));
      view.push([answer], await addToMemory(context, [answer]));
    }
  }
};

/**
 * A streamed main call that failed (an abort, a provider error) after some text reached the user:
 * that text is kept in memory as an assistant message marked `metadata.interrupted: true`, so
 * memory holds what the user saw (a text without tool calls keeps memory valid). Nothing is kept
 * when no text was streamed.
 */
const keepWhatWasSeen = async (context: RunContext, text: string): Promise<void> => {
  if (text.trim() === '' || context.memory === undefined) return;
  const partial = withRunMessageId(
    context,
    normalizeMessage(
      { role: 'assistant', content: text, metadata: { interrupted: true } },
      'agent.stream',
    ),
  );
  await addToMemory(context, [partial]);
};
