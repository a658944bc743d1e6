import type { ContentPart, JsonObject, JsonValue, Message, ToolSpec } from 'conversation-memory';

/** One part of a message in the conventions' JSON schemas (`gen-ai-input-messages.json`). */
type Part = { readonly type: string; readonly [field: string]: JsonValue };

/**
 * A content part as the conventions write it, or none: a part of a known type without its field
 * (a `text` part without `text`) is left out, as the provider formats leave it out of a request;
 * a part of a type the conventions do not name is their GenericPart, kept by its type alone.
 */
const partOf = (part: ContentPart): Part[] => {
  switch (part.type) {
    case 'text':
      return part.text !== undefined ? [{ type: 'text', content: part.text }] : [];
    case 'image_url':
      return part.imageUrl !== undefined
        ? [{ type: 'uri', modality: 'image', uri: part.imageUrl }]
        : [];
    case 'image_base64':
      return part.imageBase64 !== undefined
        ? [
            {
              type: 'blob',
              modality: 'image',
              ...(part.mediaType !== undefined ? { mime_type: part.mediaType } : {}),
              content: part.imageBase64,
            },
          ]
        : [];
    default:
      return [{ type: part.type }];
  }
};

const partsOf = (message: Message): Part[] => {
  if (message.role === 'tool') {
    return [
      {
        type: 'tool_call_response',
        id: message.toolCallId ?? null,
        response: message.content ?? '',
      },
    ];
  }
  // `contentParts` are sent instead of `content`, unless none of them is kept.
  const parts = (message.contentParts ?? []).flatMap(partOf);
  if (parts.length === 0 && message.content !== null && message.content !== '') {
    parts.push({ type: 'text', content: message.content });
  }
  if (message.imageBase64 !== undefined) {
    parts.push({ type: 'blob', modality: 'image', content: message.imageBase64 });
  }
  for (const call of message.toolCalls ?? []) {
    parts.push({
      type: 'tool_call',
      id: call.id ?? null,
      name: call.name,
      arguments: call.parameters,
    });
  }
  return parts;
};

/**
 * `gen_ai.input.messages` as a JSON string (the conventions' form on spans where structured
 * attributes are not supported): each message as `{ role, parts }`, in the order sent. Text is
 * a `text` part (the `contentParts` when any is kept, else `content`), a tool call a `tool_call`
 * part (`id`, `name`, `arguments`), a tool result a `tool_call_response` part (`id`,
 * `response`), an image a `uri` or `blob` part.
 *
 * @param messages - the messages of the model call, as sent
 * @returns the attribute's value
 * @example
 * ```ts
 * inputMessagesJson([userMessage('Hi')]); // '[{"role":"user","parts":[{"type":"text","content":"Hi"}]}]'
 * ```
 */
export const inputMessagesJson = (messages: readonly Message[]): string =>
  JSON.stringify(messages.map((message) => ({ role: message.role, parts: partsOf(message) })));

/**
 * `gen_ai.output.messages` as a JSON string: the reply as one output message. Its required
 * `finish_reason` is inferred from the message, since the hooks do not carry the provider's:
 * `'tool_call'` when it asks for tools, else `'stop'` (a reply cut by a length limit also reads
 * `'stop'`).
 *
 * @param message - the model's reply
 * @returns the attribute's value
 * @example
 * ```ts
 * outputMessagesJson(assistantMessage('Hello')); // '[{"role":"assistant","parts":[{"type":"text","content":"Hello"}],"finish_reason":"stop"}]'
 * ```
 */
export const outputMessagesJson = (message: Message): string =>
  JSON.stringify([
    {
      role: message.role,
      parts: partsOf(message),
      finish_reason: (message.toolCalls?.length ?? 0) > 0 ? 'tool_call' : 'stop',
    },
  ]);

/**
 * `gen_ai.system_instructions` as a JSON string: the system prompt sent apart from the messages,
 * as one `text` part.
 *
 * @param systemPrompt - the call's system prompt (not empty)
 * @returns the attribute's value
 * @example
 * ```ts
 * systemInstructionsJson('Be brief.'); // '[{"type":"text","content":"Be brief."}]'
 * ```
 */
export const systemInstructionsJson = (systemPrompt: string): string =>
  JSON.stringify([{ type: 'text', content: systemPrompt }]);

/**
 * `gen_ai.tool.definitions` as a JSON string: each tool as `{ type: 'function', name,
 * description, parameters }`.
 *
 * @param tools - the tools offered to the model (not empty)
 * @returns the attribute's value
 * @example
 * ```ts
 * toolDefinitionsJson([{ name: 'calc', description: 'Adds', parameters: {} }]);
 * // '[{"type":"function","name":"calc","description":"Adds","parameters":{}}]'
 * ```
 */
export const toolDefinitionsJson = (tools: readonly ToolSpec[]): string =>
  JSON.stringify(
    tools.map(({ name, description, parameters }) => ({
      type: 'function',
      name,
      description,
      parameters,
    })),
  );

/**
 * A tool's arguments or result for `gen_ai.tool.call.arguments` / `.result`: JSON text, as the
 * conventions record an object on spans. A result that is already JSON text (a tool that
 * returned an object is written as JSON) is kept as it is; other text becomes a JSON string.
 *
 * @param value - the arguments object, or the result text the model sees
 * @returns the attribute's value
 * @example
 * ```ts
 * toolValueJson({ city: 'Paris' }); // '{"city":"Paris"}'
 * toolValueJson('{"celsius":18}'); // '{"celsius":18}'
 * toolValueJson('sunny'); // '"sunny"'
 * ```
 */
export const toolValueJson = (value: JsonObject | string): string => {
  if (typeof value !== 'string') return JSON.stringify(value);
  try {
    JSON.parse(value);
    return value;
  } catch {
    return JSON.stringify(value);
  }
};
