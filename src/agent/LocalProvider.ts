import { readOptionFields } from '../internal/readOptionFields';
import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { normalizeMessage } from '../internal/normalizeMessage';
import type { Message, ToolCall } from '../model/message';
import { decide, LOCAL_DEFAULT_MAX_TOKENS, type Decision } from './local/decide';
import type { PlannedCall } from './local/directives';
import { readRequest, type LocalRequest } from './local/readRequest';
import { charCount, clip, LOCAL_CHARS_PER_TOKEN, tokensForChars } from './local/text';
import { messageChars, requestChars } from './local/usage';
import { abortReason, streamParts } from './local/streamParts';
import type {
  CompletionRequest,
  CompletionResult,
  CompletionStreamPart,
  Provider,
} from './provider';

export { LOCAL_DEFAULT_MAX_TOKENS } from './local/decide';
export { LOCAL_CALL_DIRECTIVE } from './local/directives';
export { LOCAL_CHARS_PER_TOKEN } from './local/text';

const API = 'LocalProvider.complete';
const STREAM_API = 'LocalProvider.stream';

/**
 * Options of {@link LocalProvider}.
 *
 * @example
 * ```ts
 * const options: LocalProviderOptions = { name: 'demo', defaultModel: 'local-1' };
 * ```
 */
export interface LocalProviderOptions {
  /** The provider's name, for logs and errors. Default `'local'`. */
  readonly name?: string;
  /** The model the agent uses when its config names none. Default `'local-1'`. */
  readonly defaultModel?: string;
}

const textOption = (value: unknown, key: string, fallback: string): string => {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') {
    throw new MemoryArgumentError(
      'new LocalProvider',
      `options.${key} must be a non-empty string, received ${describeValue(value)}`,
    );
  }
  return value;
};

/** Every tool-call id of the request: those of assistant calls and those results quote. */
const usedIds = (messages: readonly Message[]): Set<string> => {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.toolCallId !== undefined) ids.add(message.toolCallId);
    for (const call of message.toolCalls ?? []) if (call.id !== undefined) ids.add(call.id);
  }
  return ids;
};

