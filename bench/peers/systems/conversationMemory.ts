/**
 * conversation-memory, from the built `dist/` (what users install): reducers over an immutable
 * state. Per turn: `state = addMessages(state, turn).state`, then `getHistory(state)` is the
 * window. The system prompt is the memory's first message.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as Library from '../../../src/entries/index';
import type { MemoryOptions, MemoryState, Message } from '../../../src/entries/index';
import type { Instance, System } from '../system';
import { SYSTEM_PROMPT, type View } from '../workload';

const DIST = new URL('../../../dist/index.js', import.meta.url);

/** The library's built entry (`npm run bench:peers` builds it first). */
export const loadLibrary = async (): Promise<typeof Library> => {
  if (!existsSync(fileURLToPath(DIST))) {
    throw new Error('bench/peers: dist/index.js is missing; run `npm run bench:peers`');
  }
  return (await import(DIST.href)) as typeof Library;
};

/** Our messages (and the Immer reducer's, which holds the same plain objects) as views. */
export const viewMessages = (window: unknown): readonly View[] =>
  (window as readonly Message[]).map((message) => ({
    role: message.role,
    text: message.content ?? '',
    calls: (message.toolCalls ?? []).map((call) => ({ name: call.name, args: call.parameters })),
  }));

/**
 * A conversation-memory row.
 *
 * @param lib - the loaded library
 * @param label - the row label
 * @param options - the policy options (the defaults when empty)
 */
export const conversationMemory = (
  lib: typeof Library,
  label: string,
  options: MemoryOptions,
): System => ({
  label,
  async prepare(scenario, turns) {
    await lib.loadTokenizer('o200k_base');
    // Our own copies of the plain objects an agent receives: validated and copied on entry.
    const timed = structuredClone(turns.timed) as readonly (readonly Message[])[];
    let state: MemoryState = lib.createMemory({
      maxMessages: scenario.approxMessages * 10,
      maxTokens: scenario.budget,
      tokenizer: 'o200k_base',
      ...options,
    });
    state = lib.addMessage(state, lib.systemMessage(SYSTEM_PROMPT)).state;
    for (const turn of structuredClone(turns.warm)) state = lib.addMessages(state, turn).state;
    const warm = state;
    return {
      fresh(): Instance {
        let current = warm;
        return {
          step(k) {
            current = lib.addMessages(current, timed[k] ?? []).state;
            return lib.getHistory(current);
          },
        };
      },
      view: viewMessages,
    };
  },
});
