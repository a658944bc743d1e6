/**
 * OpenAI's prompt cache, by its documented rules: a request's cached tokens are the longest prefix
 * it shares with a recent request (same model and tools), counted only past the first 1,024 tokens
 * and rounded down to a multiple of 128.
 *
 * The rule ({@link openaiPrefixCache}) reads a prompt as a list of parts (messages), each with a
 * key for its content and its size, so the token count is the caller's: the loopback server
 * ({@link openaiPromptCache}) counts a quarter of the characters of `JSON.stringify(messages)`,
 * the text `prompt_tokens` counts, so the cached tokens never pass `prompt_tokens`; the cache
 * benchmark (`bench/cache/`) counts o200k tokens, cached per message.
 *
 * Test support only: it is not part of the library.
 */
import type { ChatRequestBody } from './openaiWire';

/** OpenAI caches prompts of at least this many tokens. */
export const OPENAI_CACHE_MIN_TOKENS = 1024;
/** Cache hits grow in steps of this many tokens. */
export const OPENAI_CACHE_STEP_TOKENS = 128;
/** How many recent requests the cache remembers. */
export const OPENAI_CACHE_RECENT = 64;

const commonPrefix = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};

/**
 * The cached tokens OpenAI would report for `matched` tokens of prefix in common.
 *
 * @example
 * ```ts
 * openaiCachedTokens(1023); // 0
 * openaiCachedTokens(1300); // 1280
 * ```
 */
export const openaiCachedTokens = (matched: number): number =>
  matched < OPENAI_CACHE_MIN_TOKENS
    ? 0
    : Math.floor(matched / OPENAI_CACHE_STEP_TOKENS) * OPENAI_CACHE_STEP_TOKENS;

/**
 * One part of a prompt as the cache compares it (a message, or the text of one).
 *
 * @example
 * ```ts
 * const part: OpenAIPromptPart = { key: 7, through: 1500 };
 * ```
 */
export interface OpenAIPromptPart {
  /** The part's content: two parts are identical exactly when their keys are equal. */
  readonly key: string | number;
  /** The size of the prompt up to and including this part (tokens, or any unit that adds up). */
  readonly through: number;
}

interface Node<Part> {
  readonly part: Part | undefined;
  /** The number of the newest request whose prompt begins with this node's prefix. */
  seen: number;
  readonly children: Map<string | number, Node<Part>>;
}

/**
 * The rule over parts: `matched(key, parts)` answers the size of the longest prefix `parts`
 * shares with one of the {@link OPENAI_CACHE_RECENT} requests before it under the same `key` (the
 * model and tools), then remembers it. Two prompts share every whole part up to the first that
 * differs, then what `shared(part, other)` says those two share at their start (default 0, for
 * parts compared whole). A trie of the recent prompts' parts, so a request costs its length, not
 * the cache's.
 *
 * @param shared - the size two different parts share at their start
 * @example
 * ```ts
 * const cache = openaiPrefixCache();
 * cache.matched('gpt', [{ key: 'a', through: 900 }, { key: 'b', through: 1400 }]); // 0
 * cache.matched('gpt', [{ key: 'a', through: 900 }, { key: 'c', through: 1500 }]); // 900
 * ```
 */
export const openaiPrefixCache = <Part extends OpenAIPromptPart>(
  shared: (part: Part, other: Part) => number = () => 0,
) => {
  const roots = new Map<string, Node<Part>>();
  let count = 0;
  return {
    matched: (key: string, parts: readonly Part[]): number => {
      count++;
      const oldest = count - OPENAI_CACHE_RECENT;
      let root = roots.get(key);
      if (root === undefined) {
        root = { part: undefined, seen: 0, children: new Map() };
        roots.set(key, root);
      }
      let node = root;
      let depth = 0;
      for (; depth < parts.length; depth++) {
        const child = node.children.get((parts[depth] as Part).key);
        if (child === undefined || child.seen < oldest) break;
        node = child;
      }
      const whole = depth === 0 ? 0 : (parts[depth - 1] as Part).through;
      let best = whole;
      const next = parts[depth];
      if (next !== undefined) {
        for (const child of node.children.values()) {
          if (child.seen >= oldest && child.part !== undefined) {
            best = Math.max(best, whole + shared(next, child.part));
          }
        }
      }
      node = root;
      for (const part of parts) {
        let child = node.children.get(part.key);
        if (child === undefined) {
          child = { part, seen: count, children: new Map() };
          node.children.set(part.key, child);
        }
        child.seen = count;
        node = child;
      }
      return best;
    },
  };
};

/**
 * The loopback server's cache: `read(body)` answers the cached tokens of a request, then
 * remembers it. Sizes are characters of `JSON.stringify(body.messages)` (one part per message,
 * with the brackets and commas around it), tokens a quarter of them.
 *
 * @example
 * ```ts
 * const cache = openaiPromptCache();
 * cache.read(body); // 0 the first time
 * ```
 */
export const openaiPromptCache = () => {
  const rule = openaiPrefixCache<OpenAIPromptPart & { readonly text: string }>((a, b) =>
    commonPrefix(a.text, b.text),
  );
  return {
    read: (body: ChatRequestBody): number => {
      const key = JSON.stringify([body.model, body['tools'] ?? null]);
      const texts = body.messages.map(
        (message, i) => (i === 0 ? '[' : ',') + JSON.stringify(message),
      );
      texts.push(texts.length === 0 ? '[]' : ']');
      let through = 0;
      const parts = texts.map((text) => {
        through += text.length;
        return { key: text, text, through };
      });
      return openaiCachedTokens(Math.floor(rule.matched(key, parts) / 4));
    },
  };
};
