import * as t from 'io-ts';
import { cloneJsonObject, NotJsonError } from '../internal/cloneJson';
import type { JsonObject } from '../model/message';
import { Limit, NullableLimit } from './limits';

const nullableString = t.union([t.string, t.null]);

/**
 * Tool-call parameters: a JSON object, deep-copied into frozen own-key objects (so `__proto__`
 * pollutes nothing). `null` reads as `{}` (a `ToolCall` always has parameters; the reference keeps
 * `None` and writes it back as `null`).
 */
const ParametersCodec = new t.Type<JsonObject, JsonObject, unknown>(
  'JSON object',
  (u): u is JsonObject => typeof u === 'object' && u !== null && !Array.isArray(u),
  (u, c) => {
    if (u === null) return t.success(Object.freeze({}));
    try {
      return t.success(cloneJsonObject(u, ''));
    } catch (error) {
      if (!(error instanceof NotJsonError)) throw error;
      return t.failure(u, c, error.path === '' ? error.reason : `${error.reason} at ${error.path}`);
    }
  },
  t.identity,
);

/**
 * A role as the reference writes it; case-sensitive.
 *
 * @internal
 */
export const RoleCodec = t.keyof({ user: null, assistant: null, system: null, tool: null });

/**
 * A tool call as the reference writes it: `name` required, the rest optional or `null`.
 *
 * @internal
 */
export const PersistedToolCall = t.intersection(
  [
    t.type({ name: t.string }),
    t.partial({
      parameters: ParametersCodec,
      id: nullableString,
      thought_signature: nullableString,
    }),
  ],
  'tool call object',
);

/**
 * A content part as the reference writes it: `type` required.
 *
 * @internal
 */
export const PersistedContentPart = t.intersection(
  [
    t.type({ type: t.string }),
    t.partial({
      text: nullableString,
      image_url: nullableString,
      image_base64: nullableString,
      media_type: nullableString,
    }),
  ],
  'content part object',
);

/**
 * A message as the reference's `Message.to_dict()` writes it (and `from_dict` reads it: only
 * `role` is required; extra keys are ignored).
 *
 * @internal
 */
export const PersistedMessage = t.intersection(
  [
    t.type({ role: RoleCodec }),
    t.partial({
      content: nullableString,
      image_base64: nullableString,
      tool_name: nullableString,
      tool_result: nullableString,
      tool_calls: t.union([t.array(PersistedToolCall), t.null], 'list of tool calls or null'),
      tool_call_id: nullableString,
      content_parts: t.union(
        [t.array(PersistedContentPart), t.null],
        'list of content parts or null',
      ),
    }),
  ],
  'message object',
);

/**
 * The key under which we keep what the reference has no field for (the tokenizer name). The
 * reference ignores unknown keys, so files we write still load there.
 *
 * @example
 * ```ts
 * toDict(createMemory({ tokenizer: 'heuristic' }))[EXTENSION_KEY]; // { tokenizer: 'heuristic' }
 * ```
 */
export const EXTENSION_KEY = 'conversation_memory';

/**
 * A memory as the reference's `ConversationMemory.to_dict()` writes it. `max_messages` is
 * required (as there); `message_count` is ignored (as there).
 *
 * @internal
 */
export const PersistedMemory = t.intersection([
  t.type({ max_messages: Limit }),
  t.partial({
    max_tokens: NullableLimit,
    messages: t.array(PersistedMessage, 'list of messages'),
    summary: nullableString,
    [EXTENSION_KEY]: t.partial({ tokenizer: t.string }, '{ tokenizer?: string }'),
  }),
]);
