import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import type { ProviderResponseError } from '../errors/agentErrors';
import { errorText } from '../util/errorText';
import { BoundedArrayType } from './boundedArray';
import { ProblemBudget } from './budget';
import { chatMessageCodec, type DraftMessage, finishMessage, ReplyRole } from './openaiChatMessage';
import { ownStruct } from './ownStruct';
import { replyFailure, type ProviderReply } from './providerReply';
import { reportErrors } from './report';
import { NullableTokenCount, TokenCount } from './tokenCount';
import type { CompletionUsage } from '../model/completion';

const API = 'fromOpenAIChatCompletion';

/**
 * A model's reply read from a Chat Completions `chat.completion` object.
 *
 * @deprecated Since 0.2.0 both reply decoders return a {@link ProviderReply}; this is its old name.
 * @example
 * ```ts
 * const reply: OpenAIChatReply = { message: { role: 'assistant', content: 'Hi' }, finishReason: 'stop' };
 * ```
 */
export type OpenAIChatReply = ProviderReply;

const fail = (problems: readonly string[], complete: boolean) =>
  replyFailure(API, 'a valid chat.completion', problems, complete);

const PromptTokensDetails = /* @__PURE__ */ ownStruct(
  'prompt_tokens_details object',
  {},
  { cached_tokens: NullableTokenCount },
);

const Usage = /* @__PURE__ */ ownStruct(
  'usage object',
  { prompt_tokens: TokenCount, completion_tokens: TokenCount },
  {
    prompt_tokens_details: /* @__PURE__ */ t.union(
      [PromptTokensDetails, t.null],
      'prompt_tokens_details object or null',
    ),
  },
);

/** The usage as a `CompletionUsage`, or the problem when the cached count is past the prompt's. */
const readUsage = (usage: t.TypeOf<typeof Usage>): CompletionUsage | string => {
  const { prompt_tokens: inputTokens, completion_tokens: outputTokens } = usage;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (cached === undefined || cached === null) return { inputTokens, outputTokens };
  if (cached > inputTokens) {
    return `usage.prompt_tokens_details.cached_tokens: expected at most prompt_tokens (${inputTokens}), got ${cached}`;
  }
  return { inputTokens, cachedInputTokens: cached, outputTokens };
};

const completionCodec = (budget: ProblemBudget) => {
  const choice = /* @__PURE__ */ ownStruct(
    'choice object',
    { message: chatMessageCodec(budget, ReplyRole) },
    { finish_reason: /* @__PURE__ */ t.union([t.string, t.null], 'string or null') },
  );
  // Only the first choice is read (the adapter asks for one); its path is `choices[0]`.
  const choices = new BoundedArrayType<t.TypeOf<typeof choice>>(
    'non-empty list of choices',
    (u): u is t.TypeOf<typeof choice>[] => Array.isArray(u) && u.length > 0,
    (u, c) => {
      if (!Array.isArray(u)) return t.failure(u, c);
      const list = u as readonly unknown[];
      if (list.length === 0)
        return t.failure(u, c, 'expected at least one choice, got an empty list');
      const first = list[0];
      return E.map((decoded: t.TypeOf<typeof choice>) => [decoded])(
        choice.validate(first, t.appendContext(c, '0', choice, first)),
      );
    },
  );
  return /* @__PURE__ */ ownStruct(
    'chat.completion object',
    { choices },
    { usage: /* @__PURE__ */ t.union([Usage, t.null], 'usage object or null') },
  );
};

/**
 * Reads the reply of `client.chat.completions.create(…)` (a `chat.completion` object, parsed
 * JSON or the client's own object): the first choice's message as a `Message` (read as
 * {@link fromOpenAIChat} reads an assistant message: text, tool calls with ids and parsed
 * arguments, a refusal's text as content when there is no content), its `finish_reason`, and the
 * usage (`prompt_tokens` and `completion_tokens`, integers from 0 to 2^53 − 1, the rule of
 * `fromAnthropicReply` too; `null` or absent: none; `prompt_tokens_details.cached_tokens`, when
 * the reply has it, as `cachedInputTokens`, at most `prompt_tokens` since OpenAI's
 * `prompt_tokens` includes the cached tokens). Never throws on bad input: a reply without choices, with a message that is not an
 * assistant message, with arguments that are not a JSON object, or with fields of the wrong type
 * is a `Left(ProviderResponseError)` whose `problems` name the path and the value
 * (`choices[0].message.tool_calls[1].function.arguments: expected a JSON object string, got "{oops"`).
 * An empty reply (`content: null` and no tool calls, as after `finish_reason: 'content_filter'`)
 * is not an error: its message has `content: null`.
 *
 * @param input - the completion object
 * @returns `Right({ message, finishReason, usage? })` or `Left(ProviderResponseError)`, the same
 *   types as `fromAnthropicReply`
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: toOpenAIChat(history) });
 * const reply = fromOpenAIChatCompletion(completion);
 * if (isRight(reply)) memory.add(reply.right.message);
 * ```
 */
export const fromOpenAIChatCompletion = (
  input: unknown,
): E.Either<ProviderResponseError, ProviderReply> => {
  try {
    const budget = new ProblemBudget();
    const decoded = completionCodec(budget).decode(input);
    if (E.isLeft(decoded)) return fail(reportErrors(decoded.left), !budget.exhausted);
    const [choice] = decoded.right.choices;
    const { usage } = decoded.right;
    const read = usage === undefined || usage === null ? undefined : readUsage(usage);
    if (typeof read === 'string') return fail([read], true);
    const reply: ProviderReply = {
      message: finishMessage(choice?.message as DraftMessage),
      finishReason: choice?.finish_reason ?? null,
      ...(read === undefined ? {} : { usage: read }),
    };
    return E.right(reply);
  } catch (error) {
    // A getter or Proxy trap of the input threw while it was read.
    return fail([`(root): could not read the input: ${errorText(error)}`], true);
  }
};
