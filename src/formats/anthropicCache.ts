import { MemoryArgumentError } from '../errors/memoryErrors';
import { readOptionFields } from '../internal/readOptionFields';
import type { CacheBreakpoints } from '../model/promptCache';
import { describeValue } from '../util/describeValue';
import type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicTextBlock,
} from './anthropicTypes';

const API = 'toAnthropic';

/** The most `cache_control` blocks a Messages API request may have. */
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

const fail = (what: string): never => {
  throw new MemoryArgumentError(API, what);
};

/**
 * Reads `toAnthropic`'s `options.cache`: `{ ttl, breakpoints }` (a view's `cache`), the
 * breakpoints distinct indices of `messages`, ascending, at most four. `undefined` (or no
 * options): no breakpoints.
 *
 * @returns the marked indices and their `cache_control`, or `undefined`
 * @internal
 */
export const readAnthropicCache = (
  options: unknown,
  messageCount: number,
):
  { readonly marked: ReadonlySet<number>; readonly control: AnthropicCacheControl } | undefined => {
  const { cache } = readOptionFields(options, ['cache'], API, { example: '{ cache: view.cache }' });
  if (cache === undefined) return undefined;
  const { ttl, breakpoints } = readOptionFields(cache, ['ttl', 'breakpoints', 'key'], API, {
    where: 'options.cache',
    example: "{ ttl: '5m', breakpoints: [0, 3] }",
  }) as Partial<CacheBreakpoints>;
  if (ttl !== '5m' && ttl !== '1h') {
    fail(`options.cache.ttl must be '5m' or '1h', received ${describeValue(ttl)}`);
  }
  if (!Array.isArray(breakpoints)) {
    return fail(
      `options.cache.breakpoints must be an array of message indices, received ${describeValue(breakpoints)}`,
    );
  }
  const list = breakpoints as readonly unknown[];
  if (list.length > ANTHROPIC_MAX_BREAKPOINTS) {
    fail(
      `options.cache.breakpoints may hold at most ${ANTHROPIC_MAX_BREAKPOINTS} indices (the API's limit), received ${list.length}`,
    );
  }
  let previous = -1;
  list.forEach((index, i) => {
    if (!(Number.isSafeInteger(index) && (index as number) > previous)) {
      fail(
        `options.cache.breakpoints[${i}] must be an index of messages after ${previous}, received ${describeValue(index)}`,
      );
    }
    if ((index as number) >= messageCount) {
      fail(
        `options.cache.breakpoints[${i}] must be an index of messages (below ${messageCount}), received ${describeValue(index)}`,
      );
    }
    previous = index as number;
  });
  return {
    marked: new Set(list as readonly number[]),
    control: ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' },
  };
};

/**
 * Where a message's last block went: the index of its Anthropic message in the output and of the
 * block in its content (`-1`: the content's last block).
 *
 * @internal
 */
export interface BlockPlace {
  readonly message: number;
  readonly block: number;
}

/**
 * The messages with `cache_control` on each of `places` (a string content becomes one text
 * block; an empty one has no block to mark and stays as it is). New objects; the input is not
 * changed.
 *
 * @internal
 */
export const markBlocks = (
  messages: readonly AnthropicMessage[],
  places: readonly BlockPlace[],
  control: AnthropicCacheControl,
): AnthropicMessage[] => {
  const out = messages.slice();
  for (const place of places) {
    const message = out[place.message] as AnthropicMessage;
    const content: AnthropicContentBlock[] =
      typeof message.content === 'string'
        ? message.content === ''
          ? []
          : [{ type: 'text', text: message.content }]
        : message.content.slice();
    const at = place.block < 0 ? content.length - 1 : place.block;
    if (at < 0) continue;
    content[at] = { ...(content[at] as AnthropicContentBlock), cache_control: control };
    out[place.message] = { role: message.role, content };
  }
  return out;
};

/**
 * The system texts as text blocks, `cache_control` on those at `marked` (indices in `texts`).
 *
 * @internal
 */
export const systemBlocks = (
  texts: readonly string[],
  marked: ReadonlySet<number>,
  control: AnthropicCacheControl,
): AnthropicTextBlock[] =>
  texts.map((text, i) =>
    marked.has(i) ? { type: 'text', text, cache_control: control } : { type: 'text', text },
  );
