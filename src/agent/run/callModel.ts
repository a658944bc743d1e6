import { ProviderResponseError } from '../../errors/agentErrors';
import { errorText } from '../../util/errorText';
import { normalizeMessage } from '../../internal/normalizeMessage';
import type { Message } from '../../model/message';
import type { ModelCallInfo } from '../hooks';
import type {
  CompletionRequest,
  CompletionResult,
  CompletionStreamPart,
  Provider,
} from '../provider';
import type { RunContext } from './context';
import { notify } from './notify';
import { readUsage } from '../../tokens/readUsage';

let callCount = 0;

/** A process-wide unique id for one model call. */
const newCallId = (runId: string): string => {
  callCount += 1;
  return `${runId}:model-${callCount}`;
};

/**
 * Milliseconds, from the platform's monotonic clock where there is one.
 *
 * @internal
 */
export const now = (): number =>
  typeof globalThis.performance?.now === 'function' ? globalThis.performance.now() : Date.now();

/**
 * What a streamed call yields, assembled: text deltas are emitted as they come, each once the
 * reader has taken the one before (the provider is read no faster than the reader reads), so
 * `seen.text` is what the reader was given. Once the run's signal has fired, nothing more is
 * read or emitted: the call ends with the signal's reason (and the provider's stream is closed).
 */
const consumeStream = async (
  context: RunContext,
  parts: AsyncIterable<CompletionStreamPart>,
  seen: { text: string },
): Promise<CompletionResult> => {
  let result: CompletionResult | undefined;
  const stopWhenAborted = (): void => {
    if (context.signal?.aborted === true) throw context.signal.reason;
  };
  for await (const part of parts) {
    // A provider may still yield what it had read before the abort: none of it goes out.
    stopWhenAborted();
    if (part.type === 'text-delta') {
      if (typeof part.text !== 'string' || part.text === '') continue;
      seen.text += part.text;
      context.emit?.({ type: 'text-delta', text: part.text });
      await context.whenRead?.();
      stopWhenAborted();
    } else if (part.type === 'finish') {
      result = part.result;
    }
    // Tool calls are emitted once the reply is read (with the ids the agent gives missing ones).
  }
  if (result === undefined) {
    throw new ProviderResponseError(
      `${context.provider.name}.stream`,
      'the stream ended without a finish part',
    );
  }
  return result;
};

/**
 * One model call with its hooks: `onModelCall` with the request as sent, then the provider's
 * `complete` (or, when the run streams and the provider can, `stream`, whose text deltas are
 * emitted as they arrive), then `onModelResult` with the reply, usage and latency, or
 * `onModelError` when the call rejected. The usage is checked (`readUsage`: counts from 0 to
 * 2^53 − 1, cache reads and writes within `inputTokens`); a bad one rejects the call with a
 * `ProviderResponseError` naming the field and the value. The result holds the checked message
 * and usage. Observers never change what is sent. `seen.text` holds
 * the text streamed so far (what a user has seen when the call is aborted).
 *
 * @internal
 */
export const callModel = async (
  context: RunContext,
  provider: Provider,
  request: CompletionRequest,
  kind: 'main' | 'summary' | 'extraction',
  iteration: number,
  seen: { text: string } = { text: '' },
): Promise<CompletionResult> => {
  // Observers see exactly what is sent, and cannot change it: the lists are frozen copies.
  request = {
    ...request,
    messages: Object.freeze(request.messages.slice()),
    ...(request.tools === undefined ? {} : { tools: Object.freeze(request.tools.slice()) }),
    ...(request.cache === undefined
      ? {}
      : {
          cache: Object.freeze({
            ...request.cache,
            breakpoints: Object.freeze(request.cache.breakpoints.slice()),
          }),
        }),
  };
  const streaming = kind === 'main' && context.emit !== undefined && provider.stream !== undefined;
  const call: ModelCallInfo = {
    callId: newCallId(context.runId),
    kind,
    provider: provider.name,
    model: request.model,
    systemPrompt: request.systemPrompt,
    messages: request.messages,
    tools: request.tools ?? [],
    ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
    iteration,
    streaming,
    ...(request.cache === undefined ? {} : { cache: request.cache }),
  };
  const { runId, observers, report } = context;
  await notify(observers, 'onModelCall', [runId, call], runId, report);
  const started = now();
  const base = {
    callId: call.callId,
    kind,
    provider: provider.name,
    model: request.model,
    iteration,
  };
  let result: CompletionResult;
  try {
    result = streaming
      ? await consumeStream(
          context,
          (provider.stream as NonNullable<Provider['stream']>)(request),
          seen,
        )
      : await provider.complete(request);
  } catch (error) {
    const failure = { ...base, error, latencyMs: now() - started };
    await notify(observers, 'onModelError', [runId, failure], runId, report);
    throw error;
  }
  const latencyMs = now() - started;
  let message: Message;
  try {
    message = normalizeMessage(
      (result as { message?: unknown } | null)?.message,
      `${provider.name}.complete`,
    );
  } catch (invalid) {
    // The caller rejects the run with a ProviderResponseError; the hook reports the same reason.
    const error = new ProviderResponseError(
      `${provider.name}.complete`,
      `the reply is not a valid message: ${errorText(invalid)}`,
      { cause: invalid },
    );
    await notify(observers, 'onModelError', [runId, { ...base, error, latencyMs }], runId, report);
    return result;
  }
  // A custom provider's usage is checked as the adapters check theirs; a bad one fails the call.
  const given = (result as { usage?: unknown }).usage;
  const usage = given === undefined ? undefined : readUsage(given);
  if (typeof usage === 'string') {
    const error = new ProviderResponseError(`${provider.name}.complete`, usage);
    await notify(observers, 'onModelError', [runId, { ...base, error, latencyMs }], runId, report);
    throw error;
  }
  const info = { ...base, message, latencyMs, ...(usage === undefined ? {} : { usage }) };
  await notify(observers, 'onModelResult', [runId, info], runId, report);
  return usage === undefined ? { message } : { message, usage };
};
