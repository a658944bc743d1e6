/**
 * What the Chat Completions API checks before it runs a model: the body's shape (see
 * `openaiSchema.ts`), then the tool-call rules of the conversation, each answered with OpenAI's
 * own error text (quoted from real API replies, `preceeding` spelled as OpenAI spells it):
 *
 * - a `tool` message must answer the assistant `tool_calls` message just before it (other tool
 *   messages of the same turn may come between): `Invalid parameter: messages with role 'tool'
 *   must be a response to a preceeding message with 'tool_calls'.` (param `messages.[i].role`);
 * - its `tool_call_id` must be one of that message's calls: `Invalid parameter: 'tool_call_id' of
 *   'x' not found in 'tool_calls' of previous message.` (param `messages.[i].tool_call_id`);
 * - every call of an assistant `tool_calls` message must be answered by the tool messages right
 *   after it: `An assistant message with 'tool_calls' must be followed by tool messages responding
 *   to each 'tool_call_id'. The following tool_call_ids did not have response messages: a, b`
 *   (param `messages.[i].role`, `i` the assistant message). This server applies it to a trailing
 *   assistant message too: a conversation may not end on unanswered calls.
 */
import { checkMessage, emptyArray, invalidType, invalidValue, missing } from './openaiSchema';
import {
  type ChatRequestBody,
  type ChatRequestMessage,
  invalidRequest,
  isObject,
  type OpenAIErrorBody,
} from './openaiWire';

/** The outcome of checking a request body. */
export type CheckedRequest =
  | { readonly ok: true; readonly body: ChatRequestBody }
  | { readonly ok: false; readonly error: OpenAIErrorBody };

const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

const checkTokens = (body: Record<string, unknown>, key: string): OpenAIErrorBody | undefined => {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return invalidType(key, 'an integer', value);
  }
  if (value < 1) {
    return invalidRequest(
      `Invalid '${key}': integer below minimum value. Expected a value >= 1, but got ${value} instead.`,
      key,
      'integer_below_min_value',
    );
  }
  return undefined;
};

