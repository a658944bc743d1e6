/**
 * The shape checks of the loopback Anthropic server: what the Messages API's request validation
 * rejects before it looks at the conversation (a missing `model`, a `system` role, an unknown
 * block type, an image with an unsupported media type). Each check returns the API's error text
 * (`max_tokens: Field required`) or `undefined`. Paths are written as the API writes them,
 * `messages.2.content.0.input`.
 *
 * Test support only: it is not part of the library.
 */

import { blocks } from './anthropicBlocks';
import { checkCacheControl } from './anthropicCache';
import { type Check, first, isObject, own, required, string } from './anthropicCheck';

/** Tool names, as the API checks them. */
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

const BLOCK_TYPES = ['text', 'image', 'tool_use', 'tool_result'];

const message = (value: unknown, path: string): Check => {
  if (!isObject(value)) return `${path}: Input should be a valid dictionary`;
  const role = own(value, 'role');
  if (role === 'system') {
    return 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.';
  }
  if (role === undefined) return required(`${path}.role`);
  if (role !== 'user' && role !== 'assistant') {
    return `${path}.role: Input should be 'user' or 'assistant'`;
  }
  const content = own(value, 'content');
  if (content === undefined) return required(`${path}.content`);
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return `${path}.content: Input should be a valid list`;
  return blocks(content, `${path}.content`, BLOCK_TYPES);
};

const tools = (value: unknown): Check => {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return 'tools: Input should be a valid list';
  const names = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const tool: unknown = value[i];
    const path = `tools.${i}`;
    if (!isObject(tool)) return `${path}: Input should be a valid dictionary`;
    const name = own(tool, 'name');
    const found = first(
      () => string(name, `${path}.name`),
      () =>
        TOOL_NAME_PATTERN.test(name as string)
          ? undefined
          : `${path}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
      () => {
        const description = own(tool, 'description');
        return description === undefined ? undefined : string(description, `${path}.description`);
      },
      () => {
        const schema = own(tool, 'input_schema');
        if (schema === undefined) return required(`${path}.input_schema`);
        if (!isObject(schema)) return `${path}.input_schema: Input should be a valid dictionary`;
        return own(schema, 'type') === 'object'
          ? undefined
          : `${path}.input_schema.type: Input should be 'object'`;
      },
    );
    if (found !== undefined) return found;
    if (names.has(name as string)) return 'tools: Tool names must be unique.';
    names.add(name as string);
  }
  return undefined;
};

const system = (value: unknown): Check => {
  if (value === undefined || typeof value === 'string') return undefined;
  if (!Array.isArray(value))
    return 'system: Input should be a valid string or a list of text blocks';
  return blocks(value, 'system', ['text']);
};

const maxTokens = (value: unknown): Check => {
  if (value === undefined) return required('max_tokens');
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return 'max_tokens: Input should be a valid integer';
  }
  return value >= 1 ? undefined : 'max_tokens: Input should be greater than or equal to 1';
};

/**
 * Checks the shape of a Messages request body and returns the API's error text for the first
 * problem, or `undefined` when the shape is valid.
 *
 * @param body - the parsed JSON body
 * @returns the error text, or `undefined`
 */
export const checkRequestShape = (body: unknown): Check => {
  if (!isObject(body)) return 'Input should be a valid dictionary';
  return first(
    () => string(own(body, 'model'), 'model'),
    () => maxTokens(own(body, 'max_tokens')),
    () => {
      const messages = own(body, 'messages');
      if (messages === undefined) return required('messages');
      if (!Array.isArray(messages)) return 'messages: Input should be a valid list';
      for (let i = 0; i < messages.length; i++) {
        const found = message(messages[i], `messages.${i}`);
        if (found !== undefined) return found;
      }
      return undefined;
    },
    () => system(own(body, 'system')),
    () => tools(own(body, 'tools')),
    () => checkCacheControl(body),
  );
};