/**
 * A deterministic, offline {@link Provider}: no network, no randomness, no clock. Given the same
 * sequence of requests, a new instance gives the same replies, tool-call ids included. It is what
 * the demo, the examples and the agent's tests run on.
 *
 * **Rules**, tried in this order; the first that matches gives the reply ("the prompt" is the last
 * message when it is a user message; text is `messageText`: the text parts, else `content`):
 *
 * | # | When | Reply |
 * |---|------|-------|
 * | 0 | `systemPrompt` is the reference's entity or triple extraction system prompt (`ENTITY_EXTRACTION_SYSTEM_PROMPT`, `TRIPLE_EXTRACTION_SYSTEM_PROMPT` of `conversation-memory/knowledge`) | The JSON list that `extractEntitiesLocally` (or `extractTriplesLocally`) finds in the conversation: the last message's text when it is a user message, after the reference's user-prompt template when it starts with it. Items in the reference's keys (`name`, `entity_type`, `attributes`; `subject`, `relation`, `object`, `confidence`, and `valid_from` as `YYYY-MM-DD` when dated), compact, and only the whole items that fit in `maxTokens × 4` characters, so the reply is always valid JSON (`[]` when none). |
 * | 1 | `messages` is empty | A greeting: `Hello! I am MODEL, a local model. Tell me "my name is …", ask "what is my name?", or call a tool with /call NAME {"key": "value"}.` (MODEL is `request.model`, or `defaultModel` when it is `''`) |
 * | 2 | The prompt starts with `Summarize the following conversation excerpt` (the agent's summary request) | A summary of the excerpt (the text after the prompt's first blank line, as `ROLE: content` lines; other lines continue the message above): for each message with non-blank content, `Role: first sentence` (`User`, `Assistant`, `System`, `Tool`; white space squashed; the first sentence ends at the first `.`, `!` or `?` followed by a space or the end; a `.` is added when it has no end mark; clipped to 120 characters), joined with a space. No content at all gives `''`. |
 * | 3 | The messages end with one or more tool results | `NAME returned TEXT.` for each, in the order of the calls of the assistant message before them (by `toolCallId`; unmatched results follow in their order), joined with a space; `NAME returned nothing.` for a blank result. TEXT is clipped to 200 characters. |
 * | 4 | The prompt has lines `/call NAME {json args}` (one call per line; no args means `{}`) | When every line names a tool of `request.tools` and its args are a JSON object: an assistant message with `content: null` and one tool call per line, in order. Otherwise no call at all, and a text with one sentence per wrong line (`Cannot call "x": it is not a tool of this request (offered: calc).`, `… its arguments are not valid JSON (…).`, `… must be a JSON object, not an array.`). |
 * | 5 | The prompt asks `what's my name`, `what is my name`, `whats my name`, `do you know/remember my name` or `who am I` (any case) | `Your name is X.` with the name most recently stated in a user or system message (the `[Conversation Summary] …` message included), else `I don't know your name yet. Tell me with "my name is …".` |
 * | 6 | The prompt states `my name is X` (or `the user's name is X`) | `Nice to meet you, X.` (X: one word, plus up to two more capitalised words, at most 40 characters) |
 * | 7 | Otherwise | `You said: "TEXT". I can see N earlier messages.` (the `You said` part only when the last message is a user message; TEXT clipped to 80 characters; N = the messages before the last, the summary message included), then ` Summary: SUMMARY` (80 characters) when a system message starts with `[Conversation Summary] `. |
 *
 * **Tokens.** One token is counted per 4 characters (Unicode code points), rounded up. A request
 * counts its system prompt, each message's text plus each tool call's name and JSON parameters,
 * and each tool's name, description and JSON parameters (`usage.inputTokens`); the reply counts
 * the same way (`usage.outputTokens`). Every text reply is clipped to `maxTokens × 4`
 * characters (default `maxTokens`: 1024), ending in `…` when cut; tool calls that would count more
 * than `maxTokens` become the text `Cannot call NAME: the calls need N tokens, more than maxTokens
 * (M).`, clipped likewise.
 *
 * **Tool-call ids** are `call_1`, `call_2`, … from a counter of the instance, so they stay unique
 * in a conversation even after memory trims older messages (the same request sent twice gets the
 * same reply with new ids). An id already used by a call or a result in the request is skipped.
 *
 * **Streaming.** `stream(request)` gives the reply `complete` would give, as parts: the text
 * word by word (each `text-delta` one word with the white space after it, the first also with any
 * white space before it, so the deltas joined are the text; no delta for an empty text), then one
 * `tool-call` part per call in order, then `finish` with exactly `complete`'s result. A stream
 * takes its tool-call ids when `stream` is called, as one `complete` call would. The signal is
 * read again before each part: an abort ends the iteration with its reason, and nothing after.
 *
 * **Hostile requests.** `complete` never throws: an invalid request rejects with a
 * `MemoryArgumentError` naming the field and the value (`request.messages[2].role must be one of
 * …`); `maxTokens`, `tools` and `signal` may be absent or `null`. An aborted `signal` rejects with
 * its `reason`. `stream` never throws either: the same errors come from the iteration's first
 * `next()`.
 *
 * @example
 * ```ts
 * const provider = new LocalProvider();
 * const tools = [{ name: 'calc', description: 'Adds', parameters: { type: 'object' } }];
 * const first = await provider.complete({
 *   model: 'local-1',
 *   systemPrompt: '',
 *   messages: [userMessage('/call calc {"a": 2, "b": 2}')],
 *   tools,
 * });
 * first.message.toolCalls; // [{ id: 'call_1', name: 'calc', parameters: { a: 2, b: 2 } }]
 * ```
 */
export class LocalProvider implements Provider {
  readonly name: string;
  readonly defaultModel: string;
  /** The number of the next tool-call id (`call_1` first). */
  private nextCall = 1;

