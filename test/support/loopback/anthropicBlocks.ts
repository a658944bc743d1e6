/**
 * The shape checks of content blocks (`text`, `image`, `tool_use`, `tool_result`) for the
 * loopback Anthropic server, with the API's error texts and paths (`messages.1.content.0.input`).
 *
 * Test support only: it is not part of the library.
 */
import { type Check, first, isObject, MEDIA_TYPES, own, required, string } from './anthropicCheck';

/** Ids of `tool_use` blocks, as the API checks them. */
const TOOL_ID_PATTERN = /^[a-zA-Z0-9_-]+$/;

const textBlock = (block: Record<string, unknown>, path: string): Check =>
  string(own(block, 'text'), `${path}.text`);

const imageBlock = (block: Record<string, unknown>, path: string): Check => {
  const source = own(block, 'source');
  if (source === undefined) return required(`${path}.source`);
  if (!isObject(source)) return `${path}.source: Input should be a valid dictionary`;
  const kind = own(source, 'type');
  if (kind === 'url') return string(own(source, 'url'), `${path}.source.url`);
  if (kind !== 'base64') {
    return `${path}.source.type: Input tag '${String(kind)}' found using 'type' does not match any of the expected tags: 'base64', 'url'`;
  }
  const media = own(source, 'media_type');
  if (typeof media !== 'string' || !MEDIA_TYPES.includes(media)) {
    return `${path}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  }
  return string(own(source, 'data'), `${path}.source.data`);
};

const toolUseBlock = (block: Record<string, unknown>, path: string): Check =>
  first(
    () => string(own(block, 'id'), `${path}.id`),
    () =>
      TOOL_ID_PATTERN.test(own(block, 'id') as string)
        ? undefined
        : `${path}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`,
    () => string(own(block, 'name'), `${path}.name`),
    () => {
      const input = own(block, 'input');
      if (input === undefined) return required(`${path}.input`);
      return isObject(input) ? undefined : `${path}.input: Input should be a valid dictionary`;
    },
  );

const toolResultBlock = (block: Record<string, unknown>, path: string): Check =>
  first(
    () => string(own(block, 'tool_use_id'), `${path}.tool_use_id`),
    () => {
      const content = own(block, 'content');
      if (content === undefined || typeof content === 'string') return undefined;
      if (!Array.isArray(content)) return `${path}.content: Input should be a valid list`;
      return blocks(content, `${path}.content`, ['text', 'image']);
    },
    () => {
      const isError = own(block, 'is_error');
      return isError === undefined || typeof isError === 'boolean'
        ? undefined
        : `${path}.is_error: Input should be a valid boolean`;
    },
  );

const BLOCKS: Record<string, (block: Record<string, unknown>, path: string) => Check> = {
  text: textBlock,
  image: imageBlock,
  tool_use: toolUseBlock,
  tool_result: toolResultBlock,
};

/** Checks a list of content blocks whose `type` is one of `allowed`. */
export const blocks = (
  list: readonly unknown[],
  path: string,
  allowed: readonly string[],
): Check => {
  for (let i = 0; i < list.length; i++) {
    const block = list[i];
    const at = `${path}.${i}`;
    if (!isObject(block)) return `${at}: Input should be a valid dictionary`;
    const kind = own(block, 'type');
    const check = typeof kind === 'string' && allowed.includes(kind) ? BLOCKS[kind] : undefined;
    if (check === undefined) {
      const tags = allowed.map((tag) => `'${tag}'`).join(', ');
      return `${at}: Input tag '${String(kind)}' found using 'type' does not match any of the expected tags: ${tags}`;
    }
    const found = check(block, at);
    if (found !== undefined) return found;
  }
  return undefined;
};
