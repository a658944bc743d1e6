import { isConversationMemoryError } from '../errors/ConversationMemoryError';
import { InvalidMessageError } from '../errors/errorClasses';
import type { ContentPart, Message, ToolCall } from '../model/message';
import { isRole, ROLES } from '../model/role';
import { cloneJsonObject, NotJsonError } from './cloneJson';
import { describeValue } from './describeValue';
import { errorText } from './errorText';
import { keySegment } from './escapeText';
import { keyHint, type KeyHints } from './keyHint';
import { deepFreezeMessage } from './freeze';
import { isPlainObject } from './isPlainObject';

/**
 * Validation of messages given by callers. This runs on every add, so the happy path builds no
 * strings and creates no closures: error paths (`messages[2].toolCalls[0].name`) are assembled
 * only when something is wrong.
 *
 * A caller's object is hostile input: only its own enumerable properties are read, each exactly
 * once (one pass over `Object.keys`), so a getter cannot show one value to the check and another
 * to the copy, and an inherited or `__proto__` field does not exist. Whatever the object throws
 * while it is read (a getter, a Proxy trap, a revoked Proxy) becomes an `InvalidMessageError`.
 */

/** Messages this module produced: already valid, canonical and frozen, so they are reused as is. */
const canonical = /* @__PURE__ */ new WeakSet<object>();

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

const messagePath = (where: Where): string =>
  where === undefined ? 'message' : `messages[${where}]`;

const pathOf = (at: At): string => {
  const base = messagePath(at.where);
  return at.list === undefined ? base : `${base}.${at.list}[${at.index ?? 0}]`;
};

/** `"user", "assistant", "system", "tool"`, from the one list of roles. */
const ROLE_LIST = ROLES.map((role) => JSON.stringify(role)).join(', ');

const fail = (at: At, what: string): never => {
  throw new InvalidMessageError(at.api, what);
};

/** What a caller probably meant by a key that is not a field, from other message formats. */
const MESSAGE_HINTS: KeyHints = {
  tool_calls: 'toolCalls',
  tool_call_id: 'toolCallId',
  tool_name: 'toolName',
  name: 'toolName',
  tool_result: 'toolResult',
  image_base64: 'imageBase64',
  content_parts: 'contentParts',
};

const PARAMETERS = 'parameters, as an object rather than a JSON string';

const TOOL_CALL_HINTS: KeyHints = {
  thought_signature: 'thoughtSignature',
  arguments: PARAMETERS,
  args: PARAMETERS,
  input: PARAMETERS,
};

const PART_HINTS: KeyHints = {
  image_url: 'imageUrl',
  image_base64: 'imageBase64',
  media_type: 'mediaType',
};

const notAField = (at: At, key: string, hint: string): never =>
  fail(at, `${pathOf(at)}${keySegment(key)} is not a field of this object${hint}`);

/** An optional string field: absent, `undefined` and `null` all mean "not set". */
const optionalString = (item: unknown, at: At, key: string): string | undefined => {
  if (item === undefined || item === null) return undefined;
  if (typeof item !== 'string') {
    fail(at, `${pathOf(at)}.${key} must be a string, received ${describeValue(item)}`);
  }
  return item as string;
};

const asRecord = (value: unknown, at: At): Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(at, `${pathOf(at)} must be an object, received ${describeValue(value)}`);
  }
  return value as Record<string, unknown>;
};

/**
 * An optional list, each item normalized by `each`: absent or `null` is none, and so is `[]` (as
 * the reference reads it). `length` and each item are read once. `each` is a module-level
 * function, so no closure is made per call.
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
  const length = items.length;
  if (length === 0) return undefined;
  const out = new Array<T>(length);
  for (let i = 0; i < length; i++) {
    out[i] = each(items[i], { api: at.api, where: at.where, list: key, index: i });
  }
  return out;
};

/**
 * Reads the own enumerable properties of `raw` once each, in one pass: the value of `names[i]`
 * lands in slot `i` (absent fields stay `undefined`); any other key whose value is not
 * `undefined` is an error, with a hint from `hints`. One reader for messages, tool calls and
 * parts keeps admission small and its cost one `Object.keys` per object.
 */
const readFields = (
  raw: Record<string, unknown>,
  names: readonly string[],
  hints: KeyHints,
  at: At,
): unknown[] => {
  const values = new Array<unknown>(names.length).fill(undefined);
  for (const key of Object.keys(raw)) {
    const item = raw[key];
    const slot = names.indexOf(key);
    if (slot >= 0) values[slot] = item;
    else if (item !== undefined) notAField(at, key, keyHint(key, hints));
  }
  return values;
};

const TOOL_CALL_FIELDS = ['name', 'parameters', 'id', 'thoughtSignature'] as const;
const PART_FIELDS = ['type', 'text', 'imageUrl', 'imageBase64', 'mediaType'] as const;
const MESSAGE_FIELDS = [
  'role',
  'content',
  'toolCalls',
  'toolCallId',
  'toolName',
  'toolResult',
  'imageBase64',
  'contentParts',
] as const;