const checkTools = (tools: unknown): OpenAIErrorBody | undefined => {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) return invalidType('tools', 'an array', tools);
  if (tools.length === 0) return emptyArray('tools');
  for (const [i, tool] of tools.entries()) {
    const param = `tools[${i}]`;
    if (!isObject(tool)) return invalidType(param, 'an object', tool);
    if (tool['type'] !== 'function') {
      return invalidValue(`${param}.type`, tool['type'], ['function', 'custom']);
    }
    const fn = tool['function'];
    if (!isObject(fn))
      return fn === undefined
        ? missing(`${param}.function`)
        : invalidType(`${param}.function`, 'an object', fn);
    const name = fn['name'];
    if (name === undefined) return missing(`${param}.function.name`);
    if (typeof name !== 'string') return invalidType(`${param}.function.name`, 'a string', name);
    if (!TOOL_NAME.test(name)) {
      return invalidRequest(
        `Invalid '${param}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `${param}.function.name`,
        'invalid_value',
      );
    }
    if (name.length > 64) {
      return invalidRequest(
        `Invalid '${param}.function.name': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`,
        `${param}.function.name`,
        'string_above_max_length',
      );
    }
    const parameters = fn['parameters'];
    if (parameters !== undefined && !isObject(parameters)) {
      return invalidType(`${param}.function.parameters`, 'an object', parameters);
    }
  }
  return undefined;
};

/** The tool-call rules of the conversation, in order; the first broken one is reported. */
const checkToolTurns = (messages: readonly ChatRequestMessage[]): OpenAIErrorBody | undefined => {
  /** The open tool turn: the assistant message's index, its call ids, and those not answered yet. */
  let turn: { index: number; ids: ReadonlySet<string>; pending: string[] } | undefined;
  const unanswered = (): OpenAIErrorBody | undefined =>
    turn !== undefined && turn.pending.length > 0
      ? invalidRequest(
          `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${turn.pending.join(', ')}`,
          `messages.[${turn.index}].role`,
        )
      : undefined;
  for (const [i, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (turn === undefined) {
        return invalidRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        );
      }
      const id = message.tool_call_id ?? '';
      if (!turn.ids.has(id)) {
        return invalidRequest(
          `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`,
          `messages.[${i}].tool_call_id`,
        );
      }
      turn.pending = turn.pending.filter((pending) => pending !== id);
      continue;
    }
    const problem = unanswered();
    if (problem !== undefined) return problem;
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
    turn =
      calls.length > 0
        ? { index: i, ids: new Set(calls.map((c) => c.id)), pending: calls.map((c) => c.id) }
        : undefined;
  }
  return unanswered();
};

/** The longest `prompt_cache_key` the API takes. */
export const PROMPT_CACHE_KEY_MAX_LENGTH = 64;

/**
 * `prompt_cache_key` a string of at most 64 characters, or null (the API's texts, quoted in
 * public bug reports: `Invalid 'prompt_cache_key': string too long. …`, `string_above_max_length`).
 */
const checkPromptCacheKey = (value: unknown): OpenAIErrorBody | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return invalidType('prompt_cache_key', 'a string', value);
  if (value.length <= PROMPT_CACHE_KEY_MAX_LENGTH) return undefined;
  return invalidRequest(
    `Invalid 'prompt_cache_key': string too long. Expected a string with maximum length ${PROMPT_CACHE_KEY_MAX_LENGTH}, but got a string with length ${value.length} instead.`,
    'prompt_cache_key',
    'string_above_max_length',
  );
};

/** `stream` a boolean or null; `stream_options` an object, and only with `stream: true`. */
const checkStream = (body: Record<string, unknown>): OpenAIErrorBody | undefined => {
  const stream = body['stream'];
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
    return invalidType('stream', 'a boolean', stream);
  }
  const options = body['stream_options'];
  if (options === undefined || options === null) return undefined;
  if (stream !== true) {
    return invalidRequest(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      'stream_options',
      'invalid_value',
    );
  }
  if (!isObject(options)) return invalidType('stream_options', 'an object', options);
  const include = options['include_usage'];
  if (include !== undefined && typeof include !== 'boolean') {
    return invalidType('stream_options.include_usage', 'a boolean', include);
  }
  return undefined;
};

/**
 * Checks a parsed request body as the Chat Completions API does and returns it typed, or the
 * error body of the first problem. `stream` and `stream_options` are checked as the API checks
 * them (a `stream: true` request is then checked like any other).
 */
export const checkChatRequest = (body: unknown): CheckedRequest => {
  const fail = (error: OpenAIErrorBody): CheckedRequest => ({ ok: false, error });
  if (!isObject(body)) return fail(invalidType('body', 'an object', body));
  if (body['model'] === undefined || body['model'] === null || body['model'] === '') {
    return fail(invalidRequest('you must provide a model parameter'));
  }
  if (typeof body['model'] !== 'string')
    return fail(invalidType('model', 'a string', body['model']));
  const messages = body['messages'];
  if (messages === undefined) return fail(missing('messages'));
  if (!Array.isArray(messages)) return fail(invalidType('messages', 'an array', messages));
  if (messages.length === 0) return fail(emptyArray('messages'));
  const streamProblem = checkStream(body);
  if (streamProblem !== undefined) return fail(streamProblem);
  const problem =
    checkTokens(body, 'max_completion_tokens') ??
    checkTokens(body, 'max_tokens') ??
    checkTools(body['tools']) ??
    checkPromptCacheKey(body['prompt_cache_key']) ??
    messages.reduce<OpenAIErrorBody | undefined>(
      (found, message, i) => found ?? checkMessage(message, i),
      undefined,
    ) ??
    checkToolTurns(messages as ChatRequestMessage[]);
  return problem === undefined ? { ok: true, body: body as ChatRequestBody } : fail(problem);
};
