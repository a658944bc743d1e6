import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';
import { registerCanonical } from '../internal/normalizeMessage';
import type { ContentPart, Message, ToolCall } from '../model/message';
import type { Role } from '../model/role';
import { boundedArray } from './boundedArray';
import type { ProblemBudget } from './budget';
import { checkedCodec } from './checkedCodec';
import { JsonObjectString } from './jsonObjectString';
import { contentCodec, toDecodedContent } from './openaiChatContent';
import { ownStruct } from './ownStruct';

/**
 * The roles of a Chat Completions transcript this library reads: OpenAI's, less the deprecated
 * `function`. `developer` (OpenAI's newer name for system instructions) reads as `system`.
 *
 * @internal
 */
export const TranscriptRole = /* @__PURE__ */ t.keyof({
  system: null,
  developer: null,
  user: null,
  assistant: null,
  tool: null,
});

/**
 * The role of a model's reply: `assistant` only.
 *
 * @internal
 */
export const ReplyRole = /* @__PURE__ */ t.keyof({ assistant: null });

const ToolCallCodec = /* @__PURE__ */ ownStruct(
  'tool call object',
  {
    id: t.string,
    type: /* @__PURE__ */ t.literal('function'),
    function: /* @__PURE__ */ ownStruct(
      'function object',
      { name: t.string, arguments: JsonObjectString },
      {},
    ),
  },
  {},
);

/** A field that must be absent here; `null` and `[]` count as absent. */
const absent = (problem: string) =>
  /* @__PURE__ */ checkedCodec<unknown>('absent', (u) =>
    u === undefined || u === null || (Array.isArray(u) && u.length === 0)
      ? undefined
      : `${problem}, got ${describeValue(u)}`,
  );

const NoToolCalls = /* @__PURE__ */ absent('only assistant messages have tool calls');
const NoToolCallId = /* @__PURE__ */ absent('only tool messages answer a tool call');
const NoFunctionCall = /* @__PURE__ */ absent(
  'the deprecated function_call is not read: send tool_calls instead',
);
const ToolCallId = /* @__PURE__ */ checkedCodec<string>('string', (u) =>
  typeof u === 'string'
    ? undefined
    : `expected a string (the id of the call this result answers), got ${describeValue(u)}`,
);
const Refusal = /* @__PURE__ */ t.union([t.string, t.null, t.undefined], 'string or null');

/**
 * A decoded message before its tool name is known: {@link finishMessage} makes it a `Message`.
 *
 * @internal
 */
export interface DraftMessage {
  readonly role: Role;
  readonly content: string | null;
  readonly toolCalls?: readonly ToolCall[];
  readonly toolCallId?: string;
  readonly contentParts?: readonly ContentPart[];
}

/** The fields read from a message object: each own property read once, others never. */
const KEYS = ['role', 'content', 'tool_calls', 'tool_call_id', 'refusal', 'function_call'] as const;
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The codec of one Chat Completions message (request or reply), decoded into a
 * {@link DraftMessage}. `roles` is the codec of the roles allowed here. Unknown keys (`name`,
 * `audio`, `annotations`, …) are ignored; fields that belong to another role are refused.
 *
 * @internal
 */
export const chatMessageCodec = (
  budget: ProblemBudget,
  roles: t.Mixed,
): t.Type<DraftMessage, unknown, unknown> => {
  const calls = /* @__PURE__ */ t.union(
    [boundedArray('list of tool calls', ToolCallCodec, budget), t.null, t.undefined],
    'list of tool calls or null',
  );
  const validate = (u: unknown, c: t.Context): t.Validation<DraftMessage> => {
    if (!isPlainObject(u)) return t.failure(u, c);
    const raw: Partial<Record<(typeof KEYS)[number], unknown>> = {};
    for (const key of KEYS) if (hasOwn.call(u, key)) raw[key] = u[key];
    const errors: t.ValidationError[] = [];
    const field = <A>(key: (typeof KEYS)[number], codec: t.Type<A, unknown, unknown>): A => {
      const value = raw[key];
      const result = codec.validate(value, t.appendContext(c, key, codec, value));
      if (E.isLeft(result)) errors.push(...result.left);
      return (E.isRight(result) ? result.right : undefined) as A;
    };
    const wireRole = field<string>('role', roles);
    if (errors.length > 0) return t.failures(errors);
    const role: Role = wireRole === 'developer' ? 'system' : (wireRole as Role);
    const decoded = toDecodedContent(field('content', contentCodec(role, budget)));
    const draft: { -readonly [K in keyof DraftMessage]: DraftMessage[K] } = {
      role,
      content: decoded.content,
    };
    if (role === 'assistant') {
      const list = field('tool_calls', calls);
      if (Array.isArray(list) && list.length > 0) {
        draft.toolCalls = list.map((call: t.TypeOf<typeof ToolCallCodec>): ToolCall => ({
          id: call.id,
          name: call.function.name,
          parameters: call.function.arguments,
        }));
      }
      const refusal = field('refusal', Refusal);
      if (draft.content === null && typeof refusal === 'string' && refusal !== '') {
        draft.content = refusal;
      }
      field('function_call', NoFunctionCall);
    } else {
      field('tool_calls', NoToolCalls);
    }
    if (role === 'tool') draft.toolCallId = field('tool_call_id', ToolCallId);
    else field('tool_call_id', NoToolCallId);
    if (decoded.contentParts !== undefined) draft.contentParts = decoded.contentParts;
    return errors.length > 0 ? t.failures(errors) : t.success(draft);
  };
  return new t.Type<DraftMessage, unknown, unknown>(
    'message object',
    // Never called while decoding; a cheap shape test (a full check would spend the budget).
    (u): u is DraftMessage => isPlainObject(u),
    validate,
    t.identity,
  );
};

/**
 * The `Message` for a draft, frozen and canonical, with `toolName` when it is known.
 *
 * @internal
 */
export const finishMessage = (draft: DraftMessage, toolName?: string): Message => {
  const message: { -readonly [K in keyof Message]: Message[K] } = {
    role: draft.role,
    content: draft.content,
  };
  if (draft.toolCalls !== undefined) message.toolCalls = draft.toolCalls;
  if (draft.toolCallId !== undefined) message.toolCallId = draft.toolCallId;
  if (toolName !== undefined) message.toolName = toolName;
  if (draft.contentParts !== undefined) message.contentParts = draft.contentParts;
  return registerCanonical(message);
};
