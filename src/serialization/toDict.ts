import type { ContentPart, Message, ToolCall } from '../model/message';
import type { MemoryState } from '../model/state';
import type {
  ContentPartDict,
  ExtensionDict,
  MemoryDict,
  MessageDict,
  ToolCallDict,
} from './types';
import { CONFIG_FIELDS, fileKey } from '../internal/configFields';
import { positionsOf } from '../internal/positions';
import { readState } from '../internal/readState';

const toolCallToDict = (call: ToolCall): ToolCallDict => ({
  name: call.name,
  parameters: call.parameters,
  id: call.id ?? null,
  thought_signature: call.thoughtSignature ?? null,
});

const partToDict = (part: ContentPart): ContentPartDict => ({
  type: part.type,
  text: part.text ?? null,
  image_url: part.imageUrl ?? null,
  image_base64: part.imageBase64 ?? null,
  media_type: part.mediaType ?? null,
});

/**
 * One message in the reference's JSON shape (`Message.to_dict()`).
 *
 * @param message - a message
 * @returns all eight snake_case keys, in the reference's order, then `id` and `metadata` only when
 *   the message has them
 * @example
 * ```ts
 * messageToDict(userMessage('hi'));
 * // { role: 'user', content: 'hi', image_base64: null, tool_name: null, tool_result: null,
 * //   tool_calls: null, tool_call_id: null, content_parts: null }
 * ```
 */
export const messageToDict = (message: Message): MessageDict => {
  const dict: MessageDict = {
    role: message.role,
    content: message.content,
    image_base64: message.imageBase64 ?? null,
    tool_name: message.toolName ?? null,
    tool_result: message.toolResult ?? null,
    tool_calls:
      message.toolCalls !== undefined && message.toolCalls.length > 0
        ? message.toolCalls.map(toolCallToDict)
        : null,
    tool_call_id: message.toolCallId ?? null,
    content_parts:
      message.contentParts !== undefined && message.contentParts.length > 0
        ? message.contentParts.map(partToDict)
        : null,
  };
  const { id, metadata } = message;
  if (id === undefined && metadata === undefined) return dict;
  return {
    ...dict,
    ...(id === undefined ? {} : { id }),
    ...(metadata === undefined ? {} : { metadata }),
  };
};

/**
 * Serializes a memory to exactly the JSON the reference's `to_dict()` writes: `max_messages`,
 * `max_tokens`, `message_count`, `messages`, `summary`, in that order. What the reference has no
 * field for (a non-default tokenizer or trimming policy, positions other than 0, 1, 2, …, held
 * messages, summary coverage, the conversation's knowledge, the usage of the calls that left the
 * window) is kept under the `conversation_memory`
 * key, which the reference ignores; so files written here load in Python, and Python's load here.
 * Tool-call parameters and the knowledge are the state's own frozen objects.
 *
 * @param state - the memory
 * @returns a plain JSON value, ready for `JSON.stringify`
 * @example
 * ```ts
 * const json = JSON.stringify(toDict(state));
 * const restored = fromDict(JSON.parse(json)); // Right(state)
 * ```
 */
export const toDict = (state: MemoryState): MemoryDict => {
  state = readState(state, 'toDict');
  const dict: Record<string, unknown> = {};
  // The reference's keys in its order: its config fields (max_messages, max_tokens), always
  // written, then message_count, messages and summary.
  for (const { name, file } of CONFIG_FIELDS) {
    if (file !== 'extension') dict[fileKey(name)] = state.config[name];
  }
  dict['message_count'] = state.messages.length;
  dict['messages'] = state.messages.map(messageToDict);
  dict['summary'] = state.summary;
  const extension = extensionOf(state);
  if (extension !== undefined) dict['conversation_memory'] = extension;
  return dict as unknown as MemoryDict;
};

/** Whether the positions are what a reference file implies: 0, 1, 2, … and nothing after. */
const defaultPositions = (state: MemoryState): boolean => {
  const runs = state.positionRuns;
  if (state.nextPosition !== state.messages.length) return false;
  return runs.length === 0 || (runs.length === 1 && runs[0]?.position === 0);
};

/** What only our extension key can say, or `undefined` when a reference file would say it all. */
const extensionOf = (state: MemoryState): ExtensionDict | undefined => {
  const { config } = state;
  const extension: { -readonly [K in keyof ExtensionDict]: ExtensionDict[K] } = {};
  // The config fields the reference has no key for, each only when it is not the default.
  for (const field of CONFIG_FIELDS) {
    const value = config[field.name];
    if (field.file === 'extension' && value !== field.default) {
      (extension as Record<string, unknown>)[fileKey(field.name)] = value;
    }
  }
  if (!defaultPositions(state) || state.pendingMessages.length > 0) {
    extension.positions = positionsOf(state.positionRuns, state.messages.length);
    extension.next_position = state.nextPosition;
  }
  if (state.pendingMessages.length > 0) {
    extension.pending = state.pendingMessages.map((message, i) => ({
      position: state.pendingPositions[i] as number,
      message: messageToDict(message),
    }));
  }
  if (state.summaryCoverage.length > 0) extension.summary_coverage = state.summaryCoverage;
  if (state.knowledge !== undefined) extension.knowledge = state.knowledge;
  if (state.trimmedUsage !== undefined) extension.trimmed_usage = state.trimmedUsage;
  return Object.keys(extension).length === 0 ? undefined : extension;
};
