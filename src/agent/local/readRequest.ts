import { isConversationMemoryError } from '../../errors/errorBrand';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { cloneJsonObject, NotJsonError } from '../../internal/cloneJson';
import { describeValue } from '../../util/describeValue';
import { errorText } from '../../util/errorText';
import { normalizeMessage } from '../../internal/normalizeMessage';
import { unreadable } from '../../internal/unreadable';
import type { JsonObject, Message } from '../../model/message';

/**
 * Reads a `CompletionRequest` from a possibly hostile caller (a JavaScript object of any shape, a
 * getter or Proxy that throws): each field is read once, every problem becomes a
 * `MemoryArgumentError` naming the field and the value, never a `TypeError`.
 */

/** A request as `LocalProvider` uses it: checked, messages canonical, tools reduced to data. */
export interface LocalRequest {
  readonly model: string;
  readonly systemPrompt: string;
  readonly messages: readonly Message[];
  /** `undefined` when the request sets none. */
  readonly maxTokens: number | undefined;
  readonly tools: readonly LocalToolSpec[];
  readonly signal: LocalSignal | undefined;
}

/** The request's signal as read when the request was checked, and a way to read it again. */
export interface LocalSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Reads the signal again (it may have been aborted since); throws as `readRequest` does. */
  readonly reread: () => LocalSignal;
}

/** A tool of the request: only what the provider reads. */
export interface LocalToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

const bad = (api: string, what: string, cause?: unknown): MemoryArgumentError =>
  new MemoryArgumentError(api, what, cause === undefined ? undefined : { cause });

/** Reads `value[key]` once; a throwing read is a `MemoryArgumentError` naming `path`. */
const read = (value: object, key: string, api: string, path: string): unknown => {
  try {
    return (value as Record<string, unknown>)[key];
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, path);
  }
};

/** `Array.isArray`, which throws for a revoked Proxy, as a `MemoryArgumentError`. */
const isArray = (value: unknown, api: string, path: string): boolean => {
  try {
    return Array.isArray(value);
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, path);
  }
};

const asObject = (value: unknown, api: string, path: string): object => {
  if (typeof value !== 'object' || value === null || isArray(value, api, path)) {
    throw bad(api, `${path} must be an object, received ${describeValue(value)}`);
  }
  return value;
};

const asString = (value: unknown, api: string, path: string): string => {
  if (typeof value !== 'string') {
    throw bad(api, `${path} must be a string, received ${describeValue(value)}`);
  }
  return value;
};

/** The length of a list, read once. */
const listLength = (value: unknown, api: string, path: string): number => {
  if (!isArray(value, api, path))
    throw bad(api, `${path} must be an array, received ${describeValue(value)}`);
  const length = read(value as object, 'length', api, `${path}.length`);
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    throw bad(api, `${path}.length must be a whole number, received ${describeValue(length)}`);
  }
  return length;
};

const readMessages = (value: unknown, api: string): Message[] => {
  const length = listLength(value, api, 'request.messages');
  const messages: Message[] = [];
  for (let i = 0; i < length; i++) {
    const item = read(value as object, String(i), api, `request.messages[${i}]`);
    try {
      messages.push(normalizeMessage(item, api, i));
    } catch (error) {
      // normalizeMessage names the field as `messages[i].…`; the request is what was passed.
      const detail = isConversationMemoryError(error) ? error.detail : errorText(error);
      throw bad(api, `request.${detail}`, error);
    }
  }
  return messages;
};

const readTool = (value: unknown, api: string, path: string): LocalToolSpec => {
  const tool = asObject(value, api, path);
  const name = asString(read(tool, 'name', api, `${path}.name`), api, `${path}.name`);
  const description = asString(
    read(tool, 'description', api, `${path}.description`),
    api,
    `${path}.description`,
  );
  const raw = read(tool, 'parameters', api, `${path}.parameters`);
  try {
    return { name, description, parameters: cloneJsonObject(raw, `${path}.parameters`) };
  } catch (error) {
    if (error instanceof NotJsonError) throw bad(api, error.message, error);
    throw unreadable(error, MemoryArgumentError, api, `${path}.parameters`);
  }
};

const readTools = (value: unknown, api: string): LocalToolSpec[] => {
  if (value === undefined || value === null) return [];
  const length = listLength(value, api, 'request.tools');
  const tools: LocalToolSpec[] = [];
  for (let i = 0; i < length; i++) {
    const path = `request.tools[${i}]`;
    tools.push(readTool(read(value as object, String(i), api, path), api, path));
  }
  return tools;
};

const readMaxTokens = (value: unknown, api: string): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw bad(
      api,
      `request.maxTokens must be a whole number of at least 1, received ${describeValue(value)}`,
    );
  }
  return value;
};

const readSignal = (value: unknown, api: string): LocalRequest['signal'] => {
  if (value === undefined || value === null) return undefined;
  return readSignalObject(asObject(value, api, 'request.signal'), api);
};

const readSignalObject = (signal: object, api: string): LocalSignal => {
  const aborted = read(signal, 'aborted', api, 'request.signal.aborted');
  if (typeof aborted !== 'boolean') {
    throw bad(
      api,
      `request.signal must be an AbortSignal (its aborted must be a boolean, received ${describeValue(aborted)})`,
    );
  }
  return {
    aborted,
    reason: aborted ? read(signal, 'reason', api, 'request.signal.reason') : undefined,
    reread: () => readSignalObject(signal, api),
  };
};

/**
 * Checks a request and returns what `LocalProvider` needs from it. `maxTokens`, `tools` and
 * `signal` may be absent, `undefined` or `null` (not set); other fields are ignored.
 *
 * @param value - the request as passed to `complete`
 * @param api - the API name for errors (`LocalProvider.complete`)
 * @returns the checked request
 * @throws MemoryArgumentError naming the field and the value received
 * @internal
 */
export const readRequest = (value: unknown, api: string): LocalRequest => {
  const request = asObject(value, api, 'request');
  const field = (key: string): unknown => read(request, key, api, `request.${key}`);
  return {
    model: asString(field('model'), api, 'request.model'),
    systemPrompt: asString(field('systemPrompt'), api, 'request.systemPrompt'),
    messages: readMessages(field('messages'), api),
    maxTokens: readMaxTokens(field('maxTokens'), api),
    tools: readTools(field('tools'), api),
    signal: readSignal(field('signal'), api),
  };
};
