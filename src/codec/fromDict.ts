import { either as E } from 'fp-ts';
import { fixToolPairBoundary } from '../core/fixToolPairBoundary';
import { MemoryDecodeError } from '../errors/errorClasses';
import { registerCanonical } from '../internal/normalizeMessage';
import { makeState } from '../internal/window';
import { DEFAULT_CONFIG, type MemoryConfig, type TokenizerName } from '../model/config';
import type { ContentPart, Message, ToolCall } from '../model/message';
import type { MemoryState } from '../model/state';
import { countMessageTokens } from '../tokens/registry';
import { decodeConfigFor } from './decodeConfig';
import { EXTENSION_KEY, PersistedMemory } from './persisted';
import type * as t from 'io-ts';
import type { PersistedContentPart, PersistedMessage, PersistedToolCall } from './persisted';
import { reportErrors } from './report';

/**
 * Options for {@link fromDict}.
 *
 * @example
 * ```ts
 * const options: FromDictOptions = { tokenizer: 'heuristic' };
 * ```
 */
export interface FromDictOptions {
  /**
   * The tokenizer to count the loaded messages with. Default: the one the file names under
   * `conversation_memory.tokenizer`, else `'o200k_base'`.
   */
  readonly tokenizer?: TokenizerName;
}

const API = 'fromDict';

/** Sets `key` on `target` only when the value is present (not `null`/`undefined`). */
const setIf = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (value !== null && value !== undefined) target[key] = value;
};

const toToolCall = (raw: t.TypeOf<typeof PersistedToolCall>): ToolCall => {
  const call: Record<string, unknown> = {};
  setIf(call, 'id', raw.id);
  call['name'] = raw.name;
  call['parameters'] = raw.parameters ?? Object.freeze({});
  setIf(call, 'thoughtSignature', raw.thought_signature);
  return call as unknown as ToolCall;
};

const toPart = (raw: t.TypeOf<typeof PersistedContentPart>): ContentPart => {
  const part: Record<string, unknown> = { type: raw.type };
  setIf(part, 'text', raw.text);
  setIf(part, 'imageUrl', raw.image_url);
  setIf(part, 'imageBase64', raw.image_base64);
  setIf(part, 'mediaType', raw.media_type);
  return part as unknown as ContentPart;
};

/** The reference's `Message.from_dict`: missing content is `""`, explicit `null` stays `null`. */
const toMessage = (raw: t.TypeOf<typeof PersistedMessage>): Message => {
  const message: Record<string, unknown> = {
    role: raw.role,
    content: raw.content === undefined ? '' : raw.content,
  };
  if (raw.tool_calls && raw.tool_calls.length > 0)
    message['toolCalls'] = raw.tool_calls.map(toToolCall);
  setIf(message, 'toolCallId', raw.tool_call_id);
  setIf(message, 'toolName', raw.tool_name);
  setIf(message, 'toolResult', raw.tool_result);
  setIf(message, 'imageBase64', raw.image_base64);
  if (raw.content_parts && raw.content_parts.length > 0) {
    message['contentParts'] = raw.content_parts.map(toPart);
  }
  return registerCanonical(message as unknown as Message);
};

const fail = (problems: readonly string[]): E.Either<MemoryDecodeError, never> =>
  E.left(new MemoryDecodeError(API, problems));

/**
 * Loads a memory from the reference's JSON (`to_dict()` output, from Python or from
 * {@link toDict}), validating everything first. Never throws.
 *
 * As the reference: the limits are **not** re-applied (a file over its limits loads as it is; the
 * next add trims it), the tool-pair boundary **is** fixed, `message_count` is ignored, a missing
 * `content` reads as `""`. Unlike the reference: invalid limits (`max_messages: 0`) are rejected,
 * and every problem is reported with its path (`messages[3].role: expected "user" | "assistant" |
 * "system" | "tool", got "USER"`). Token counts are computed afresh with the chosen tokenizer.
 * Keys such as `__proto__` are kept as plain data and pollute nothing.
 *
 * @param input - parsed JSON (e.g. `JSON.parse(text)`)
 * @param options - `tokenizer` to count with
 * @returns `Right(state)` or `Left(MemoryDecodeError)` listing every problem
 * @example
 * ```ts
 * const result = fromDict(JSON.parse(fs.readFileSync('conversation.json', 'utf8')));
 * if (isRight(result)) getHistory(result.right);
 * ```
 */
export const fromDict = (
  input: unknown,
  options: FromDictOptions = {},
): E.Either<MemoryDecodeError, MemoryState> => {
  const decoded = PersistedMemory.decode(input);
  if (E.isLeft(decoded)) return fail(reportErrors(decoded.left));
  const data = decoded.right;
  const tokenizer = options.tokenizer ?? data[EXTENSION_KEY]?.tokenizer ?? DEFAULT_CONFIG.tokenizer;
  const config = decodeConfigFor(
    { maxMessages: data.max_messages, maxTokens: data.max_tokens ?? null, tokenizer },
    API,
  );
  if (E.isLeft(config)) return fail(config.left.problems);
  return E.right(restore(config.right, data));
};

const restore = (config: MemoryConfig, data: t.TypeOf<typeof PersistedMemory>): MemoryState => {
  const messages = (data.messages ?? []).map(toMessage);
  const counts = messages.map((message) => countMessageTokens(config.tokenizer, message));
  let total = 0;
  for (const count of counts) total += count;
  const state = makeState(config, messages, counts, total, data.summary ?? null);
  return fixToolPairBoundary(state).state;
};
