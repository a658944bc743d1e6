/**
 * LangChain.js `trimMessages`, in its documented pattern: the application keeps the whole history
 * in an array (`SystemMessage` first) and trims it before each model call. Per turn:
 * `history.push(...turn)`, then `await trimMessages(history, options)` is the window.
 *
 * Options: `strategy: 'last'`, `includeSystem: true`, `maxTokens: budget` and a function
 * `tokenCounter` that sums the shared counter over the messages it is given; with the options
 * LangChain's trimming guide and `trimMessages` docs recommend for a valid chat history
 * (`startOn: 'human'`, `endOn: ['human', 'tool']`), or without them (plain defaults).
 *
 * Messages are converted to LangChain classes once, before timing.
 */
import type * as LangChainMessages from '@langchain/core/messages';
import type { BaseMessage, TrimMessagesFields } from '@langchain/core/messages';
import type { Message } from '../../../src/entries/index';
import { Skipped, reasonOf, type Instance, type System } from '../system';
import { SYSTEM_PROMPT, countMessage, countParts, type CountedCall, type View } from '../workload';

type Lc = typeof LangChainMessages;

const load = async (): Promise<Lc> => {
  try {
    return await import('@langchain/core/messages');
  } catch (error) {
    throw new Skipped(reasonOf(error));
  }
};

const textOf = (message: BaseMessage): string =>
  typeof message.content === 'string' ? message.content : '';

const callsOf = (message: BaseMessage): readonly CountedCall[] =>
  'tool_calls' in message && Array.isArray(message.tool_calls)
    ? (message.tool_calls as { name: string; args: unknown }[]).map((call) => ({
        name: call.name,
        args: call.args,
      }))
    : [];

/** The shared counter on a LangChain message, recounting every time (a model's `getNumTokens` does). */
const countPlain = (message: BaseMessage): number => countParts(textOf(message), callsOf(message));

/** Token counts by text and by tool-call id. */
interface CountCache {
  readonly texts: Map<string, number>;
  readonly calls: Map<string, number>;
}

const copyCache = (cache: CountCache): CountCache => ({
  texts: new Map(cache.texts),
  calls: new Map(cache.calls),
});

/**
 * The same counts, cached by text and by tool-call id (`trimMessages` copies the messages on every
 * call, so a cache keyed by message object would never hit). Each instance starts with a cache of
 * its history, as an application's cache would be: a turn's new messages are counted when first
 * seen, inside the timed step, as conversation-memory counts them when they are added.
 */
const cachedCounter =
  (cache: CountCache) =>
  (message: BaseMessage): number => {
    const text = textOf(message);
    let total = cache.texts.get(text);
    if (total === undefined) {
      total = countParts(text, []);
      cache.texts.set(text, total);
    }
    if ('tool_calls' in message && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls as { id?: string; name: string; args: unknown }[]) {
        const id = call.id ?? '';
        let count = cache.calls.get(id);
        if (count === undefined) {
          count = countParts('', [call]);
          cache.calls.set(id, count);
        }
        total += count;
      }
    }
    return total;
  };

const toLangChain = (lc: Lc, message: Message): BaseMessage => {
  const content = message.content ?? '';
  switch (message.role) {
    case 'system':
      return new lc.SystemMessage(content);
    case 'user':
      return new lc.HumanMessage(content);
    case 'tool':
      return new lc.ToolMessage({
        content,
        tool_call_id: message.toolCallId ?? '',
        name: message.toolName ?? '',
      });
    case 'assistant':
      return new lc.AIMessage({
        content,
        tool_calls: (message.toolCalls ?? []).map((call) => ({
          id: call.id ?? '',
          name: call.name,
          args: call.parameters as Record<string, unknown>,
          type: 'tool_call' as const,
        })),
      });
  }
};

const ROLES: Readonly<Record<string, View['role']>> = {
  system: 'system',
  human: 'user',
  ai: 'assistant',
  tool: 'tool',
};

const viewLangChain = (window: unknown): readonly View[] =>
  (window as readonly BaseMessage[]).map((message) => {
    const role = ROLES[message.getType()];
    if (role === undefined) throw new Error(`bench/peers: unexpected ${message.getType()}`);
    return { role, text: textOf(message), calls: callsOf(message) };
  });

/**
 * A LangChain row.
 *
 * @param label - the row label
 * @param documented - with the documented `startOn`/`endOn`
 * @param cached - the counter caches its counts; otherwise it recounts every message on every call
 */
export const langChain = (label: string, documented: boolean, cached: boolean): System => ({
  label,
  async prepare(scenario, turns) {
    const lc = await load();
    const convert = (turn: readonly Message[]): BaseMessage[] =>
      turn.map((message) => toLangChain(lc, message));
    const history = [new lc.SystemMessage(SYSTEM_PROMPT), ...turns.warm.flatMap(convert)];
    const timed = turns.timed.map(convert);
    // The conversion keeps what the counter sees.
    const original = [...turns.warm.flat(), ...turns.timed.flat()];
    const converted = [...history.slice(1), ...timed.flat()];
    converted.forEach((message, i) => {
      if (countPlain(message) !== countMessage(original[i] as Message)) {
        throw new Error(`bench/peers: LangChain message ${i} counts differently`);
      }
    });
    const historyCache: CountCache = { texts: new Map(), calls: new Map() };
    history.forEach(cachedCounter(historyCache));
    const optionsWith = (count: (message: BaseMessage) => number): TrimMessagesFields => ({
      maxTokens: scenario.budget,
      strategy: 'last',
      includeSystem: true,
      tokenCounter: (messages: BaseMessage[]): number => {
        let total = 0;
        for (const message of messages) total += count(message);
        return total;
      },
      ...(documented ? { startOn: 'human', endOn: ['human', 'tool'] } : {}),
    });
    return {
      fresh(): Instance {
        const live = history.slice();
        const options = optionsWith(cached ? cachedCounter(copyCache(historyCache)) : countPlain);
        return {
          step(k) {
            live.push(...(timed[k] ?? []));
            return lc.trimMessages(live, options);
          },
        };
      },
      view: viewLangChain,
    };
  },
});
