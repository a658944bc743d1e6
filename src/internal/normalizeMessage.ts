import { InvalidMessageError } from '../errors/errorClasses';
import type { ContentPart, Message, ToolCall } from '../model/message';
import { isRole } from '../model/role';
import { cloneJsonObject, NotJsonError } from './cloneJson';
import { describeValue } from './describeValue';
import { deepFreezeMessage } from './freeze';

/** Messages this module produced: already valid, canonical and frozen, so they are reused as is. */
const canonical = new WeakSet<object>();

const MESSAGE_KEYS = new Set([
  'role',
  'content',
  'toolCalls',
  'toolCallId',
  'toolName',
  'toolResult',
  'imageBase64',
  'contentParts',
]);
const TOOL_CALL_KEYS = new Set(['id', 'name', 'parameters', 'thoughtSignature']);
const PART_KEYS = new Set(['type', 'text', 'imageUrl', 'imageBase64', 'mediaType']);

/** The reference's snake_case names, so a pasted JSON message gets a useful hint. */
const CAMEL_OF: Readonly<Record<string, string>> = {
  tool_calls: 'toolCalls',
  tool_call_id: 'toolCallId',
  tool_name: 'toolName',
  tool_result: 'toolResult',
  image_base64: 'imageBase64',
  content_parts: 'contentParts',
  thought_signature: 'thoughtSignature',
  image_url: 'imageUrl',
  media_type: 'mediaType',
};

type Fail = (what: string) => never;

const checkKeys = (value: object, allowed: Set<string>, path: string, fail: Fail): void => {
  for (const key of Object.keys(value)) {
    if (allowed.has(key)) continue;
    if ((value as Record<string, unknown>)[key] === undefined) continue;
    const hint = CAMEL_OF[key];
    fail(`${path}.${key} is not a field of this object${hint ? ` (did you mean ${hint}?)` : ''}`);
  }
};

/** Reads an optional string field: absent, `undefined` and `null` all mean "not set". */
const optionalString = (
  value: Record<string, unknown>,
  key: string,
  path: string,
  fail: Fail,
): string | undefined => {
  const item = value[key];
  if (item === undefined || item === null) return undefined;
  if (typeof item !== 'string')
    fail(`${path}.${key} must be a string, received ${describeValue(item)}`);
  return item as string;
};

const asRecord = (value: unknown, path: string, fail: Fail): Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`${path} must be an object, received ${describeValue(value)}`);
  }
  return value as Record<string, unknown>;
};

const normalizeToolCall = (value: unknown, path: string, fail: Fail): ToolCall => {
  const raw = asRecord(value, path, fail);
  checkKeys(raw, TOOL_CALL_KEYS, path, fail);
  if (typeof raw['name'] !== 'string') {
    fail(`${path}.name must be a string, received ${describeValue(raw['name'])}`);
  }
  let parameters;
  try {
    parameters = cloneJsonObject(raw['parameters'] ?? {}, `${path}.parameters`);
  } catch (error) {
    if (error instanceof NotJsonError) fail(error.message);
    throw error;
  }
  const id = optionalString(raw, 'id', path, fail);
  const thoughtSignature = optionalString(raw, 'thoughtSignature', path, fail);
  return {
    ...(id === undefined ? {} : { id }),
    name: raw['name'] as string,
    parameters,
    ...(thoughtSignature === undefined ? {} : { thoughtSignature }),
  };
};

const normalizePart = (value: unknown, path: string, fail: Fail): ContentPart => {
  const raw = asRecord(value, path, fail);
  checkKeys(raw, PART_KEYS, path, fail);
  if (typeof raw['type'] !== 'string') {
    fail(`${path}.type must be a string, received ${describeValue(raw['type'])}`);
  }
  const part: Record<string, string> = { type: raw['type'] as string };
  for (const key of ['text', 'imageUrl', 'imageBase64', 'mediaType'] as const) {
    const item = optionalString(raw, key, path, fail);
    if (item !== undefined) part[key] = item;
  }
  return part as unknown as ContentPart;
};

const normalizeList = <T>(
  raw: Record<string, unknown>,
  key: string,
  path: string,
  fail: Fail,
  each: (value: unknown, path: string, fail: Fail) => T,
): readonly T[] | undefined => {
  const list = raw[key];
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list))
    fail(`${path}.${key} must be an array, received ${describeValue(list)}`);
  const items = list as readonly unknown[];
  // An empty list means "none", as in the reference (it writes [] as null and reads it back as None).
  if (items.length === 0) return undefined;
  return items.map((item, i) => each(item, `${path}.${key}[${i}]`, fail));
};

/**
 * Validates a message given by a caller and returns its canonical form: a new, deeply frozen
 * object with only the `Message` fields, no `undefined` or `null` optional fields, empty lists
 * left out and tool-call parameters deep-copied. The caller's object is never changed. A message
 * already in canonical form (made here before) is returned as is, so moving messages between
 * states costs nothing.
 *
 * @param value - the message as given
 * @param api - the public function name, for the error
 * @param path - how the error names the message (`message`, `messages[2]`)
 * @throws InvalidMessageError naming the field and the value received
 * @internal
 */
export const normalizeMessage = (value: unknown, api: string, path: string): Message => {
  if (typeof value === 'object' && value !== null && canonical.has(value)) return value as Message;
  const fail: Fail = (what) => {
    throw new InvalidMessageError(api, what);
  };
  const raw = asRecord(value, path, fail);
  checkKeys(raw, MESSAGE_KEYS, path, fail);
  const role = raw['role'];
  if (!isRole(role)) {
    fail(
      `${path}.role must be one of "user", "assistant", "system", "tool", received ${describeValue(role)}`,
    );
  }
  const content = raw['content'];
  if (content !== null && typeof content !== 'string') {
    fail(`${path}.content must be a string or null, received ${describeValue(content)}`);
  }
  const toolCalls = normalizeList(raw, 'toolCalls', path, fail, normalizeToolCall);
  const contentParts = normalizeList(raw, 'contentParts', path, fail, normalizePart);
  const message: Record<string, unknown> = { role, content };
  if (toolCalls !== undefined) message['toolCalls'] = toolCalls;
  for (const key of ['toolCallId', 'toolName', 'toolResult', 'imageBase64'] as const) {
    const item = optionalString(raw, key, path, fail);
    if (item !== undefined) message[key] = item;
  }
  if (contentParts !== undefined) message['contentParts'] = contentParts;
  return registerCanonical(message as unknown as Message);
};

/**
 * Freezes a message built from trusted parts (a decoder's output) and records it as canonical.
 *
 * @internal
 */
export const registerCanonical = (message: Message): Message => {
  deepFreezeMessage(message);
  canonical.add(message);
  return message;
};
