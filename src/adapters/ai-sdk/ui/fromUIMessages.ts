import { either as E } from 'fp-ts';
import {
  MemoryDecodeError,
  type ContentPart,
  type JsonObject,
  type Message,
  type ToolCall,
} from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import {
  isJson,
  isKeptPart,
  isToolPart,
  toolNameOf,
  UI_KEY,
  without,
  type UIRecord,
} from './uiPartShapes';

const API = 'fromUIMessages';
/** The most UI messages one call reads, and the most parts one message has. */
const MAX_MESSAGES = 100_000;
const MAX_PARTS = 10_000;
/** The longest id a UI message or a tool call may have. */
const MAX_ID = 256;
/** The most problems listed (the count goes on to {@link MAX_COUNTED}). */
const MAX_LISTED = 20;
const MAX_COUNTED = 1_000;

type Part = Readonly<Record<string, unknown>>;

/** A data URL's base64 payload and media type, or `undefined`. */
const dataUrl = (url: string): { mediaType: string; data: string } | undefined => {
  const match = /^data:([^;,]+);base64,([A-Za-z0-9+/=]*)$/.exec(url);
  return match === null ? undefined : { mediaType: match[1] as string, data: match[2] as string };
};

/** The problems found so far, and a way to add one at a path. */
class Problems {
  readonly list: string[] = [];
  count = 0;
  add(path: string, text: string, value?: unknown): void {
    this.count++;
    if (this.list.length < MAX_LISTED) {
      this.list.push(
        `${path}: ${text}${arguments.length > 2 ? `, got ${describeValue(value)}` : ''}`,
      );
    }
  }
  get full(): boolean {
    return this.count >= MAX_COUNTED;
  }
}

/** The step being read of an assistant UI message: what its assistant message will hold. */
interface Step {
  texts: string[];
  calls: ToolCall[];
  results: Message[];
  parts: JsonObject[];
}

const newStep = (): Step => ({ texts: [], calls: [], results: [], parts: [] });

const isText = (value: unknown, max = Infinity): value is string =>
  typeof value === 'string' && value.length <= max;

/** The messages of one step, with the UI message's id (and its metadata on the first). */
const stepMessages = (step: Step, id: string, record: Partial<UIRecord>): Message[] => {
  const ui: UIRecord = { ...record, parts: step.parts };
  const content =
    step.texts.length === 0 ? (step.calls.length > 0 ? null : '') : step.texts.join('');
  const assistant: Message = {
    role: 'assistant',
    content,
    ...(step.texts.length > 1
      ? { contentParts: step.texts.map((text): ContentPart => ({ type: 'text', text })) }
      : {}),
    ...(step.calls.length > 0 ? { toolCalls: step.calls } : {}),
    id,
    metadata: { [UI_KEY]: ui as unknown as JsonObject },
  };
  return [assistant, ...step.results];
};

/** Reads one tool part into the step (its call, and its result when it has one). */
const readToolPart = (
  part: Part,
  path: string,
  id: string,
  step: Step,
  problems: Problems,
): void => {
  const state = part['state'];
  const toolCallId = part['toolCallId'];
  const name = toolNameOf(part);
  if (!isText(toolCallId, MAX_ID) || toolCallId === '') {
    problems.add(
      `${path}.toolCallId`,
      `expected a non-empty string of at most ${MAX_ID} characters`,
      toolCallId,
    );
    return;
  }
  if (name === '' || name.length > MAX_ID) {
    problems.add(`${path}.type`, 'expected a tool name of 1 to 256 characters', part['type']);
    return;
  }
  if (state === 'input-streaming') {
    problems.add(`${path}.state`, 'the tool call is incomplete (still streaming its input)', state);
    return;
  }
  if (state !== 'input-available' && state !== 'output-available' && state !== 'output-error') {
    problems.add(
      `${path}.state`,
      'expected input-available, output-available or output-error (approvals are answered before a conversation is kept)',
      state,
    );
    return;
  }
  const input = part['input'];
  if (typeof input !== 'object' || input === null || Array.isArray(input) || !isJson(input)) {
    problems.add(`${path}.input`, 'expected a JSON object (the arguments of the call)', input);
    return;
  }
  step.calls.push({ id: toolCallId, name, parameters: input as JsonObject });
  const placeholder = without(part, ['input', 'output', 'errorText']);
  if (state === 'input-available') {
    step.parts.push(placeholder);
    return;
  }
  let content: string;
  let encoding: JsonObject = {};
  if (state === 'output-error') {
    const errorText = part['errorText'];
    if (!isText(errorText)) {
      problems.add(`${path}.errorText`, 'expected a string', errorText);
      return;
    }
    content = errorText;
  } else {
    const output = part['output'];
    if (output === undefined || !isJson(output)) {
      problems.add(`${path}.output`, 'expected a JSON value', output);
      return;
    }
    content = typeof output === 'string' ? output : JSON.stringify(output);
    if (typeof output !== 'string') encoding = { outputEncoding: 'json' };
  }
  step.parts.push({ ...placeholder, ...encoding });
  step.results.push({
    role: 'tool',
    content,
    toolCallId,
    toolName: name,
    id,
    ...(state === 'output-error' ? { metadata: { isError: true } } : {}),
  });
};

