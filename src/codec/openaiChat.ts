import { either as E } from 'fp-ts';
import { type DecodeErrorOptions, MemoryDecodeError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import type { Message } from '../model/message';
import { boundedArray } from './boundedArray';
import { ProblemBudget } from './budget';
import {
  chatMessageCodec,
  type DraftMessage,
  finishMessage,
  TranscriptRole,
} from './openaiChatMessage';
import { codecFailure, publicDecode } from './publicDecoder';

const API = 'fromOpenAIChat';

const fail = (
  problems: readonly string[],
  options?: DecodeErrorOptions,
): E.Either<MemoryDecodeError, never> => E.left(new MemoryDecodeError(API, problems, options));

/**
 * Finishes the drafts in order. A tool result gets the `toolName` of the call it answers when
 * that call is in the assistant message that opened its turn (only tool results between them).
 */
const finish = (drafts: readonly DraftMessage[]): Message[] => {
  let turn: ReadonlyMap<string, string> | undefined;
  return drafts.map((draft) => {
    if (draft.role === 'tool') {
      const name = draft.toolCallId === undefined ? undefined : turn?.get(draft.toolCallId);
      return finishMessage(draft, name);
    }
    const calls = draft.toolCalls;
    turn =
      calls === undefined ? undefined : new Map(calls.map((call) => [call.id ?? '', call.name]));
    return finishMessage(draft);
  });
};

/**
 * Reads Chat Completions messages (a request's `messages`, or replies you stored) into our
 * `Message` shape: the inverse of {@link toOpenAIChat}. Never throws on bad input; every problem
 * is reported with its path and the value found
 * (`[3].tool_calls[0].function.arguments: expected a JSON object string, got "{oops"`). Only own
 * properties are read, each once; a hostile list is rejected after at most 1,000 failing entries.
 *
 * How fields are read:
 * - roles `system`, `user`, `assistant`, `tool`; `developer` reads as `system`; the deprecated
 *   `function` role and `function_call` are refused.
 * - `content`: a string as it is; a list of parts as `contentParts` (`text`; `image_url` with an
 *   http(s) URL as an `image_url` part, with a `data:<type>;base64,…` URL as an `image_base64`
 *   part with its `mediaType`; an assistant's `refusal` part as a text part), with `content` the
 *   non-empty texts joined by a space. Each role accepts the part types OpenAI accepts on it, less
 *   audio and files. `null` or absent content is allowed on assistant messages only (`null`,
 *   or the message's `refusal` text when there is one).
 * - `tool_calls` → `toolCalls` (`id`, `name`, and `arguments` parsed into `parameters`; an empty
 *   string reads as `{}`); only `type: 'function'` calls.
 * - `tool_call_id` → `toolCallId` (required on tool messages). `toolName` is restored from the
 *   call the result answers, when that call is in the assistant message that opened its turn.
 * - Other keys (`name`, `audio`, `annotations`, `image_url.detail`, …) are ignored.
 *
 * Round trip: `fromOpenAIChat(toOpenAIChat(messages))` deep-equals `messages` exactly when every
 * message is in the subset the format expresses (checked by the property tests):
 * - tool calls only on assistant messages, each with an id (distinct within the message) and no
 *   `thoughtSignature`;
 * - `toolCallId` on every tool message and on no other; `toolName` only on a tool message whose
 *   call is in the assistant message that opened its turn, and then equal to that call's name;
 * - no `toolResult`, no `imageBase64`;
 * - `content: null` only on an assistant message with tool calls, and no `''` beside tool calls;
 * - `contentParts`, when present: `text` parts with `text`, and on user messages also `image_url`
 *   parts whose `imageUrl` is not a base64 data URL and `image_base64` parts with `imageBase64`
 *   and `mediaType`, each part with only those fields; and `content` equal to the non-empty part
 *   texts joined by a space.
 *
 * @param input - a list of Chat Completions messages (parsed JSON or the client's objects)
 * @returns `Right(messages)` (frozen, canonical), or `Left(MemoryDecodeError)` listing every
 *   problem
 * @example
 * ```ts
 * fromOpenAIChat([
 *   { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }] },
 *   { role: 'tool', tool_call_id: 'c1', content: '1' },
 * ]);
 * // right([{ role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'add', parameters: { a: 1 } }] },
 * //        { role: 'tool', content: '1', toolCallId: 'c1', toolName: 'add' }])
 * fromOpenAIChat([{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{oops' } }] }]);
 * // left(MemoryDecodeError: … [0].tool_calls[0].function.arguments: expected a JSON object string, got "{oops")
 * ```
 */
export const fromOpenAIChat = (input: unknown): E.Either<MemoryDecodeError, Message[]> =>
  publicDecode(API, () => {
    if (!Array.isArray(input)) {
      return fail([
        `(root): expected a list of Chat Completions messages, got ${describeValue(input)}`,
      ]);
    }
    const budget = new ProblemBudget();
    const codec = boundedArray(
      'list of messages',
      chatMessageCodec(budget, TranscriptRole),
      budget,
    );
    const decoded = codec.decode(input);
    if (E.isLeft(decoded)) return codecFailure(API, decoded.left, budget);
    return E.right(finish(decoded.right));
  });
