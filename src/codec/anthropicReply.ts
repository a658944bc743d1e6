import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import type { AnthropicTextBlock, AnthropicToolUseBlock } from '../formats/anthropicTypes';
import type { ProviderResponseError } from '../errors/agentErrors';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';
import { registerCanonical } from '../internal/normalizeMessage';
import type { Message, ToolCall } from '../model/message';
import { boundedArray } from './boundedArray';
import { ProblemBudget } from './budget';
import { checkedCodec } from './checkedCodec';
import { JsonObjectCodec } from './jsonCodecs';
import { ownStruct } from './ownStruct';
import { replyFailure, type ProviderReply } from './providerReply';
import { reportErrors } from './report';
import { taggedCodec } from './taggedCodec';
import { NullableTokenCount, TokenCount } from './tokenCount';
import type { CompletionUsage } from '../model/completion';

const API = 'fromAnthropicReply';

const NonEmptyString = /* @__PURE__ */ checkedCodec<string>('non-empty string', (u) =>
  typeof u === 'string' && u !== ''
    ? undefined
    : `expected a non-empty string, got ${describeValue(u)}`,
);

/** A block the Message has no place for (`thinking`, server tool blocks): checked, then skipped. */
interface OtherBlock {
  readonly type: string;
}

type ReplyBlock = AnthropicTextBlock | AnthropicToolUseBlock | OtherBlock;

const replyCodec = (budget: ProblemBudget) => {
  const block = /* @__PURE__ */ taggedCodec<ReplyBlock>(
    'content block object',
    'type',
    {
      text: /* @__PURE__ */ ownStruct(
        'text block object',
        { type: /* @__PURE__ */ t.literal('text'), text: t.string },
        {},
      ),
      tool_use: /* @__PURE__ */ ownStruct(
        'tool_use block object',
        {
          type: /* @__PURE__ */ t.literal('tool_use'),
          id: NonEmptyString,
          name: NonEmptyString,
          input: JsonObjectCodec,
        },
        {},
      ),
    },
    /* @__PURE__ */ ownStruct('content block object', { type: t.string }, {}),
  );
  return /* @__PURE__ */ ownStruct(
    'Anthropic message object',
    {
      type: /* @__PURE__ */ t.literal('message'),
      role: /* @__PURE__ */ t.literal('assistant'),
      content: boundedArray('list of content blocks', block, budget),
    },
    {
      stop_reason: /* @__PURE__ */ t.union([t.string, t.null], 'string or null'),
      usage: /* @__PURE__ */ ownStruct(
        'usage object',
        { input_tokens: TokenCount, output_tokens: TokenCount },
        {
          cache_read_input_tokens: NullableTokenCount,
          cache_creation_input_tokens: NullableTokenCount,
        },
      ),
    },
  );
};

interface ReplyUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
}

/**
 * The usage as a `CompletionUsage`: `inputTokens` is every input token (Anthropic's
 * `input_tokens` leaves out the cached ones, so they are added), or the problem when that sum is
 * past 2^53 − 1.
 */
const readUsage = (usage: ReplyUsage): CompletionUsage | string => {
  const read = usage.cache_read_input_tokens ?? undefined;
  const write = usage.cache_creation_input_tokens ?? undefined;
  const inputTokens = usage.input_tokens + (read ?? 0) + (write ?? 0);
  if (!Number.isSafeInteger(inputTokens)) {
    return `usage: expected input_tokens + cache_read_input_tokens + cache_creation_input_tokens at most 2^53 − 1, got ${describeValue(inputTokens)}`;
  }
  return {
    inputTokens,
    ...(read === undefined ? {} : { cachedInputTokens: read }),
    ...(write === undefined ? {} : { cacheWriteTokens: write }),
    outputTokens: usage.output_tokens,
  };
};

