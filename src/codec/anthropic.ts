import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import { MemoryDecodeError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';
import type { Message } from '../model/message';
import { anthropicBlockCodecs, TextBlockCodec } from './anthropicBlocks';
import { anthropicToMessages, type DecodedMessage } from './anthropicToMessages';
import { boundedArray } from './boundedArray';
import { ProblemBudget } from './budget';
import { ownStruct } from './ownStruct';
import { codecFailure, publicDecode } from './publicDecoder';
import { taggedCodec } from './taggedCodec';

const API = 'fromAnthropic';

/** The codec of `{ system?, messages }`, for one decode call (its lists share the budget). */
const transcriptCodec = (budget: ProblemBudget) => {
  const blocks = anthropicBlockCodecs(budget);
  const messageOf = (role: 'user' | 'assistant', block: t.Mixed) =>
    /* @__PURE__ */ ownStruct(
      `${role} message object`,
      {
        role: /* @__PURE__ */ t.literal(role),
        content: /* @__PURE__ */ t.union(
          [t.string, boundedArray('list of content blocks', block, budget)],
          'string or list of content blocks',
        ),
      },
      {},
    );
  const message = /* @__PURE__ */ taggedCodec('message object', 'role', {
    user: messageOf('user', blocks.user),
    assistant: messageOf('assistant', blocks.assistant),
  }) as t.Type<DecodedMessage, unknown, unknown>;
  return /* @__PURE__ */ ownStruct(
    'object { system?, messages }',
    { messages: boundedArray('list of messages', message, budget) },
    {
      system: /* @__PURE__ */ t.union(
        [t.string, boundedArray('list of text blocks', TextBlockCodec, budget)],
        'string or list of text blocks',
      ),
    },
  );
};

/**
 * Reads a conversation in the Anthropic Messages API's format (`{ system?, messages }`, as a
 * request takes it or as `toAnthropic` writes it) into messages, validating everything first.
 * Never throws: bad input gives a `MemoryDecodeError` listing each problem with its path
 * (`messages[2].content[0].input: expected a JSON object, got "x"`). Only own properties are
 * read, each once; unknown keys (`cache_control`, `citations`) are ignored; at most 1,000 failing
 * list items are inspected, so a huge hostile input is rejected in bounded time.
 *
 * - `system`: a non-empty string becomes one system message first; a list of text blocks, one
 *   system message per block.
 * - A user message with a string is one user message. Its blocks are split in order: each
 *   `tool_result` becomes a tool message (`toolCallId` from `tool_use_id`, `toolName` from the
 *   matching `tool_use` of the nearest earlier assistant message, when there is one), and each run
 *   of text and image blocks one user message. An empty block list is a user message `''`.
 * - An assistant message's `tool_use` blocks become `toolCalls` (`{ id, name, parameters: input }`);
 *   with no text or image block beside them, `content` is `null`.
 * - Text and image blocks: a single text block is `content`; several blocks (or any image)
 *   become `contentParts`, one part per block (`image_url` for a URL image, `image_base64` with
 *   its `mediaType` for base64), with `content` their non-empty texts joined with a space.
 * - Blocks the `Message` has no place for are refused with their path: other block types
 *   (`thinking`, `document`), `tool_use` in a user message, `tool_result` in an assistant one.
 *   `is_error` on a result is checked and dropped.
 *
 * It is the inverse of `toAnthropic` on the messages that format expresses:
 * `fromAnthropic(toAnthropic(messages))` gives `messages` back when (1) there is at most one
 * system message, it comes first, and it is `{ role, content }` with non-empty content; (2) every
 * tool call has an `id` and no `thoughtSignature`, and only assistant messages have tool calls;
 * (3) every tool message has a `toolCallId`, no `toolResult`, and a `toolName` equal to the name
 * of its call in the nearest earlier assistant message (none when no such call); (4) no message
 * has `imageBase64`, and only tool messages have `toolCallId` or `toolName`; (5) `content` is a
 * string, except `null` on an assistant message with tool calls; a message without content parts
 * has non-empty content, except a user or assistant message that is `''` as a whole; (6) content
 * parts, when present, are text parts with non-empty `text`, `image_url` parts with `imageUrl`,
 * and `image_base64` parts with `imageBase64` and `mediaType`, not a single text part, and
 * `content` equals their texts joined with a space.
 *
 * @param input - `{ system?, messages }`, e.g. a parsed request body
 * @returns `Right(messages)` or `Left(MemoryDecodeError)` listing every problem
 * @example
 * ```ts
 * fromAnthropic({
 *   system: 'Be brief.',
 *   messages: [
 *     { role: 'user', content: 'What is 2+2?' },
 *     { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'calc', input: { expr: '2+2' } }] },
 *     { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '4' }, { type: 'text', text: 'Thanks' }] },
 *   ],
 * });
 * // Right([system 'Be brief.', user 'What is 2+2?', assistant null with the call,
 * //        tool '4' (toolCallId 'toolu_1', toolName 'calc'), user 'Thanks'])
 * ```
 */
export const fromAnthropic = (input: unknown): E.Either<MemoryDecodeError, Message[]> =>
  publicDecode(API, () => {
    if (!isPlainObject(input)) {
      return E.left(
        new MemoryDecodeError(API, [
          `(root): expected an object { system?, messages }, got ${describeValue(input)}`,
        ]),
      );
    }
    const budget = new ProblemBudget();
    const decoded = transcriptCodec(budget).decode(input);
    if (E.isLeft(decoded)) return codecFailure(API, decoded.left, budget);
    const { system, messages } = decoded.right;
    return E.right(anthropicToMessages(system, messages));
  });