const normalizeToolCall = (value: unknown, at: At): ToolCall => {
  const raw = asRecord(value, at);
  if (Object.hasOwn(raw, 'function')) {
    fail(
      at,
      `${pathOf(at)} looks like an OpenAI tool call ({ id, type, function: { name, arguments } }); ` +
        'pass { id, name, parameters } instead (did you mean parameters? ' +
        'parameters = JSON.parse(function.arguments))',
    );
  }
  const [name, parameters, id, thoughtSignature] = readFields(
    raw,
    TOOL_CALL_FIELDS,
    TOOL_CALL_HINTS,
    at,
  );
  if (typeof name !== 'string') {
    fail(at, `${pathOf(at)}.name must be a string, received ${describeValue(name)}`);
  }
  let copied;
  try {
    copied = cloneJsonObject(parameters ?? {}, `${pathOf(at)}.parameters`);
  } catch (error) {
    if (error instanceof NotJsonError) fail(at, error.message);
    throw error;
  }
  const call: { -readonly [K in keyof ToolCall]: ToolCall[K] } = {
    name: name as string,
    parameters: copied,
  };
  const callId = optionalString(id, at, 'id');
  // The canonical key order is id, name, parameters, thoughtSignature.
  const ordered: typeof call = callId === undefined ? call : { id: callId, ...call };
  const signature = optionalString(thoughtSignature, at, 'thoughtSignature');
  if (signature !== undefined) ordered.thoughtSignature = signature;
  return ordered;
};

/** Sets `target[key]` to the optional string `value` when it is set (validating it). */
const setString = <K extends string>(
  target: { [P in K]?: string },
  key: K,
  value: unknown,
  at: At,
): void => {
  const text = optionalString(value, at, key);
  if (text !== undefined) target[key] = text;
};

const normalizePart = (value: unknown, at: At): ContentPart => {
  const raw = asRecord(value, at);
  const [type, text, imageUrl, imageBase64, mediaType] = readFields(
    raw,
    PART_FIELDS,
    PART_HINTS,
    at,
  );
  if (typeof type !== 'string') {
    fail(at, `${pathOf(at)}.type must be a string, received ${describeValue(type)}`);
  }
  const part: { -readonly [K in keyof ContentPart]: ContentPart[K] } = { type: type as string };
  setString(part, 'text', text, at);
  setString(part, 'imageUrl', imageUrl, at);
  setString(part, 'imageBase64', imageBase64, at);
  setString(part, 'mediaType', mediaType, at);
  return part;
};

/** The role problem, with a note when the object is not plain (its prototype is not read). */
const roleProblem = (raw: object, role: unknown, at: At): string =>
  `${pathOf(at)}.role must be one of ${ROLE_LIST}, received ${describeValue(role)}` +
  (role === undefined && !isPlainObject(raw)
    ? ` (only own enumerable properties are read, and this is ${describeValue(raw)})`
    : '');

const normalizeFresh = (value: unknown, at: At): Message => {
  const raw = asRecord(value, at);
  const [role, content, toolCalls, toolCallId, toolName, toolResult, imageBase64, contentParts] =
    readFields(raw, MESSAGE_FIELDS, MESSAGE_HINTS, at);
  if (!isRole(role)) fail(at, roleProblem(raw, role, at));
  if (content !== null && typeof content !== 'string') {
    fail(at, `${pathOf(at)}.content must be a string or null, received ${describeValue(content)}`);
  }
  const message: { -readonly [K in keyof Message]: Message[K] } = {
    role: role as Message['role'],
    content: content as string | null,
  };
  const calls = normalizeList(toolCalls, at, 'toolCalls', normalizeToolCall);
  if (calls !== undefined) message.toolCalls = calls;
  setString(message, 'toolCallId', toolCallId, at);
  setString(message, 'toolName', toolName, at);
  setString(message, 'toolResult', toolResult, at);
  setString(message, 'imageBase64', imageBase64, at);
  const parts = normalizeList(contentParts, at, 'contentParts', normalizePart);
  if (parts !== undefined) message.contentParts = parts;
  return message;
};

/**
 * Validates a message given by a caller and returns its canonical form: a new, deeply frozen
 * object with only the `Message` fields, no `undefined` or `null` optional fields, empty lists
 * left out and tool-call parameters deep-copied. The caller's object is never changed, and each
 * of its own properties is read once. A message already in canonical form (made here before) is
 * returned as is, so moving messages between states costs nothing.
 *
 * @param value - the message as given
 * @param api - the public function name, for the error
 * @param where - the message's index in a list, or `undefined` for a single message
 * @throws InvalidMessageError naming the field and the value received, or saying that the value
 *   could not be read (a getter or Proxy trap threw; `cause` holds what it threw)
 * @internal
 */
export const normalizeMessage = (value: unknown, api: string, where?: Where): Message => {
  if (typeof value === 'object' && value !== null && canonical.has(value)) return value as Message;
  let message: Message;
  try {
    message = normalizeFresh(value, { api, where });
  } catch (error) {
    if (isConversationMemoryError(error)) throw error;
    throw new InvalidMessageError(
      api,
      `${messagePath(where)} could not be read: ${errorText(error)}`,
      { cause: error },
    );
  }
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
