import type { UIMessage } from 'ai';
import type { JsonObject, JsonValue, Message } from 'conversation-memory';
import { UI_KEY, type UIRecord } from './uiPartShapes';

type UIPart = UIMessage['parts'][number];

/** The `metadata.ui` record `fromUIMessages` left on a message, if it has one. */
const recordOf = (message: Message): UIRecord | undefined => {
  const ui = message.metadata?.[UI_KEY];
  if (typeof ui !== 'object' || ui === null || Array.isArray(ui)) return undefined;
  const parts = (ui as JsonObject)['parts'];
  return Array.isArray(parts) ? (ui as unknown as UIRecord) : undefined;
};

/** A message's text pieces, in order: its text content parts, else its content. */
const textsOf = (message: Message): string[] => {
  const parts = message.contentParts?.filter((part) => part.type === 'text');
  if (parts !== undefined && parts.length > 0) return parts.map((part) => part.text ?? '');
  return message.content === null || message.content === '' ? [] : [message.content];
};

/** A message's images as the `file` parts' URLs, in order. */
const imageUrlsOf = (message: Message): { url: string; mediaType: string }[] =>
  (message.contentParts ?? []).flatMap((part) => {
    if (part.type === 'image_url' && part.imageUrl !== undefined) {
      return [{ url: part.imageUrl, mediaType: part.mediaType ?? 'image/*' }];
    }
    if (part.type === 'image_base64' && part.imageBase64 !== undefined) {
      const mediaType = part.mediaType ?? 'image/png';
      return [{ url: `data:${mediaType};base64,${part.imageBase64}`, mediaType }];
    }
    return [];
  });

/** The tool part of a call: its state from its result (none, an error, an output). */
const toolPart = (
  placeholder: JsonObject | undefined,
  call: { id?: string; name: string; parameters: JsonObject },
  result: Message | undefined,
): UIPart => {
  const base: Record<string, unknown> = placeholder ?? {
    type: `tool-${call.name}`,
    toolCallId: call.id ?? '',
  };
  const { outputEncoding, ...fields } = base;
  if (result === undefined)
    return { ...fields, state: 'input-available', input: call.parameters } as UIPart;
  const text = result.content ?? '';
  if (result.metadata?.['isError'] === true) {
    return { ...fields, state: 'output-error', input: call.parameters, errorText: text } as UIPart;
  }
  let output: JsonValue = text;
  if (outputEncoding === 'json') {
    try {
      output = JSON.parse(text) as JsonValue;
    } catch {
      output = text;
    }
  }
  return { ...fields, state: 'output-available', input: call.parameters, output } as UIPart;
};

/** The parts of one message of a group (with the tool results of the group, by call id). */
const partsOf = (message: Message, results: ReadonlyMap<string, Message>): UIPart[] => {
  const calls = [...(message.toolCalls ?? [])];
  const texts = textsOf(message);
  const images = imageUrlsOf(message);
  const record = recordOf(message);
  if (record === undefined) {
    // A message of the memory's own (an agent's reply): the parts the AI SDK streams for it.
    const assistant = message.role === 'assistant';
    return [
      ...(assistant ? [{ type: 'step-start' } as UIPart] : []),
      ...texts.map(
        (text) =>
          (assistant ? { type: 'text', text, state: 'done' } : { type: 'text', text }) as UIPart,
      ),
      ...images.map(({ url, mediaType }) => ({ type: 'file', url, mediaType }) as UIPart),
      ...calls.map((call) => toolPart(undefined, call, results.get(call.id ?? ''))),
    ];
  }
  const parts: UIPart[] = [];
  for (const placeholder of record.parts) {
    const type = String(placeholder['type']);
    if (type === 'text' && !('text' in placeholder)) {
      parts.push({ ...placeholder, text: texts.shift() ?? '' } as UIPart);
    } else if (type === 'file' && !('url' in placeholder)) {
      parts.push({ ...placeholder, url: images.shift()?.url ?? '' } as UIPart);
    } else if (
      (type.startsWith('tool-') || type === 'dynamic-tool') &&
      !('state' in placeholder && 'input' in placeholder)
    ) {
      const at = calls.findIndex((call) => call.id === placeholder['toolCallId']);
      const call = at < 0 ? undefined : calls.splice(at, 1)[0];
      if (call !== undefined) parts.push(toolPart(placeholder, call, results.get(call.id ?? '')));
    } else parts.push(placeholder as unknown as UIPart);
  }
  // What the message holds beyond its record (changed since): shown after it.
  for (const text of texts) parts.push({ type: 'text', text } as UIPart);
  for (const call of calls) parts.push(toolPart(undefined, call, results.get(call.id ?? '')));
  return parts;
};

/** The UI metadata of a group: the record's, else `{ interrupted: true }` for a cut reply. */
const metadataOf = (group: readonly Message[]): JsonValue | undefined => {
  const record = group.map(recordOf).find((r) => r !== undefined && 'metadata' in r);
  if (record !== undefined) return record.metadata;
  return group.some((m) => m.metadata?.['interrupted'] === true)
    ? { interrupted: true }
    : undefined;
};

/**
 * Converts our messages to the AI SDK's `UIMessage`s, for `useChat({ messages })` (a page's first
 * render of a stored conversation). The inverse of `fromUIMessages`: the messages it made give
 * back the same UI messages (the ids, the metadata, every part in its order and with its fields).
 *
 * The memory's own messages (an agent's replies and tool results) become what the AI SDK streams
 * for them: a run of assistant and tool messages with the same `id` is one assistant UI message
 * with a `step-start` part before each model call's text (`state: 'done'`) and tool parts
 * (`output-available`, `output-error` for a result with `metadata.isError: true`, or
 * `input-available` for a call with no result); a tool result always joins the assistant message
 * before it. A message without an `id` gets `msg-<index>` (its index in `messages`). The UI
 * message's metadata is what `fromUIMessages` kept, else `{ interrupted: true }` for a reply that
 * was cut short (the agent's `metadata.interrupted`), else none. System messages are kept as
 * system UI messages.
 *
 * @param messages - the messages, oldest first (`getHistory(state)`, a session's, a stream's)
 * @returns the UI messages
 * @example
 * ```ts
 * toUIMessages([userMessage('hi')]); // [{ id: 'msg-0', role: 'user', parts: [{ type: 'text', text: 'hi' }] }]
 * ```
 */
export const toUIMessages = (messages: readonly Message[]): UIMessage[] => {
  const groups: { first: number; messages: Message[] }[] = [];
  messages.forEach((message, index) => {
    const last = groups.at(-1);
    const lastRole = last?.messages[0]?.role;
    const joins =
      last !== undefined &&
      lastRole === 'assistant' &&
      (message.role === 'tool' ||
        (message.role === 'assistant' &&
          message.id !== undefined &&
          message.id === last.messages[0]?.id));
    if (joins) last.messages.push(message);
    else groups.push({ first: index, messages: [message] });
  });
  return groups.map(({ first, messages: group }) => {
    const head = group[0] as Message;
    const results = new Map(
      group.filter((m) => m.role === 'tool').map((m) => [m.toolCallId ?? '', m] as const),
    );
    const role = head.role === 'tool' ? 'assistant' : head.role;
    const parts = group.filter((m) => m.role !== 'tool').flatMap((m) => partsOf(m, results));
    const metadata = metadataOf(group);
    return {
      id: head.id ?? `msg-${first}`,
      role,
      ...(metadata === undefined ? {} : { metadata }),
      parts,
    } as UIMessage;
  });
};
