/**
 * The loopback OpenAI server's prompt cache, by OpenAI's documented rules: a request's cached
 * tokens are the longest prefix it shares with a recent request (same model and tools), counted
 * only past the first 1,024 tokens and rounded down to a multiple of 128. Tokens are the server's
 * deterministic estimate (a quarter of the characters of `JSON.stringify(messages)`, the text
 * `prompt_tokens` counts), so the cached tokens never pass `prompt_tokens`.
 *
 * Test support only: it is not part of the library.
 */
import type { ChatRequestBody } from './openaiWire';

/** OpenAI caches prompts of at least this many tokens. */
export const OPENAI_CACHE_MIN_TOKENS = 1024;
/** Cache hits grow in steps of this many tokens. */
export const OPENAI_CACHE_STEP_TOKENS = 128;
/** How many recent requests the cache remembers. */
const RECENT = 64;

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

/** One server's cache: `read(body)` answers the cached tokens of a request, then remembers it. */
export const openaiPromptCache = () => {
  const recent: { readonly key: string; readonly text: string }[] = [];
  return {
    read: (body: ChatRequestBody): number => {
      const key = JSON.stringify([body.model, body['tools'] ?? null]);
      const text = JSON.stringify(body.messages);
      let best = 0;
      for (const entry of recent) {
        if (entry.key === key) best = Math.max(best, commonPrefix(entry.text, text));
      }
      recent.push({ key, text });
      if (recent.length > RECENT) recent.shift();
      return openaiCachedTokens(Math.floor(best / 4));
    },
  };
};