/** One UI message's parts as the messages it becomes (`problems` gets what is wrong). */
const readMessage = (value: unknown, path: string, problems: Problems): Message[] => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.add(path, 'expected a UI message { id, role, parts }', value);
    return [];
  }
  const message = value as Part;
  const { id, role, parts, metadata } = message as {
    id?: unknown;
    role?: unknown;
    parts?: unknown;
    metadata?: unknown;
  };
  const before = problems.count;
  if (!isText(id, MAX_ID) || id === '') {
    problems.add(`${path}.id`, `expected a non-empty string of at most ${MAX_ID} characters`, id);
  }
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    problems.add(`${path}.role`, "expected 'user', 'assistant' or 'system'", role);
  }
  if (metadata !== undefined && !isJson(metadata)) {
    problems.add(`${path}.metadata`, 'expected JSON', metadata);
  }
  if (!Array.isArray(parts) || parts.length > MAX_PARTS) {
    problems.add(`${path}.parts`, `expected an array of at most ${MAX_PARTS} parts`, parts);
  }
  if (problems.count > before) return [];
  const record: Partial<UIRecord> =
    metadata === undefined ? {} : { metadata: metadata as JsonObject };
  const steps: Step[] = [newStep()];
  let step = steps[0] as Step;
  const images: ContentPart[] = [];
  (parts as unknown[]).forEach((raw, k) => {
    const at = `${path}.parts[${k}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !isJson(raw)) {
      problems.add(at, 'expected a JSON object part', raw);
      return;
    }
    const part = raw as Part;
    const type = part['type'];
    if (typeof type !== 'string') {
      problems.add(`${at}.type`, 'expected a string', type);
      return;
    }
    if (
      type === 'step-start' &&
      role === 'assistant' &&
      (step.parts.length > 0 || steps.length > 1)
    ) {
      step = newStep();
      steps.push(step);
    }
    if (type === 'text') {
      if (!isText(part['text']))
        return problems.add(`${at}.text`, 'expected a string', part['text']);
      step.texts.push(part['text']);
      step.parts.push(without(part, ['text']));
    } else if (type === 'file') {
      const { url, mediaType } = part as { url?: unknown; mediaType?: unknown };
      if (!isText(url) || !isText(mediaType)) {
        return problems.add(at, 'expected a file part with a url and a mediaType', part);
      }
      if (role === 'user' && mediaType.startsWith('image/')) {
        const inline = dataUrl(url);
        images.push(
          inline === undefined
            ? { type: 'image_url', imageUrl: url, mediaType }
            : { type: 'image_base64', imageBase64: inline.data, mediaType },
        );
        step.parts.push(without(part, ['url']));
      } else step.parts.push(without(part, []));
    } else if (isToolPart(type)) {
      if (role !== 'assistant')
        return problems.add(`${at}.type`, 'a tool part belongs to an assistant message', type);
      readToolPart(part, at, id as string, step, problems);
    } else if (isKeptPart(type)) {
      step.parts.push(without(part, []));
    } else {
      problems.add(`${at}.type`, 'expected a UI message part type', type);
    }
  });
  if (problems.count > before) return [];
  if (role !== 'assistant') {
    const only = steps[0] as Step;
    const texts = only.texts;
    const withImages = images.length > 0 || texts.length > 1;
    // Text and images in the order the parts have them.
    const contentParts: ContentPart[] = [];
    let t = 0;
    let i = 0;
    for (const placeholder of only.parts) {
      if (placeholder['type'] === 'text')
        contentParts.push({ type: 'text', text: texts[t++] as string });
      if (placeholder['type'] === 'file' && !('url' in placeholder))
        contentParts.push(images[i++] as ContentPart);
    }
    return [
      {
        role: role as 'user' | 'system',
        content: texts.join(''),
        ...(withImages ? { contentParts } : {}),
        id: id as string,
        metadata: { [UI_KEY]: { ...record, parts: only.parts } as unknown as JsonObject },
      },
    ];
  }
  return steps.flatMap((s, k) => stepMessages(s, id as string, k === 0 ? record : {}));
};

/**
 * Converts the AI SDK's `UIMessage`s (what `useChat` sends and keeps: `{ id, role, metadata?,
 * parts }`, AI SDK 6) to our messages, reading them as untrusted input: anything that is not a
 * UI message gives `Left(MemoryDecodeError)` listing each problem with its path and value
 * (`messages[0].parts[2].state: the tool call is incomplete (still streaming its input), got
 * "input-streaming"`); it never throws.
 *
 * - `text` parts are the message's text (`content`; several, or text with images, also as
 *   `contentParts`).
 * - A `file` part of a user or system message with an `image/*` type is an image content part
 *   (`image_base64` from a base64 data URL, else `image_url`); other files, and every file of an
 *   assistant, are kept in metadata only.
 * - An assistant message becomes one assistant message per step (`step-start` parts divide them)
 *   holding the step's text and tool calls, each followed by one tool message per answered call:
 *   `input-available` is a call (unanswered), `output-available` a call and its result (an
 *   output that is not a string is sent as its JSON), `output-error` a call and its result with
 *   `metadata.isError: true`; `input-streaming` is refused (incomplete), and so are the approval
 *   states (answer them first). A tool's input must be a JSON object.
 * - `reasoning`, `source-url`, `source-document`, `data-*` and `step-start` parts are kept in
 *   metadata and never sent to a model.
 * - Every message made from a UI message has its `id`; `metadata.ui` keeps the UI message's
 *   metadata and the parts' order and fields, so `toUIMessages` gives the same UI message back.
 *
 * @param messages - the UI messages, oldest first
 * @returns the messages, or why not
 * @example
 * ```ts
 * const result = fromUIMessages([{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }]);
 * if (result._tag === 'Right') result.right[0]?.content; // 'hi'
 * ```
 */
export const fromUIMessages = (messages: unknown): E.Either<MemoryDecodeError, Message[]> => {
  const problems = new Problems();
  try {
    return readAll(messages, problems);
  } catch (error) {
    // A value that cannot be read (a revoked Proxy, a throwing getter) is a problem, not a throw.
    problems.add('messages', `could not be read (${String((error as Error)?.message ?? error)})`);
    return E.left(new MemoryDecodeError(API, problems.list));
  }
};

/** {@link fromUIMessages}, which may throw on a value that cannot be read. */
const readAll = (messages: unknown, problems: Problems): E.Either<MemoryDecodeError, Message[]> => {
  if (!Array.isArray(messages) || messages.length > MAX_MESSAGES) {
    problems.add('messages', `expected an array of at most ${MAX_MESSAGES} UI messages`, messages);
    return E.left(new MemoryDecodeError(API, problems.list));
  }
  const out: Message[] = [];
  for (let i = 0; i < messages.length && !problems.full; i++) {
    out.push(...readMessage(messages[i], `messages[${i}]`, problems));
  }
  return problems.count > 0
    ? E.left(
        new MemoryDecodeError(API, problems.list, {
          problemCount: problems.count,
          countComplete: !problems.full,
        }),
      )
    : E.right(out);
};
