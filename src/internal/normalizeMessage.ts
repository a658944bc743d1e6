import { InvalidMessageError } from '../errors/errorClasses';
import type { ContentPart, Message, ToolCall } from '../model/message';
import { isRole, ROLES } from '../model/role';
import { cloneJsonObject, NotJsonError } from './cloneJson';
import { describeValue } from './describeValue';
import { deepFreezeMessage } from './freeze';

/**
 * Validation of messages given by callers. This runs on every add, so the happy path builds no
 * strings and creates no closures: error paths (`messages[2].toolCalls[0].name`) are assembled
 * only when something is wrong.
 */

/** Messages this module produced: already valid, canonical and frozen, so they are reused as is. */
const canonical = new WeakSet<object>();

/** Where the message sits in the call, for error messages: `message` or `messages[i]`. */
type Where = number | undefined;

/**
 * Where a value sits, as plain arguments (no closure, no string until an error needs it):
 * the message, and optionally the list inside it and the index in that list.
 */
interface At {
  readonly api: string;
  readonly where: Where;
  readonly list?: 'toolCalls' | 'contentParts';
  readonly index?: number;
}

const pathOf = (at: At): string => {
  const base = at.where === undefined ? 'message' : `messages[${at.where}]`;
  return at.list === undefined ? base : `${base}.${at.list}[${at.index ?? 0}]`;
};

/** `"user", "assistant", "system", "tool"`, from the one list of roles. */
const ROLE_LIST = ROLES.map((role) => JSON.stringify(role)).join(', ');

const fail = (at: At, what: string): never => {
  throw new InvalidMessageError(at.api, what);
};

const isMessageKey = (key: string): boolean => {
  switch (key) {
    case 'role':
    case 'content':
    case 'toolCalls':
    case 'toolCallId':
    case 'toolName':
    case 'toolResult':
    case 'imageBase64':
    case 'contentParts':
      return true;
    default:
      return false;
  }
};
const isToolCallKey = (key: string): boolean =>
  key === 'id' || key === 'name' || key === 'parameters' || key === 'thoughtSignature';
const isPartKey = (key: string): boolean =>
  key === 'type' ||
  key === 'text' ||
  key === 'imageUrl' ||
  key === 'imageBase64' ||
  key === 'mediaType';

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

const checkKeys = (
  value: Record<string, unknown>,
  allowed: (key: string) => boolean,
  at: At,
): void => {
  for (const key of Object.keys(value)) {
    if (allowed(key) || value[key] === undefined) continue;
    const hint = Object.hasOwn(CAMEL_OF, key) ? ` (did you mean ${CAMEL_OF[key]}?)` : '';
    fail(at, `${pathOf(at)}.${key} is not a field of this object${hint}`);
  }
};

/** An optional string field: absent, `undefined` and `null` all mean "not set". */
const optionalString = (item: unknown, at: At, key: string): string | undefined => {
  if (item === undefined || item === null) return undefined;
  if (typeof item !== 'string') {
    fail(at, `${pathOf(at)}.${key} must be a string, received ${describeValue(item)}`);
  }
  return item as string;
};

/** The optional string fields of a message and of a content part, in their canonical order. */
const MESSAGE_STRINGS = ['toolCallId', 'toolName', 'toolResult', 'imageBase64'] as const;
const PART_STRINGS = ['text', 'imageUrl', 'imageBase64', 'mediaType'] as const;

/** Copies optional string fields that are set from `raw` to `target`, validating each. */
const copyStrings = <K extends string>(
  raw: Record<string, unknown>,
  target: { [P in K]?: string },
  keys: readonly K[],
  at: At,
): void => {
  for (const key of keys) {
    const item = optionalString(raw[key], at, key);
    if (item !== undefined) target[key] = item;
  }
};

const asRecord = (value: unknown, at: At): Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(at, `${pathOf(at)} must be an object, received ${describeValue(value)}`);
  }
  return value as Record<string, unknown>;
};

/**
 * An optional list, each item normalized by `each`: absent or `null` is none, and so is `[]` (as
 * the reference reads it). `each` is a module-level function, so no closure is made per call.
 */
const normalizeList = <T>(
  list: unknown,
  at: At,
  key: 'toolCalls' | 'contentParts',
  each: (value: unknown, at: At) => T,
): T[] | undefined => {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) {
    fail(at, `${pathOf(at)}.${key} must be an array, received ${describeValue(list)}`);
  }
  const items = list as readonly unknown[];
  if (items.length === 0) return undefined;
  const out = new Array<T>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = each(items[i], { api: at.api, where: at.where, list: key, index: i });
  }
  return out;
};

const normalizeToolCall = (value: unknown, at: At): ToolCall => {
  const raw = asRecord(value, at);
  checkKeys(raw, isToolCallKey, at);
  const name = raw['name'];
  if (typeof name !== 'string') {
    fail(at, `${pathOf(at)}.name must be a string, received ${describeValue(name)}`);
  }
  let parameters;
  try {
    parameters = cloneJsonObject(raw['parameters'] ?? {}, `${pathOf(at)}.parameters`);
  } catch (error) {
    if (error instanceof NotJsonError) fail(at, error.message);
    throw error;
  }
  const id = optionalString(raw['id'], at, 'id');
  const thoughtSignature = optionalString(raw['thoughtSignature'], at, 'thoughtSignature');
  const call: {
    id?: string;
    name: string;
    parameters: ToolCall['parameters'];
    thoughtSignature?: string;
  } =
    id === undefined
      ? { name: name as string, parameters }
      : { id, name: name as string, parameters };
  if (thoughtSignature !== undefined) call.thoughtSignature = thoughtSignature;
  return call;
};

const normalizePart = (value: unknown, at: At): ContentPart => {
  const raw = asRecord(value, at);
  checkKeys(raw, isPartKey, at);
  const type = raw['type'];
  if (typeof type !== 'string') {
    fail(at, `${pathOf(at)}.type must be a string, received ${describeValue(type)}`);
  }
  const part: { -readonly [K in keyof ContentPart]: ContentPart[K] } = { type: type as string };
  copyStrings(raw, part, PART_STRINGS, at);
  return part;
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
 * @param where - the message's index in a list, or `undefined` for a single message
 * @throws InvalidMessageError naming the field and the value received
 * @internal
 */
export const normalizeMessage = (value: unknown, api: string, where?: Where): Message => {
  if (typeof value === 'object' && value !== null && canonical.has(value)) return value as Message;
  const at: At = { api, where };
  const raw = asRecord(value, at);
  checkKeys(raw, isMessageKey, at);
  const role = raw['role'];
  if (!isRole(role)) {
    fail(at, `${pathOf(at)}.role must be one of ${ROLE_LIST}, received ${describeValue(role)}`);
  }
  const content = raw['content'];
  if (content !== null && typeof content !== 'string') {
    fail(at, `${pathOf(at)}.content must be a string or null, received ${describeValue(content)}`);
  }
  const message: { -readonly [K in keyof Message]: Message[K] } = {
    role: role as Message['role'],
    content: content as string | null,
  };
  const toolCalls = normalizeList(raw['toolCalls'], at, 'toolCalls', normalizeToolCall);
  if (toolCalls !== undefined) message.toolCalls = toolCalls;
  copyStrings(raw, message, MESSAGE_STRINGS, at);
  const contentParts = normalizeList(raw['contentParts'], at, 'contentParts', normalizePart);
  if (contentParts !== undefined) message.contentParts = contentParts;
  return registerCanonical(message);
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
