import {
  assistantMessage,
  isConversationMemoryError,
  type Message,
  type ToolCallInput,
} from 'conversation-memory';
// Not yet exported from 'conversation-memory' (the lead will export them).
import type { CompletionResult, CompletionUsage } from 'conversation-memory';
import { ProviderResponseError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';

/** A received value for an error message: a string named as one, quoted and escaped. */
const received = (value: unknown): string =>
  typeof value === 'string' ? `string ${describeValue(value)}` : describeValue(value);

const API = 'aiSdkProvider';

const bad = (path: string, expected: string, value: unknown): ProviderResponseError =>
  new ProviderResponseError(API, `${path}: expected ${expected}, received ${received(value)}`);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The parts of a `generateText` result that we read; each is checked before use. */
export interface GenerateTextOutcome {
  readonly text: unknown;
  readonly toolCalls: unknown;
  readonly usage: unknown;
}

const readCall = (call: unknown, i: number): ToolCallInput => {
  const path = `toolCalls[${i}]`;
  if (!isObject(call)) throw bad(path, 'a tool call object', call);
  const { toolCallId, toolName, input } = call;
  if (typeof toolCallId !== 'string' || toolCallId === '') {
    throw bad(`${path}.toolCallId`, 'a non-empty string', toolCallId);
  }
  if (typeof toolName !== 'string') throw bad(`${path}.toolName`, 'a string', toolName);
  // An unparsable call (the SDK marks it `invalid`) keeps its raw text as input.
  if (!isObject(input)) throw bad(`${path}.input`, 'a JSON object', input);
  return { id: toolCallId, name: toolName, parameters: input };
};

const readCount = (
  usage: Record<string, unknown>,
  key: string,
  path = `usage.${key}`,
): number | undefined => {
  const value = usage[key];
  if (value === undefined) return undefined;
  // The reply decoders' rule (fromOpenAIChatCompletion, fromAnthropicReply): a safe integer ≥ 0.
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw bad(path, 'an integer from 0 to 2^53 − 1', value);
  }
  return value + 0; // -0 as 0
};

/** A cache count: `inputTokenDetails[key]`, else the deprecated top-level `fallback`. */
const readCacheCount = (
  usage: Record<string, unknown>,
  key: string,
  fallback: string | undefined,
): number | undefined => {
  const details = usage['inputTokenDetails'];
  if (details !== undefined && !isObject(details)) {
    throw bad('usage.inputTokenDetails', 'an object', details);
  }
  const read =
    details === undefined ? undefined : readCount(details, key, `usage.inputTokenDetails.${key}`);
  return read ?? (fallback === undefined ? undefined : readCount(usage, fallback));
};

/**
 * Usage when the provider reported both counts; a count that is present must be valid. The AI
 * SDK's `inputTokens` is every input token (cached ones included, for both OpenAI and Anthropic),
 * as `CompletionUsage` counts them; the cache counts are read from `inputTokenDetails`
 * (`cacheReadTokens`, else the deprecated `cachedInputTokens`; `cacheWriteTokens`).
 */
const readUsage = (usage: unknown): CompletionUsage | undefined => {
  if (usage === undefined) return undefined;
  if (!isObject(usage)) throw bad('usage', 'an object', usage);
  const inputTokens = readCount(usage, 'inputTokens');
  const outputTokens = readCount(usage, 'outputTokens');
  const cached = readCacheCount(usage, 'cacheReadTokens', 'cachedInputTokens');
  const written = readCacheCount(usage, 'cacheWriteTokens', undefined);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  if ((cached ?? 0) + (written ?? 0) > inputTokens) {
    throw bad(
      'usage.inputTokenDetails',
      `cache reads and writes of at most inputTokens (${inputTokens})`,
      { cacheReadTokens: cached, cacheWriteTokens: written },
    );
  }
  return {
    inputTokens,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(written === undefined ? {} : { cacheWriteTokens: written }),
    outputTokens,
  };
};

/**
 * Maps a `generateText` result to a {@link CompletionResult}: the assistant message holds the
 * text (`null` when the reply is only tool calls) and the tool calls with their ids, names and
 * inputs; `usage` is there when the provider reported both token counts. A result that is not
 * usable (a tool call whose input is not a JSON object, a negative count) throws a
 * `ProviderResponseError` naming the path and the value.
 *
 * @param result - what `generateText` resolved to
 * @returns the message and usage for the agent
 * @throws {ProviderResponseError} for an unusable result
 * @example
 * ```ts
 * toCompletionResult({ text: 'Hi', toolCalls: [], usage: { inputTokens: 3, outputTokens: 1 } });
 * // { message: { role: 'assistant', content: 'Hi' }, usage: { inputTokens: 3, outputTokens: 1 } }
 * ```
 */
export const toCompletionResult = (result: GenerateTextOutcome): CompletionResult => {
  const { text, toolCalls, usage } = result;
  if (typeof text !== 'string') throw bad('text', 'a string', text);
  if (!Array.isArray(toolCalls)) throw bad('toolCalls', 'an array', toolCalls);
  const calls = (toolCalls as readonly unknown[]).map(readCall);
  let message: Message;
  try {
    message =
      calls.length === 0
        ? assistantMessage(text)
        : assistantMessage(text === '' ? null : text, calls);
  } catch (error) {
    // Deep checks of the inputs (JSON values only) are the message constructor's.
    const detail = isConversationMemoryError(error) ? error.detail : String(error);
    throw new ProviderResponseError(API, `the reply is not a valid message: ${detail}`, {
      cause: error,
    });
  }
  const read = readUsage(usage);
  return read === undefined ? { message } : { message, usage: read };
};
