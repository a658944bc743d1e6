/**
 * The shape checks the Chat Completions API makes on a request body, with OpenAI's own error
 * texts. Each check returns the error body of the first problem, or `undefined`.
 *
 * Texts come from real API replies quoted in public bug reports: `you must provide a model
 * parameter`; `Missing required parameter: 'messages[0].role'.` (missing_required_parameter);
 * `Invalid value: 'x'. Supported values are: …` (invalid_value); `Invalid value for 'content':
 * expected a string, got null.` (param `messages.[0].content`); `Missing parameter 'tool_call_id':
 * messages with role 'tool' must have a 'tool_call_id'.`; `Unknown parameter: '…'.`
 * (unknown_parameter); `Invalid 'x': empty array. …` (empty_array).
 */
import { invalidRequest, isObject, jsonTypeName, type OpenAIErrorBody } from './openaiWire';

type Problem = OpenAIErrorBody | undefined;

/** `'a', 'b', and 'c'`, as OpenAI lists supported values. */
const listValues = (values: readonly string[]): string => {
  const quoted = values.map((value) => `'${value}'`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1) ?? ''}`;
};

export const missing = (param: string): OpenAIErrorBody =>
  invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');

export const invalidType = (param: string, expected: string, value: unknown): OpenAIErrorBody =>
  invalidRequest(
    `Invalid type for '${param}': expected ${expected}, but got ${jsonTypeName(value)} instead.`,
    param,
    'invalid_type',
  );

export const invalidValue = (
  param: string,
  value: unknown,
  supported: readonly string[],
): OpenAIErrorBody =>
  invalidRequest(
    `Invalid value: '${String(value)}'. Supported values are: ${listValues(supported)}.`,
    param,
    'invalid_value',
  );

export const emptyArray = (param: string): OpenAIErrorBody =>
  invalidRequest(
    `Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
    param,
    'empty_array',
  );

const unknownParameter = (param: string): OpenAIErrorBody =>
  invalidRequest(`Unknown parameter: '${param}'.`, param, 'unknown_parameter');

const nullContent = (index: number): OpenAIErrorBody =>
  invalidRequest(
    "Invalid value for 'content': expected a string, got null.",
    `messages.[${index}].content`,
  );

export const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'] as const;

/** The keys each role's message may have. */
const MESSAGE_KEYS: Readonly<Record<(typeof ROLES)[number], readonly string[]>> = {
  system: ['role', 'content', 'name'],
  developer: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'refusal', 'audio', 'function_call'],
  tool: ['role', 'content', 'tool_call_id'],
  function: ['role', 'content', 'name'],
};

/** The content part types each role accepts. */
const PART_TYPES: Readonly<Record<(typeof ROLES)[number], readonly string[]>> = {
  system: ['text'],
  developer: ['text'],
  user: ['text', 'image_url', 'input_audio', 'file'],
  assistant: ['text', 'refusal'],
  tool: ['text'],
  function: ['text'],
};

const IMAGE_URL = /^(https?:\/\/.+|data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]*)$/is;

const checkPart = (part: unknown, param: string, allowed: readonly string[]): Problem => {
  if (!isObject(part)) return invalidType(param, 'an object', part);
  if (part['type'] === undefined) return missing(`${param}.type`);
  if (!allowed.includes(String(part['type']))) {
    return invalidValue(`${param}.type`, part['type'], allowed);
  }
  if (part['type'] === 'text' || part['type'] === 'refusal') {
    const key = part['type'];
    if (part[key] === undefined) return missing(`${param}.${key}`);
    if (typeof part[key] !== 'string') return invalidType(`${param}.${key}`, 'a string', part[key]);
  }
  if (part['type'] === 'image_url') {
    const image = part['image_url'];
    if (image === undefined) return missing(`${param}.image_url`);
    if (!isObject(image)) return invalidType(`${param}.image_url`, 'an object', image);
    if (image['url'] === undefined) return missing(`${param}.image_url.url`);
    if (typeof image['url'] !== 'string' || !IMAGE_URL.test(image['url'])) {
      return invalidRequest(
        `Invalid '${param}.image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value with an invalid format.`,
        `${param}.image_url.url`,
        'invalid_value',
      );
    }
  }
  return undefined;
};

const checkContent = (message: Record<string, unknown>, index: number, role: string): Problem => {
  const content = message['content'];
  const param = `messages[${index}].content`;
  const hasCalls = Array.isArray(message['tool_calls']) && message['tool_calls'].length > 0;
  if (content === undefined) return role === 'assistant' && hasCalls ? undefined : missing(param);
  if (content === null) return role === 'assistant' && hasCalls ? undefined : nullContent(index);
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) {
    return invalidType(param, 'one of a string or array of objects', content);
  }
  if (content.length === 0) return emptyArray(param);
  const allowed = PART_TYPES[role as (typeof ROLES)[number]];
  for (const [j, part] of content.entries()) {
    const problem = checkPart(part, `${param}[${j}]`, allowed);
    if (problem !== undefined) return problem;
  }
  return undefined;
};

const checkToolCall = (call: unknown, param: string): Problem => {
  if (!isObject(call)) return invalidType(param, 'an object', call);
  for (const key of ['id', 'type', 'function'] as const) {
    if (call[key] === undefined) return missing(`${param}.${key}`);
  }
  if (typeof call['id'] !== 'string') return invalidType(`${param}.id`, 'a string', call['id']);
  if (call['type'] !== 'function') return invalidValue(`${param}.type`, call['type'], ['function']);
  const fn = call['function'];
  if (!isObject(fn)) return invalidType(`${param}.function`, 'an object', fn);
  for (const key of ['name', 'arguments'] as const) {
    if (fn[key] === undefined) return missing(`${param}.function.${key}`);
    if (typeof fn[key] !== 'string') {
      return invalidType(`${param}.function.${key}`, 'a string', fn[key]);
    }
  }
  return undefined;
};

/** Checks one message's shape (not its place in the conversation). */
export const checkMessage = (message: unknown, index: number): Problem => {
  const param = `messages[${index}]`;
  if (!isObject(message)) return invalidType(param, 'an object', message);
  const role = message['role'];
  if (role === undefined) return missing(`${param}.role`);
  if (!(ROLES as readonly unknown[]).includes(role))
    return invalidValue(`${param}.role`, role, ROLES);
  const keys = MESSAGE_KEYS[role as (typeof ROLES)[number]];
  const unknown = Object.keys(message).find((key) => !keys.includes(key));
  if (unknown !== undefined) return unknownParameter(`${param}.${unknown}`);
  const calls = message['tool_calls'];
  if (calls !== undefined && calls !== null) {
    if (!Array.isArray(calls)) return invalidType(`${param}.tool_calls`, 'an array', calls);
    if (calls.length === 0) return emptyArray(`${param}.tool_calls`);
    for (const [j, call] of calls.entries()) {
      const problem = checkToolCall(call, `${param}.tool_calls[${j}]`);
      if (problem !== undefined) return problem;
    }
  }
  if (role === 'tool') {
    const id = message['tool_call_id'];
    if (id === undefined || id === null) {
      return invalidRequest(
        "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
        `messages.[${index}].tool_call_id`,
      );
    }
    if (typeof id !== 'string') return invalidType(`${param}.tool_call_id`, 'a string', id);
  }
  return checkContent(message, index, role as string);
};
