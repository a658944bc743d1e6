/**
 * Anthropic's prompt cache, by its documented rules: the prompt is read in order (tools, system,
 * messages; each tool, system block and content block a block), a `cache_control` on a block
 * marks a breakpoint, and
 *
 * - a request reads from the cache the longest prefix that ends at one of its breakpoints, or at
 *   one of the 20 blocks before a breakpoint (the API's lookback), that an earlier request wrote;
 * - it writes the prefix of each breakpoint past that one that is not cached yet (the tokens
 *   between the read prefix and its last new breakpoint are `cache_creation_input_tokens`);
 * - only prefixes of at least 1,024 tokens are cached;
 * - `input_tokens` is what is left: the tokens after the last breakpoint (or every token when
 *   nothing was read or written).
 *
 * The rule ({@link anthropicBlockCache}) reads a prompt as a list of blocks, each with a key for
 * its content and the prompt's size up to it, so the token count is the caller's: the loopback
 * server ({@link anthropicPromptCache}) counts a quarter of the characters of each block's JSON
 * (without its `cache_control`); the cache benchmark (`bench/cache/`) counts o200k tokens, cached
 * per block. A request with no breakpoint keeps the server's plain estimate.
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

/**
 * One block of a request as the API caches it: the tool, system block or content block, the role
 * of the message it begins (its first block only), and whether it has a `cache_control`.
 *
 * @example
 * ```ts
 * const block: RequestBlock = { value: 'Hi', role: 'user', breakpoint: false };
 * ```
 */
export interface RequestBlock {
  /** The block as sent, its `cache_control` left out. */
  readonly value: unknown;
  readonly role: string | undefined;
  readonly breakpoint: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const block = (value: unknown, role?: string): RequestBlock => {
  if (!isObject(value)) return { value, role, breakpoint: false };
  const { cache_control: control, ...rest } = value;
  return { value: rest, role, breakpoint: control !== undefined };
};

/**
 * The request's blocks, in the order the API caches them: tools, system, then each message's
 * content (a string content is one block).
 *
 * @example
 * ```ts
 * requestBlocks({ model: 'claude', max_tokens: 9, messages: [{ role: 'user', content: 'Hi' }] });
 * // [{ value: 'Hi', role: 'user', breakpoint: false }]
 * ```
 */
export const requestBlocks = (request: MessagesRequestBody): RequestBlock[] => {
  const body = request as unknown as Record<string, unknown>;
  const out: RequestBlock[] = [];
  const tools = body['tools'];
  if (Array.isArray(tools)) for (const tool of tools) out.push(block(tool));
  const system = body['system'];
  if (typeof system === 'string') out.push(block(system));
  else if (Array.isArray(system)) for (const part of system) out.push(block(part));
  for (const message of request.messages) {
    const { content } = message as { content: unknown };
    const parts = Array.isArray(content) ? content : [content];
    parts.forEach((part, i) => out.push(block(part, i === 0 ? message.role : undefined)));
  }
  return out;
};

/**
 * One block of a prompt as the cache reads it.
 *
 * @example
 * ```ts
 * const block: AnthropicPromptBlock = { key: 'user:"Hi"', through: 3, breakpoint: true };
 * ```
 */
export interface AnthropicPromptBlock {
  /** The block's content without its `cache_control`: equal keys, identical blocks. */
  readonly key: string | number;
  /** The tokens of the prompt up to and including this block. */
  readonly through: number;
  /** Whether the block has a `cache_control`. */
  readonly breakpoint: boolean;
}

interface Node {
  written: boolean;
  readonly children: Map<string | number, Node>;
}

/**
 * The rule over blocks: `usage(model, blocks)` answers a request's input counts (`undefined`
 * without a breakpoint), then writes its new breakpoints. The prefixes written are kept as a trie
 * of block keys, so a request costs its length.
 *
 * @example
 * ```ts
 * const cache = anthropicBlockCache();
 * const blocks = [{ key: 'system', through: 2000, breakpoint: true }];
 * cache.usage('claude', blocks)?.cache_creation_input_tokens; // 2000
 * cache.usage('claude', blocks)?.cache_read_input_tokens; // 2000
 * ```
 */
export const anthropicBlockCache = () => {
  const roots = new Map<string, Node>();
  return {
    usage: (
      model: string,
      blocks: readonly AnthropicPromptBlock[],
    ): AnthropicCacheUsage | undefined => {
      if (!blocks.some((b) => b.breakpoint)) return undefined;
      let node: Node | undefined = roots.get(model);
      if (node === undefined) {
        node = { written: false, children: new Map() };
        roots.set(model, node);
      }
      const nodes: Node[] = [];
      for (const b of blocks) {
        let child: Node | undefined = node.children.get(b.key);
        if (child === undefined) {
          child = { written: false, children: new Map() };
          node.children.set(b.key, child);
        }
        nodes.push(child);
        node = child;
      }
      const size = (i: number) => (blocks[i] as AnthropicPromptBlock).through;
      const cacheable = (i: number) => size(i) >= ANTHROPIC_CACHE_MIN_TOKENS;
      let read = -1;
      blocks.forEach((b, i) => {
        if (!b.breakpoint) return;
        for (let j = i; j >= Math.max(0, i - LOOKBACK + 1) && j > read; j--) {
          if (cacheable(j) && (nodes[j] as Node).written) read = j;
        }
      });
      let lastNew = -1;
      blocks.forEach((b, i) => {
        if (b.breakpoint && i > read && cacheable(i)) {
          lastNew = i;
          (nodes[i] as Node).written = true;
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

const tokens = (chars: number): number => Math.ceil(chars / 4);

/**
 * The loopback server's cache: `usage(request)` answers a request's input counts, then writes its
 * breakpoints. A block's key is its JSON text (a message's first block after its role); sizes are
 * a quarter of the characters.
 *
 * @example
 * ```ts
 * const cache = anthropicPromptCache();
 * cache.usage(body)?.cache_read_input_tokens; // 0 the first time
 * ```
 */
export const anthropicPromptCache = () => {
  const rule = anthropicBlockCache();
  return {
    /** The counts, or `undefined` for a request without a breakpoint. */
    usage: (request: MessagesRequestBody): AnthropicCacheUsage | undefined => {
      let chars = 0;
      const blocks = requestBlocks(request).map((b) => {
        const text = (b.role === undefined ? '' : `${b.role}:`) + JSON.stringify(b.value);
        chars += text.length + 1;
        return { key: text, through: tokens(chars), breakpoint: b.breakpoint };
      });
      return rule.usage(request.model, blocks);
    },
  };
};
