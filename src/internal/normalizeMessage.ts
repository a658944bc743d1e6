import { InvalidMessageError } from '../errors/memoryErrors';
import type { ContentPart, JsonObject, Message, ToolCall } from '../model/message';
import { isRole, ROLES } from '../model/role';
import { cloneJsonObject, NotJsonError } from './cloneJson';
import { describeValue } from '../util/describeValue';
import { keySegment } from '../util/escapeText';
import { keyHint, type KeyHints } from '../util/keyHint';
import { deepFreezeMessage } from '../model/freeze';
import { isPlainObject } from '../util/isPlainObject';
import { unreadable } from './unreadable';

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
): readonly T[] | undefined => {
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
  return Object.freeze(out);
};

const normalizeToolCall = (value: unknown, at: At): ToolCall => {
  const raw = asRecord(value, at);
  let name: unknown;
  let parameters: unknown;
  let id: unknown;
  let thoughtSignature: unknown;
  let unknownKey: string | undefined;
  let openAiShaped = false;
  for (const key of Object.keys(raw)) {
    const item = raw[key];
    switch (key) {
      case 'name':
        name = item;
        break;
      case 'parameters':
        parameters = item;
        break;
      case 'id':
        id = item;
        break;
      case 'thoughtSignature':
        thoughtSignature = item;
        break;
      default:
        if (item === undefined) break;
        if (key === 'function') openAiShaped = true;
        unknownKey ??= key;
    }
  }
  if (openAiShaped) {
    fail(
      at,
      `${pathOf(at)} looks like an OpenAI tool call ({ id, type, function: { name, arguments } }); ` +
        'pass { id, name, parameters } instead (did you mean parameters? ' +
        'parameters = JSON.parse(function.arguments))',
    );
  }
  if (unknownKey !== undefined) notAField(at, unknownKey, keyHint(unknownKey, TOOL_CALL_HINTS));
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
  const callId = optionalString(id, at, 'id');
  const signature = optionalString(thoughtSignature, at, 'thoughtSignature');
  const call: {
    id?: string;
    name: string;
    parameters: ToolCall['parameters'];
    thoughtSignature?: string;
  } =
    callId === undefined
      ? { name: name as string, parameters: copied }
      : { id: callId, name: name as string, parameters: copied };
  if (signature !== undefined) call.thoughtSignature = signature;
  return Object.freeze(call);
};

const normalizePart = (value: unknown, at: At): ContentPart => {
  const raw = asRecord(value, at);
  let type: unknown;
  let text: unknown;
  let imageUrl: unknown;
  let imageBase64: unknown;
  let mediaType: unknown;
  for (const key of Object.keys(raw)) {
    const item = raw[key];
    switch (key) {
      case 'type':
        type = item;
        break;
      case 'text':
        text = item;
        break;
      case 'imageUrl':
        imageUrl = item;
        break;
      case 'imageBase64':
        imageBase64 = item;
        break;
      case 'mediaType':
        mediaType = item;
        break;
      default:
        if (item !== undefined) notAField(at, key, keyHint(key, PART_HINTS));
    }
  }
  if (typeof type !== 'string') {
    fail(at, `${pathOf(at)}.type must be a string, received ${describeValue(type)}`);
  }
  const part: { -readonly [K in keyof ContentPart]: ContentPart[K] } = { type: type as string };
  const partText = optionalString(text, at, 'text');
  if (partText !== undefined) part.text = partText;
  const url = optionalString(imageUrl, at, 'imageUrl');
  if (url !== undefined) part.imageUrl = url;
  const base64 = optionalString(imageBase64, at, 'imageBase64');
  if (base64 !== undefined) part.imageBase64 = base64;
  const media = optionalString(mediaType, at, 'mediaType');
  if (media !== undefined) part.mediaType = media;
  return Object.freeze(part);
};

/** The role problem, with a note when the object is not plain (its prototype is not read). */
const roleProblem = (raw: object, role: unknown, at: At): string =>
  `${pathOf(at)}.role must be one of ${ROLE_LIST}, received ${describeValue(role)}` +
  (role === undefined && !isPlainObject(raw)
    ? ` (only own enumerable properties are read, and this is ${describeValue(raw)})`
    : '');

const normalizeFresh = (value: unknown, at: At): Message => {
  const raw = asRecord(value, at);
  let role: unknown;
  let content: unknown;
  let toolCalls: unknown;
  let toolCallId: unknown;
  let toolName: unknown;
  let toolResult: unknown;
  let imageBase64: unknown;
  let contentParts: unknown;
  let id: unknown;
  let metadata: unknown;
  for (const key of Object.keys(raw)) {
    const item = raw[key];
    switch (key) {
      case 'role':
        role = item;
        break;
      case 'content':
        content = item;
        break;
      case 'toolCalls':
        toolCalls = item;
        break;
      case 'toolCallId':
        toolCallId = item;
        break;
      case 'toolName':
        toolName = item;
        break;
      case 'toolResult':
        toolResult = item;
        break;
      case 'imageBase64':
        imageBase64 = item;
        break;
      case 'contentParts':
        contentParts = item;
        break;
      case 'id':
        id = item;
        break;
      case 'metadata':
        metadata = item;
        break;
      default:
        if (item !== undefined) notAField(at, key, keyHint(key, MESSAGE_HINTS));
    }
  }
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
  const callId = optionalString(toolCallId, at, 'toolCallId');
  if (callId !== undefined) message.toolCallId = callId;
  const tool = optionalString(toolName, at, 'toolName');
  if (tool !== undefined) message.toolName = tool;
  const result = optionalString(toolResult, at, 'toolResult');
  if (result !== undefined) message.toolResult = result;
  const image = optionalString(imageBase64, at, 'imageBase64');
  if (image !== undefined) message.imageBase64 = image;
  const parts = normalizeList(contentParts, at, 'contentParts', normalizePart);
  if (parts !== undefined) message.contentParts = parts;
  if (id !== undefined && id !== null) message.id = applicationId(id, at);
  if (metadata !== undefined && metadata !== null) message.metadata = copyMetadata(metadata, at);
  return Object.freeze(message);
};

/** The application's message id: a non-empty string. */
const applicationId = (id: unknown, at: At): string => {
  if (typeof id !== 'string' || id === '') {
    fail(at, `${pathOf(at)}.id must be a non-empty string, received ${describeValue(id)}`);
  }
  return id as string;
};

/** The application's metadata: a plain JSON object, deep-copied (each value read once). */
const copyMetadata = (metadata: unknown, at: At): JsonObject => {
  try {
    return cloneJsonObject(metadata, `${pathOf(at)}.metadata`);
  } catch (error) {
    if (error instanceof NotJsonError) fail(at, error.message);
    throw error;
  }
};

/**
 * Validates a message given by a caller and returns its canonical form: a new, deeply frozen
 * object with only the `Message` fields (the application's `id` and `metadata` last), no `undefined` or `null` optional fields, empty lists
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
    // Built frozen, part by part (parameters and metadata are frozen copies): no second walk.
    message = normalizeFresh(value, { api, where });
  } catch (error) {
    throw unreadable(error, InvalidMessageError, api, messagePath(where));
  }
  canonical.add(message);
  return message;
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