const toMessage = (blocks: readonly ReplyBlock[]): Message => {
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') texts.push((block as AnthropicTextBlock).text);
    else if (block.type === 'tool_use') {
      const { id, name, input } = block as AnthropicToolUseBlock;
      calls.push({ id, name, parameters: input });
    }
  }
  const text = texts.join('');
  if (calls.length === 0) return registerCanonical({ role: 'assistant', content: text });
  return registerCanonical({
    role: 'assistant',
    content: texts.length === 0 ? null : text,
    toolCalls: calls,
  });
};

const fail = (problems: readonly string[], complete: boolean) =>
  replyFailure(API, 'a valid Anthropic message', problems, complete);

/**
 * Reads the reply of `client.messages.create` (a Messages API `Message` object) into one
 * assistant `Message` and the usage, validating it first: a reply from a proxy, a mock or a
 * future API version that is not what it should be gives a `ProviderResponseError` naming the
 * path and the value (`content[1].input: expected a JSON object, got "x"`), never a `TypeError`.
 * Never throws. Only own properties are read, each once.
 *
 * - Text blocks are joined, in order, with nothing between them (the API splits one answer into
 *   several text blocks, e.g. around citations) into `content`.
 * - `tool_use` blocks become `toolCalls` `{ id, name, parameters: input }`; the id and the name
 *   must be non-empty strings, the input a JSON object. With tool calls and no text, `content` is
 *   `null`.
 * - Blocks of other types (`thinking`, `redacted_thinking`, server tool blocks) have no place in a
 *   `Message` and are skipped; they must still be objects with a string `type`.
 * - A reply with no text and no tool call (the API may end a turn with empty content) is an
 *   assistant message with `content: ''`. Note that the API refuses an empty assistant message
 *   anywhere but at the end of a later request.
 * - `stop_reason` (a string or `null`) becomes `finishReason` (`null` when absent).
 * - `usage` (`input_tokens`, `output_tokens`, integers from 0 to 2^53 − 1, the rule of
 *   `fromOpenAIChatCompletion` too) becomes `{ inputTokens, outputTokens }`; a reply without
 *   `usage` has none. `cache_read_input_tokens` and `cache_creation_input_tokens` (counts, or
 *   `null` for none) become `cachedInputTokens` and `cacheWriteTokens`, and are added to
 *   `inputTokens`, which counts every input token as OpenAI's `prompt_tokens` does (Anthropic's
 *   `input_tokens` counts only the tokens after the last cache breakpoint).
 *
 * @param reply - the parsed reply
 * @returns `Right({ message, finishReason, usage? })` or `Left(ProviderResponseError)` listing the
 *   problems (in its message and in `problems`), the same types as `fromOpenAIChatCompletion`
 * @example
 * ```ts
 * fromAnthropicReply({
 *   type: 'message', role: 'assistant',
 *   content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'toolu_1', name: 'calc', input: { expr: '2+2' } }],
 *   usage: { input_tokens: 12, output_tokens: 9 },
 * });
 * // Right({ message: { role: 'assistant', content: 'Let me check.', toolCalls: [{ id: 'toolu_1', name: 'calc', parameters: { expr: '2+2' } }] },
 * //         finishReason: null, usage: { inputTokens: 12, outputTokens: 9 } })
 * ```
 */
export const fromAnthropicReply = (
  reply: unknown,
): E.Either<ProviderResponseError, ProviderReply> => {
  try {
    const budget = new ProblemBudget();
    const decoded = replyCodec(budget).decode(reply);
    if (E.isLeft(decoded)) return fail(reportErrors(decoded.left), !budget.exhausted);
    const { content, usage, stop_reason: stopReason } = decoded.right;
    const read = usage === undefined ? undefined : readUsage(usage);
    if (typeof read === 'string') return fail([read], true);
    const message = toMessage(content);
    const finishReason = stopReason ?? null;
    return E.right(
      read === undefined ? { message, finishReason } : { message, finishReason, usage: read },
    );
  } catch (error) {
    return fail([`(root): could not read the reply: ${errorText(error)}`], true);
  }
};