  /**
   * @param options - `name` (default `'local'`) and `defaultModel` (default `'local-1'`)
   * @throws MemoryArgumentError when an option is not a non-empty string
   */
  constructor(options: LocalProviderOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new MemoryArgumentError(
        'new LocalProvider',
        `options must be an object, received ${describeValue(options)}`,
      );
    }
    // Read once: an unknown key, or options that cannot be read (with the cause), are refused.
    const { name, defaultModel } = readOptionFields(
      options,
      ['name', 'defaultModel'],
      'new LocalProvider',
    );
    this.name = textOption(name, 'name', 'local');
    this.defaultModel = textOption(defaultModel, 'defaultModel', 'local-1');
  }

  /**
   * Answers a request by the rules of {@link LocalProvider}. Bound to its instance, so it may be
   * passed around on its own.
   *
   * @param request - the model call
   * @returns the assistant message and the usage
   * @example
   * ```ts
   * const { message } = await new LocalProvider().complete({
   *   model: 'local-1',
   *   systemPrompt: '',
   *   messages: [userMessage('my name is Ada'), assistantMessage('Nice to meet you, Ada.'), userMessage("what's my name?")],
   * });
   * message.content; // 'Your name is Ada.'
   * ```
   */
  readonly complete = async (request: CompletionRequest): Promise<CompletionResult> =>
    this.answer(readRequest(request, API));

  /**
   * Streams the reply `complete` would give to the same request, deterministically: the text word
   * by word (each `text-delta` one word with the white space after it, so the deltas joined are
   * the text), then each tool call as a `tool-call` part, then one `finish` part whose `result` is
   * exactly `complete`'s. The reply is decided when `stream` is called, so a stream uses the
   * tool-call id counter as one `complete` call would, even when it is never read. An invalid
   * request or an aborted `signal` makes the first `next()` throw; an abort between two parts
   * ends the iteration with the signal's reason, and nothing after it. Bound to its instance.
   *
   * @param request - the model call
   * @returns the parts, ending with `finish`
   * @example
   * ```ts
   * const parts = [];
   * for await (const part of new LocalProvider().stream({
   *   model: 'local-1',
   *   systemPrompt: '',
   *   messages: [userMessage('my name is Ada')],
   * })) parts.push(part);
   * parts.map((part) => (part.type === 'text-delta' ? part.text : part.type));
   * // ['Nice ', 'to ', 'meet ', 'you, ', 'Ada.', 'finish']
   * ```
   */
  readonly stream = (request: CompletionRequest): AsyncIterable<CompletionStreamPart> => {
    try {
      const checked = readRequest(request, STREAM_API);
      return streamParts(this.answer(checked), checked.signal);
    } catch (error) {
      return failed(error);
    }
  };

  /** The reply to a checked request, decided at once (ids taken from the counter now). */
  private answer(checked: LocalRequest): CompletionResult {
    if (checked.signal?.aborted === true) throw abortReason(checked.signal);
    const maxTokens = checked.maxTokens ?? LOCAL_DEFAULT_MAX_TOKENS;
    const decision = decide(checked, checked.model === '' ? this.defaultModel : checked.model);
    const message = this.reply(decision, checked, maxTokens);
    return {
      message,
      usage: {
        inputTokens: tokensForChars(requestChars(checked)),
        outputTokens: tokensForChars(messageChars(message)),
      },
    };
  }

  /** The reply message: text clipped to the budget, or calls with fresh ids when they fit. */
  private reply(decision: Decision, request: LocalRequest, maxTokens: number): Message {
    const maxChars = maxTokens * LOCAL_CHARS_PER_TOKEN;
    if (decision.kind === 'text') return textMessage(clip(decision.text, maxChars));
    const needed = tokensForChars(callChars(decision.calls));
    if (needed > maxTokens) {
      const names = decision.calls.map((call) => clip(call.name, 40)).join(', ');
      const why = `Cannot call ${names}: the calls need ${needed} tokens, more than maxTokens (${maxTokens}).`;
      return textMessage(clip(why, maxChars));
    }
    const used = usedIds(request.messages);
    const toolCalls: ToolCall[] = decision.calls.map((call) => ({
      id: this.freshId(used),
      name: call.name,
      parameters: call.parameters,
    }));
    return normalizeMessage({ role: 'assistant', content: null, toolCalls }, API);
  }

  /** The next `call_N` not used in the request. */
  private freshId(used: ReadonlySet<string>): string {
    let id: string;
    do id = `call_${this.nextCall++}`;
    while (used.has(id));
    return id;
  }
}

/** An iteration whose first `next()` throws `error`. */
// eslint-disable-next-line require-yield -- it only throws
async function* failed(error: unknown): AsyncGenerator<CompletionStreamPart, void, undefined> {
  throw error;
}

const textMessage = (content: string): Message =>
  normalizeMessage({ role: 'assistant', content }, API);

/** The characters tool calls count: each name and its parameters as JSON. */
const callChars = (calls: readonly PlannedCall[]): number => {
  let total = 0;
  for (const call of calls)
    total += charCount(call.name) + charCount(JSON.stringify(call.parameters));
  return total;
};
