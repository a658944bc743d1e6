/**
 * LlamaIndex.TS `Memory` (`@llamaindex/core/memory`, the package `llamaindex` re-exports), in its
 * documented use: `createMemory({ tokenLimit })`, `await memory.add(message)` for each message,
 * and `await memory.getLLM()` for the messages of a call; as LlamaIndex's own agent does, the
 * system prompt is kept outside the memory and put first (`[system, ...await memory.getLLM()]`),
 * so the memory's limit is the budget minus the prompt's tokens. `shortTermTokenLimitRatio: 1`
 * gives the whole limit to the chat history (the default 0.5 keeps half for long-term memory
 * blocks, of which there are none here).
 *
 * Counting: `Memory` counts with `Settings.tokenizer`, set here to gpt-tokenizer's o200k encoder
 * (the wrapper LlamaIndex itself builds around gpt-tokenizer). It counts the text only: tool-call
 * names and arguments are not counted, so its windows can exceed the budget under the shared
 * counter.
 *
 * Tool calls and results use LlamaIndex's own shapes (those its agent writes): an assistant
 * message with `options.toolCall`, and a `user` message with `options.toolResult`.
 *
 * If the package does not install or load, its rows are skipped with the reason.
 */
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { Message } from '../../../src/entries/index';
import { Skipped, reasonOf, type Instance, type System } from '../system';
import { SYSTEM_PROMPT, SYSTEM_TOKENS, type CountedCall, type View } from '../workload';

/** The subset of LlamaIndex's `ChatMessage` this benchmark writes. */
interface LlamaMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  readonly options?: {
    readonly toolCall?: readonly { id: string; name: string; input: unknown }[];
    readonly toolResult?: { id: string; result: string; isError: boolean };
  };
}

interface LlamaMemory {
  add(message: LlamaMessage): Promise<void>;
  getLLM(): Promise<LlamaMessage[]>;
}

interface LlamaModules {
  readonly createMemory: (
    messages: LlamaMessage[],
    options: { tokenLimit: number; shortTermTokenLimitRatio: number },
  ) => LlamaMemory;
}

let loaded: Promise<LlamaModules> | undefined;

const load = (): Promise<LlamaModules> =>
  (loaded ??= (async () => {
    try {
      const memory = await import('@llamaindex/core/memory');
      const { Settings } = await import('@llamaindex/core/global');
      Settings.tokenizer = {
        encode: (text: string) => new Uint32Array(encode(text)),
        decode: (tokens: Uint32Array) => decode(Array.from(tokens)),
      };
      return { createMemory: memory.createMemory as unknown as LlamaModules['createMemory'] };
    } catch (error) {
      throw new Skipped(reasonOf(error));
    }
  })());

const toLlama = (message: Message): LlamaMessage => {
  const content = message.content ?? '';
  if (message.role === 'tool') {
    return {
      role: 'user',
      content,
      options: { toolResult: { id: message.toolCallId ?? '', result: content, isError: false } },
    };
  }
  if (message.role === 'assistant' && message.toolCalls !== undefined) {
    return {
      role: 'assistant',
      content,
      options: {
        toolCall: message.toolCalls.map((call) => ({
          id: call.id ?? '',
          name: call.name,
          input: call.parameters,
        })),
      },
    };
  }
  return { role: message.role, content };
};

const viewLlama = (window: unknown): readonly View[] =>
  (window as readonly LlamaMessage[]).map((message) => {
    const calls: readonly CountedCall[] = (message.options?.toolCall ?? []).map((call) => ({
      name: call.name,
      args: call.input,
    }));
    const role: View['role'] = message.options?.toolResult !== undefined ? 'tool' : message.role;
    return { role, text: message.content, calls };
  });

/** The LlamaIndex row. */
export const llamaIndex = (): System => ({
  label: 'LlamaIndex.TS Memory + getLLM',
  async prepare(scenario, turns) {
    const { createMemory } = await load();
    const warm = turns.warm.flat().map(toLlama);
    const timed = turns.timed.map((turn) => turn.map(toLlama));
    const system: LlamaMessage = { role: 'system', content: SYSTEM_PROMPT };
    const options = { tokenLimit: scenario.budget - SYSTEM_TOKENS, shortTermTokenLimitRatio: 1 };
    return {
      fresh(): Instance {
        // The history, as `add` would have stored it (`Memory.getLLM` keeps no state of its own).
        const memory = createMemory(warm, options);
        return {
          async step(k) {
            for (const message of timed[k] ?? []) await memory.add(message);
            return [system, ...(await memory.getLLM())];
          },
        };
      },
      view: viewLlama,
    };
  },
});
