import * as t from 'io-ts';
import type { JsonObject } from '../model/message';
import { boundedArray } from './boundedArray';
import { JsonObjectCodec } from './jsonCodecs';
import type { ProblemBudget } from './budget';
import { describeValue } from '../util/describeValue';
import { checkedCodec } from './checkedCodec';
import { configFieldCodecs } from './configFieldCodecs';
import { Limit } from './limits';
import { ownStruct } from './ownStruct';
import { NextPosition, Position } from './position';
import { UsageTotal } from './usageTotal';

const nullableString = /* @__PURE__ */ t.union([t.string, t.null]);

/**
 * Tool-call parameters: a JSON object, deep-copied into frozen own-key objects (so `__proto__`
 * stays data and pollutes nothing). `null` reads as `{}` (a `ToolCall` always has parameters; the
 * reference keeps `None` and writes it back as `null`).
 */
const ParametersCodec = /* @__PURE__ */ new t.Type<JsonObject, JsonObject, unknown>(
  'JSON object',
  (u): u is JsonObject => JsonObjectCodec.is(u),
  (u, c) => (u === null ? t.success(Object.freeze({})) : JsonObjectCodec.validate(u, c)),
  t.identity,
);

/** The application's message id: a non-empty string; `null` (as `JSON` may write it) is none. */
const ApplicationId = /* @__PURE__ */ checkedCodec<string | null>('message id', (value) =>
  value === null || (typeof value === 'string' && value !== '')
    ? undefined
    : `must be a non-empty string, received ${describeValue(value)}`,
);

/** The application's message metadata: a JSON object, copied as parameters are; `null` is none. */
const MetadataCodec = /* @__PURE__ */ new t.Type<JsonObject | null, JsonObject | null, unknown>(
  'JSON object or null',
  (u): u is JsonObject | null => u === null || JsonObjectCodec.is(u),
  (u, c) => (u === null ? t.success(null) : JsonObjectCodec.validate(u, c)),
  t.identity,
);

/**
 * A role as the reference writes it; case-sensitive.
 *
 * @internal
 */
export const RoleCodec = /* @__PURE__ */ t.keyof({
  user: null,
  assistant: null,
  system: null,
  tool: null,
});

/**
 * A tool call as the reference writes it: `name` required, the rest optional or `null`.
 *
 * @internal
 */
export const PersistedToolCall = /* @__PURE__ */ ownStruct(
  'tool call object',
  { name: t.string },
  { parameters: ParametersCodec, id: nullableString, thought_signature: nullableString },
);

/**
 * A content part as the reference writes it: `type` required.
 *
 * @internal
 */
export const PersistedContentPart = /* @__PURE__ */ ownStruct(
  'content part object',
  { type: t.string },
  {
    text: nullableString,
    image_url: nullableString,
    image_base64: nullableString,
    media_type: nullableString,
  },
);

/**
 * The key under which we keep what the reference has no field for: the tokenizer name, the
 * trimming policy, the messages' positions, the messages held for summarizing, the summary's
 * coverage (each only when it differs from what a reference file implies), the conversation's
 * knowledge (when it has some) and the usage of the calls that left the window (when some did). The reference ignores
 * unknown keys, so files we write still load there.
 *
 * @example
 * ```ts
 * toDict(createMemory({ tokenizer: 'heuristic' }))[EXTENSION_KEY]; // { tokenizer: 'heuristic' }
 * ```
 */
export const EXTENSION_KEY = 'conversation_memory';

/** The config fields' codecs, by where a file keeps them (the config table's rows). */
const REQUIRED_FIELDS = /* @__PURE__ */ configFieldCodecs('required');
const REFERENCE_FIELDS = /* @__PURE__ */ configFieldCodecs('reference');
const EXTENSION_FIELDS = /* @__PURE__ */ configFieldCodecs('extension');

const CoverageRecord = /* @__PURE__ */ ownStruct(
  'summary coverage object',
  { from: Position, to: Position, count: Limit },
  {},
);

/**
 * The codec of a memory as the reference's `ConversationMemory.to_dict()` writes it, for one
 * decode call (its lists share that call's failure budget). The config fields' codecs come from
 * the config table (`configFieldCodecs`): `max_messages` is required (as there); `message_count` and unknown keys are ignored (as there); a message needs only `role`
 * (as the reference's `Message.from_dict`). `knowledge` reads `conversation_memory.knowledge`
 * with the codec given: `fromDict` passes `knowledgeField`'s, which checks it with
 * `decodeKnowledgeState` (the default takes it as it is, for a caller that checks it itself).
 *
 * @internal
 */
export const persistedMemoryCodec = (
  budget: ProblemBudget,
  knowledge: t.Type<unknown> = t.unknown,
) => {
  const message = persistedMessageCodec(budget);
  const extension = /* @__PURE__ */ ownStruct(
    'conversation_memory object',
    {},
    {
      ...EXTENSION_FIELDS,
      positions: boundedArray('list of positions', Position, budget),
      next_position: NextPosition,
      pending: boundedArray(
        'list of held messages',
        /* @__PURE__ */ ownStruct('held message object', { position: Position, message }, {}),
        budget,
      ),
      summary_coverage: boundedArray('list of summary coverage records', CoverageRecord, budget),
      knowledge,
      trimmed_usage: UsageTotal,
    },
  );
  return /* @__PURE__ */ ownStruct('memory object', REQUIRED_FIELDS, {
    ...REFERENCE_FIELDS,
    messages: boundedArray('list of messages', message, budget),
    summary: nullableString,
    [EXTENSION_KEY]: extension,
  });
};

/** The codec of one message as the reference writes it. */
const persistedMessageCodec = (budget: ProblemBudget) =>
  /* @__PURE__ */ ownStruct(
    'message object',
    { role: RoleCodec },
    {
      content: nullableString,
      image_base64: nullableString,
      tool_name: nullableString,
      tool_result: nullableString,
      tool_calls: /* @__PURE__ */ t.union(
        [boundedArray('list of tool calls', PersistedToolCall, budget), t.null],
        'list of tool calls or null',
      ),
      tool_call_id: nullableString,
      content_parts: /* @__PURE__ */ t.union(
        [boundedArray('list of content parts', PersistedContentPart, budget), t.null],
        'list of content parts or null',
      ),
      id: ApplicationId,
      metadata: MetadataCodec,
    },
  );

/**
 * What {@link persistedMemoryCodec} decodes to.
 *
 * @internal
 */
export type PersistedMemory = t.TypeOf<ReturnType<typeof persistedMemoryCodec>>;

/**
 * One message of a {@link PersistedMemory}.
 *
 * @internal
 */
export type PersistedMessage = NonNullable<PersistedMemory['messages']>[number];
