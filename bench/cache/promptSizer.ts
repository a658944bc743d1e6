/**
 * The cache benchmark's view of a request: the parts (OpenAI) and blocks (Anthropic) the prompt
 * caches of `test/support/loopback/` compare, each with a key for its content and its o200k
 * tokens. Keys and counts are cached per object and per text, so a request costs a lookup per
 * message or block: nothing re-stringifies or re-tokenizes a whole prompt per turn.
 *
 * Exactness: two parts (blocks) get the same key exactly when their JSON texts are equal (a
 * block's key is built from the keys of its fields, in order, each string and object interned by
 * its text), which is what the loopback servers compare; `test/bench/cacheScript.test.ts` checks
 * the cached keys and counts against the JSON of every request of a few conversations.
 */
import { countTokens, encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { Message, OpenAIChatMessage } from '../../src/library';
import type { AnthropicPromptBlock } from '../../test/support/loopback/anthropicPromptCache';
import type { RequestBlock } from '../../test/support/loopback/anthropicPromptCache';
import type { OpenAIPromptPart } from '../../test/support/loopback/openaiPromptCache';

/**
 * An OpenAI message as the prefix cache compares it: its key, the prompt's tokens through it, and
 * its JSON text's tokens (read only where two requests first differ).
 *
 * @example
 * ```ts
 * const part: OpenAIPart = { key: 3, through: 1200, tokens: () => [200, 201] };
 * ```
 */
export interface OpenAIPart extends OpenAIPromptPart {
  readonly tokens: () => readonly number[];
}

interface Text {
  readonly key: number;
  readonly count: number;
  tokens?: readonly number[];
}

/**
 * The tokens two token lists share at their start.
 *
 * @example
 * ```ts
 * sharedTokens([1, 2, 3], [1, 2, 4]); // 2
 * ```
 */
export const sharedTokens = (a: readonly number[], b: readonly number[]): number => {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
};

/**
 * One conversation's sizer (keys and counts live as long as it does).
 *
 * @example
 * ```ts
 * const sizer = promptSizer();
 * const parts = sizer.openaiParts(view.messages, toOpenAIChat(view.messages));
 * ```
 */
export const promptSizer = () => {
  /** Every text seen, by content: its key, o200k count and (when asked) tokens. */
  const texts = new Map<string, Text>();
  const textOf = (text: string): Text => {
    let found = texts.get(text);
    if (found === undefined) {
      found = { key: texts.size, count: countTokens(text) };
      texts.set(text, found);
    }
    return found;
  };
  const tokensOf = (text: string, entry: Text): readonly number[] => {
    entry.tokens ??= encode(text);
    return entry.tokens;
  };

  /** The OpenAI part of each view message (a message's conversion depends on it alone). */
  const parts = new WeakMap<Message, { readonly json: string; readonly text: Text }>();

  /**
   * Blocks as a trie of Maps: role, then each field's name and value (a string as itself, an
   * object by identity, then by its JSON), so a block seen before costs a few lookups and no new
   * string. The leaf holds the block's key and tokens.
   */
  interface Trie {
    readonly next: Map<unknown, Trie>;
    leaf?: { readonly key: number; readonly count: number };
  }
  const root: Trie = { next: new Map() };
  const objects = new WeakMap<object, number>();
  const objectIds = new Map<string, number>();
  const step = (node: Trie, value: unknown): Trie => {
    let key = value;
    if (typeof value === 'object' && value !== null) {
      let id = objects.get(value);
      if (id === undefined) {
        const json = JSON.stringify(value);
        id = objectIds.get(json);
        if (id === undefined) {
          id = objectIds.size;
          objectIds.set(json, id);
        }
        objects.set(value, id);
      }
      key = id;
    } else if (typeof value !== 'string') {
      key = `\u0000${JSON.stringify(value)}`;
    }
    let child = node.next.get(key);
    if (child === undefined) {
      child = { next: new Map() };
      node.next.set(key, child);
    }
    return child;
  };
  let blockCount = 0;

  return {
    /**
     * The parts of an OpenAI request: `chat` is `toOpenAIChat(messages)` (one message each), its
     * tokens the o200k count of each message's JSON.
     */
    openaiParts: (
      messages: readonly Message[],
      chat: readonly OpenAIChatMessage[],
    ): OpenAIPart[] => {
      if (chat.length !== messages.length) throw new Error('toOpenAIChat is one message each');
      let through = 0;
      return chat.map((message, i) => {
        const source = messages[i] as Message;
        let part = parts.get(source);
        if (part === undefined) {
          const json = JSON.stringify(message);
          part = { json, text: textOf(json) };
          parts.set(source, part);
        }
        const { json, text } = part;
        through += text.count;
        return { key: text.key, through, tokens: () => tokensOf(json, text) };
      });
    },

    /** The blocks of an Anthropic request (`requestBlocks`), each with its key and tokens. */
    anthropicBlocks: (request: readonly RequestBlock[]): AnthropicPromptBlock[] => {
      let through = 0;
      return request.map((block) => {
        const { value, role } = block;
        let node = step(root, role ?? null);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          for (const field in value) {
            node = step(step(node, field), (value as Record<string, unknown>)[field]);
          }
        } else {
          node = step(step(node, null), value);
        }
        if (node.leaf === undefined) {
          const text = (role === undefined ? '' : `${role}:`) + JSON.stringify(value);
          node.leaf = { key: blockCount++, count: textOf(text).count };
        }
        through += node.leaf.count;
        return { key: node.leaf.key, through, breakpoint: block.breakpoint };
      });
    },
  };
};
