import * as t from 'io-ts';
import { describeValue } from '../util/describeValue';
import type { JsonObject } from '../model/message';
import { boundedArray } from './boundedArray';
import type { ProblemBudget } from './budget';
import { checkedCodec } from './checkedCodec';
import { type ImageData, ImageDataCodec } from './imageData';
import { JsonObjectCodec, JsonTextCodec } from './jsonCodecs';
import { ownStruct } from './ownStruct';
import { taggedCodec } from './taggedCodec';

/**
 * Structural codecs for the part of the Vercel AI SDK's `ModelMessage` (AI SDK 6) that our
 * messages can hold, written without importing `ai`, so the root entry does not depend on it.
 * Unknown keys (`providerOptions`, `providerExecuted`) are ignored; parts and outputs our
 * messages cannot hold fail with the list of the types that are kept.
 *
 * @internal
 */

/** A decoded part of a user or assistant message. */
export type ModelPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly image: ImageData; readonly mediaType?: string }
  | { readonly type: 'file'; readonly data: ImageData; readonly mediaType: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: JsonObject;
    };

/** A decoded tool output; `json` and `error-json` values are held as their JSON text. */
export type ModelToolOutput =
  | { readonly type: 'text' | 'error-text' | 'json' | 'error-json'; readonly value: string }
  | { readonly type: 'execution-denied'; readonly reason?: string };

/** A decoded `tool-result` part. */
export interface ModelToolResult {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output: ModelToolOutput;
}

/** A decoded model message. */
export type DecodedModelMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user' | 'assistant'; readonly content: string | readonly ModelPart[] }
  | { readonly role: 'tool'; readonly content: readonly ModelToolResult[] };

const none = {};

const ImageMediaType = /* @__PURE__ */ checkedCodec<string>('image media type', (value) =>
  typeof value === 'string' && value.startsWith('image/')
    ? undefined
    : `must be an image media type ("image/…"; other files are not kept), received ${describeValue(value)}`,
);

const text = { required: { text: t.string }, optional: none };

const userPart = /* @__PURE__ */ taggedCodec<ModelPart>('part', 'type', {
  text,
  image: { required: { image: ImageDataCodec }, optional: { mediaType: t.string } },
  file: { required: { data: ImageDataCodec, mediaType: ImageMediaType }, optional: none },
});

const assistantPart = /* @__PURE__ */ taggedCodec<ModelPart>('part', 'type', {
  text,
  reasoning: text,
  'tool-call': {
    required: { toolCallId: t.string, toolName: t.string, input: JsonObjectCodec },
    optional: none,
  },
});

const output = /* @__PURE__ */ taggedCodec<ModelToolOutput>('tool output', 'type', {
  text: { required: { value: t.string }, optional: none },
  'error-text': { required: { value: t.string }, optional: none },
  json: { required: { value: JsonTextCodec }, optional: none },
  'error-json': { required: { value: JsonTextCodec }, optional: none },
  'execution-denied': { required: none, optional: { reason: t.string } },
});

const toolResult = /* @__PURE__ */ taggedCodec<ModelToolResult>('part', 'type', {
  'tool-result': {
    required: { toolCallId: t.string, toolName: t.string, output },
    optional: none,
  },
});

/**
 * The codec of a list of AI SDK model messages, for one decode call (its lists share that call's
 * failure budget), decoding `{ messages }` so that paths read `messages[2].content[0].input`.
 *
 * @internal
 */
export const modelMessagesCodec = (budget: ProblemBudget) => {
  const content = (parts: t.Mixed) =>
    /* @__PURE__ */ t.union(
      [t.string, boundedArray('list of parts', parts, budget)],
      'text or list of parts',
    );
  const message = /* @__PURE__ */ taggedCodec<DecodedModelMessage>('model message', 'role', {
    system: { required: { content: t.string }, optional: none },
    user: { required: { content: content(userPart) }, optional: none },
    assistant: { required: { content: content(assistantPart) }, optional: none },
    tool: {
      required: { content: boundedArray('list of tool results', toolResult, budget) },
      optional: none,
    },
  });
  return /* @__PURE__ */ ownStruct(
    'AI SDK messages',
    { messages: boundedArray('list of model messages', message, budget) },
    none,
  );
};
