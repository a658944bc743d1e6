/**
 * The loopback Anthropic server's prompt cache, by Anthropic's documented rules: the prompt is
 * read in order (tools, system, messages; each tool, system block and content block a block), a
 * `cache_control` on a block marks a breakpoint, and
 *
 * - a request reads from the cache the longest prefix that ends at one of its breakpoints, or at
 *   one of the 20 blocks before a breakpoint (the API's lookback), that an earlier request wrote;
 * - it writes the prefix of each breakpoint past that one that is not cached yet (the tokens
 *   between the read prefix and its last new breakpoint are `cache_creation_input_tokens`);
 * - only prefixes of at least 1,024 tokens are cached;
 * - `input_tokens` is what is left: the tokens after the last breakpoint (or every token when
 *   nothing was read or written).
 *
 * Tokens are the server's deterministic estimate, a quarter of the characters of each block's JSON
 * (without its `cache_control`). A request with no breakpoint keeps the server's plain estimate.
 *
 * Test support only: it is not part of the library.
 */
import type { MessagesRequestBody } from './anthropicReply';

/** Anthropic caches prefixes of at least this many tokens. */
export const ANTHROPIC_CACHE_MIN_TOKENS = 1024;
/** How many blocks before a breakpoint the API looks back for a cached prefix. */
const LOOKBACK = 20;

/** The usage counts of one request's input. */
export interface AnthropicCacheUsage {
  readonly input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly cache_creation_input_tokens: number;
}

interface Block {
  readonly text: string;
  readonly breakpoint: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const block = (value: unknown, prefix = ''): Block => {
  if (!isObject(value)) return { text: prefix + JSON.stringify(value), breakpoint: false };
  const { cache_control: control, ...rest } = value;
  return { text: prefix + JSON.stringify(rest), breakpoint: control !== undefined };
};

/** The prompt's blocks, in the order the API caches them. */
const blocksOf = (request: MessagesRequestBody): Block[] => {
  const body = request as unknown as Record<string, unknown>;
  const out: Block[] = [];
  const tools = body['tools'];
  if (Array.isArray(tools)) for (const tool of tools) out.push(block(tool));
  const system = body['system'];
  if (typeof system === 'string') out.push(block(system));
  else if (Array.isArray(system)) for (const part of system) out.push(block(part));
  for (const message of request.messages) {
    const { content } = message as { content: unknown };
    const parts = Array.isArray(content) ? content : [content];
    parts.forEach((part, i) => out.push(block(part, i === 0 ? `${message.role}:` : '')));
  }
  return out;
};

const tokens = (chars: number): number => Math.ceil(chars / 4);

/** One server's cache: `usage(request)` answers a request's input counts, then writes its breakpoints. */
export const anthropicPromptCache = () => {
  const written = new Set<string>();
  return {
    /** The counts, or `undefined` for a request without a breakpoint. */
    usage: (request: MessagesRequestBody): AnthropicCacheUsage | undefined => {
      const blocks = blocksOf(request);
      if (!blocks.some((b) => b.breakpoint)) return undefined;
      const key = `${request.model}\u0000`;
      const prefixes: string[] = [];
      let text = key;
      for (const b of blocks) {
        text += `${b.text}\u0000`;
        prefixes.push(text);
      }
      const size = (i: number) => tokens((prefixes[i] ?? '').length - key.length);
      const cacheable = (i: number) => size(i) >= ANTHROPIC_CACHE_MIN_TOKENS;
      let read = -1;
      blocks.forEach((b, i) => {
        if (!b.breakpoint) return;
        for (let j = i; j >= Math.max(0, i - LOOKBACK + 1); j--) {
          if (j > read && cacheable(j) && written.has(prefixes[j] ?? '')) read = j;
        }
      });
      let lastNew = -1;
      blocks.forEach((b, i) => {
        if (b.breakpoint && i > read && cacheable(i)) {
          lastNew = i;
          written.add(prefixes[i] ?? '');
        }
      });
      const total = size(blocks.length - 1);
      const readTokens = read < 0 ? 0 : size(read);
      const writeTokens = lastNew < 0 ? 0 : size(lastNew) - readTokens;
      return {
        input_tokens: total - readTokens - writeTokens,
        cache_read_input_tokens: readTokens,
        cache_creation_input_tokens: writeTokens,
      };
    },
  };
};
