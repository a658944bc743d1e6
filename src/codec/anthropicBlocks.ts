import * as t from 'io-ts';
import type {
  AnthropicImageBlock,
  AnthropicTextBlock,
  AnthropicToolUseBlock,
} from '../formats/anthropicTypes';
import { boundedArray } from './boundedArray';
import type { ProblemBudget } from './budget';
import { JsonObjectCodec } from './jsonCodecs';
import { ownStruct } from './ownStruct';
import { taggedCodec } from './taggedCodec';

/**
 * A `tool_result` block as decoded: `content` may be absent (the API allows it); `is_error` is
 * checked but has no place in a `Message`.
 *
 * @internal
 */
export interface DecodedToolResult {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content?: string | readonly (AnthropicTextBlock | AnthropicImageBlock)[];
  readonly is_error?: boolean;
}

/**
 * Any block {@link anthropicBlockCodecs} decodes.
 *
 * @internal
 */
export type DecodedBlock =
  AnthropicTextBlock | AnthropicImageBlock | AnthropicToolUseBlock | DecodedToolResult;

/**
 * A text block: `{ type: 'text', text }`; other keys (`citations`, `cache_control`) are ignored.
 *
 * @internal
 */
export const TextBlockCodec = /* @__PURE__ */ ownStruct(
  'text block object',
  { type: /* @__PURE__ */ t.literal('text'), text: t.string },
  {},
);

const ImageSourceCodec = /* @__PURE__ */ taggedCodec<AnthropicImageBlock['source']>(
  'image source object',
  'type',
  {
    base64: /* @__PURE__ */ ownStruct(
      'base64 image source object',
      { type: /* @__PURE__ */ t.literal('base64'), media_type: t.string, data: t.string },
      {},
    ),
    url: /* @__PURE__ */ ownStruct(
      'URL image source object',
      { type: /* @__PURE__ */ t.literal('url'), url: t.string },
      {},
    ),
  },
);

const ImageBlockCodec = /* @__PURE__ */ ownStruct(
  'image block object',
  { type: /* @__PURE__ */ t.literal('image'), source: ImageSourceCodec },
  {},
);

/**
 * A tool_use block: `{ type: 'tool_use', id, name, input }`, `input` a JSON object (copied).
 *
 * @internal
 */
export const ToolUseBlockCodec = /* @__PURE__ */ ownStruct(
  'tool_use block object',
  {
    type: /* @__PURE__ */ t.literal('tool_use'),
    id: t.string,
    name: t.string,
    input: JsonObjectCodec,
  },
  {},
);

/**
 * The block codecs of one decode call (their lists share that call's failure budget): the
 * blocks a user message may hold (text, image, tool_result) and those an assistant message may
 * hold (text, image, tool_use).
 *
 * @internal
 */
export const anthropicBlockCodecs = (budget: ProblemBudget) => {
  const media = /* @__PURE__ */ taggedCodec<AnthropicTextBlock | AnthropicImageBlock>(
    'content block object',
    'type',
    {
      text: TextBlockCodec,
      image: ImageBlockCodec,
    },
  );
  const toolResult = /* @__PURE__ */ ownStruct(
    'tool_result block object',
    { type: /* @__PURE__ */ t.literal('tool_result'), tool_use_id: t.string },
    {
      content: /* @__PURE__ */ t.union(
        [t.string, boundedArray('list of text and image blocks', media, budget)],
        'string or list of text and image blocks',
      ),
      is_error: t.boolean,
    },
  );
  return {
    user: /* @__PURE__ */ taggedCodec<DecodedBlock>('content block object', 'type', {
      text: TextBlockCodec,
      image: ImageBlockCodec,
      tool_result: toolResult,
    }),
    assistant: /* @__PURE__ */ taggedCodec<DecodedBlock>('content block object', 'type', {
      text: TextBlockCodec,
      image: ImageBlockCodec,
      tool_use: ToolUseBlockCodec,
    }),
  };
};
