/**
 * The memory policies the recall benchmark compares, each as the view the next provider call
 * would send at budget B after a whole history, with the question as the newest user message.
 * Every policy keeps its memory through the library's public API, with the real o200k_base
 * tokenizer (counts of a text computed once and kept, so that building a 1.1-million-token
 * history for each policy and budget stays fast; the counts are the tokenizer's).
 *
 * - `oldest-first`: a window of B tokens, trimmed oldest first (the reference's policy).
 * - `mask`: `prune: 'redundant'` (repeats leave before old messages) and stale tool output
 *   masked to fit (`maskToolResults: { keepLast: 2, untilFits: true }`).
 * - `summary`: the window of B tokens with summarize-on-trim, what was trimmed summarized every
 *   16 messages by `LocalProvider`'s deterministic summarizer (first sentence of each message)
 *   as the agent does (the request, then `commitSummary`); the summary is sent within B.
 * - `knowledge`: entity memory and the knowledge graph filled by the local extractor, session by
 *   session, their blocks (B / 4 tokens, for the question) sent with a window of the rest.
 * - `recall`: the window in an event log, and `recall: { source: log, budget: B / 4 }`.
 * - `recall+mask`, `recall+knowledge`: both.
 */
import type * as Library from '../../src/library';
import type { KnowledgeState, MemoryState, Message, ModelView } from '../../src/library';
import { LocalProvider } from '../../src/entries/testing';
import type { RecallGroup } from './dataset';

/** The policies, in the table's order. */
export const POLICIES = [
  'oldest-first',
  'mask',
  'summary',
  'knowledge',
  'recall',
  'recall+mask',
  'recall+knowledge',
] as const;

/** A policy's name. */
export type PolicyName = (typeof POLICIES)[number];

/** The tokenizer every policy counts with: o200k_base, each distinct text counted once. */
export const BENCH_TOKENIZER = 'recall-bench-o200k';

/** A history as messages, each dated with its session (`metadata.createdAt`). */
export const historyMessages = (lib: typeof Library, group: RecallGroup): Message[] =>
  group.sessions.flatMap((turns, s) =>
    turns.map((turn, t) => {
      const createdAt = new Date((group.times[s] as number) + t * 60_000).toISOString();
      const message =
        turn.role === 'user' ? lib.userMessage(turn.content) : lib.assistantMessage(turn.content);
      return { ...message, metadata: { createdAt } };
    }),
  );

/** Registers {@link BENCH_TOKENIZER} (once). */
export const registerBenchTokenizer = (lib: typeof Library): void => {
  const counts = new Map<string, number>();
  lib.registerTokenizer(BENCH_TOKENIZER, (message) => {
    const key = `${message.role}\u0000${message.content ?? ''}\u0000${JSON.stringify(message.toolCalls ?? null)}`;
    let count = counts.get(key);
    if (count === undefined) {
      count = lib.countMessageTokens('o200k_base', message);
      counts.set(key, count);
    }
    return count;
  });
};

/** What a policy keeps after the history: a function from a question to its view. */
export type PreparedPolicy = (question: string) => ModelView;

const SUMMARY_REQUEST =
  'Summarize the following conversation excerpt in 2-3 sentences. Focus on key facts, decisions, and context that would be useful for continuing the conversation:\n\n';

/**
 * Builds `policy`'s memory over `messages` for budget `budget` and returns its view for a
 * question. `now` is the question's time (for the knowledge blocks).
 */
export const preparePolicy = async (
  lib: typeof Library,
  policy: PolicyName,
  messages: readonly Message[],
  budget: number,
  now: number,
): Promise<PreparedPolicy> => {
  const recall = policy.startsWith('recall');
  const share = recall || policy.includes('knowledge') ? Math.floor(budget / 4) : 0;
  const windowTokens = budget - share * (recall && policy.includes('knowledge') ? 2 : 1);
  const config = {
    maxMessages: 1_000_000,
    maxTokens: windowTokens,
    tokenizer: BENCH_TOKENIZER,
    ...(policy.includes('mask') ? { prune: 'redundant' as const } : {}),
  };
  const mask = policy.includes('mask') ? { maskToolResults: { keepLast: 2, untilFits: true } } : {};
  let state: MemoryState;
  let log: Library.EventLog | undefined;
  if (recall) {
    log = lib.createEventLog(config);
    for (const message of messages)
      log = lib.appendAction(log, lib.memoryActions.messageAdded(message));
    state = log.head;
  } else if (policy === 'summary') {
    state = await summarized(lib, config, messages);
  } else {
    state = lib.addMessages(lib.createMemory(config), messages).state;
  }
  const knowledge = policy.includes('knowledge') ? extractKnowledge(lib, messages, now) : undefined;
  const source = log;
  return (question) => {
    const asked = lib.addMessage(state, lib.userMessage(question)).state;
    const blocks =
      knowledge === undefined
        ? undefined
        : lib.knowledgeBlocks(knowledge, {
            query: question,
            now,
            countTokens: (text) => lib.countMessageTokens(BENCH_TOKENIZER, lib.systemMessage(text)),
            graph: { budget: Math.floor(share / 2) },
            entities: { budget: Math.floor(share / 2) },
          }).text;
    return lib.modelView(asked, {
      target: 'openai',
      budget,
      ...mask,
      ...(blocks === undefined ? {} : { knowledge: blocks }),
      ...(source === undefined ? {} : { recall: { source, budget: share } }),
    });
  };
};

/** How many messages go by between two summary calls (about one session's worth). */
const SUMMARY_EVERY = 16;

/**
 * The window with summarize-on-trim: each trim held; every {@link SUMMARY_EVERY} messages, what
 * is held is summarized and committed (the stored summary keeps its newest 4,000 characters).
 */
const summarized = async (
  lib: typeof Library,
  config: Library.MemoryOptions,
  messages: readonly Message[],
): Promise<MemoryState> => {
  const provider = new LocalProvider();
  let state = lib.createMemory(config);
  for (const [i, message] of messages.entries()) {
    const added = lib.addMessage(state, message);
    state = added.state;
    for (const effect of added.effects) {
      if (effect.type === 'memory/trimmed' && effect.reason === 'enforce_limits') {
        state = lib.holdForSummary(state, effect).state;
      }
    }
    // One summary call per exchange of the conversation's length (a run), not per message.
    if (i % SUMMARY_EVERY !== SUMMARY_EVERY - 1 && i !== messages.length - 1) continue;
    const pending = lib.getPendingSummary(state);
    const through = pending.positions[pending.positions.length - 1];
    if (through === undefined) continue;
    const excerpt = pending.messages
      .map((m) => `${m.role.toUpperCase()}: ${m.content ?? ''}`)
      .join('\n');
    const reply = await provider.complete({
      model: 'local',
      systemPrompt: 'You are a concise summarizer.',
      messages: [lib.userMessage(SUMMARY_REQUEST + excerpt)],
    });
    state = lib.commitSummary(state, reply.message.content ?? '', through).state;
  }
  return state;
};

/** Entities and triples the local extractor finds, session by session (user turns). */
const extractKnowledge = (
  lib: typeof Library,
  messages: readonly Message[],
  now: number,
): KnowledgeState => {
  let state = lib.createMemory({ maxMessages: 1, tokenizer: 'heuristic' });
  const step = 20;
  for (let from = 0; from < messages.length; from += step) {
    const part = messages.slice(from, from + step);
    state = lib.addMessages(state, part).state;
    const text = lib.renderExtractionConversation(part);
    const to = from + part.length - 1;
    state = lib.memoryTransition(state, {
      type: 'knowledge/factsExtracted',
      payload: { source: 'relations', at: now, from, to, triples: lib.extractTriplesLocally(text) },
    }).state;
    state = lib.memoryTransition(state, {
      type: 'knowledge/factsExtracted',
      payload: {
        source: 'entities',
        at: now,
        from,
        to,
        entities: lib.extractEntitiesLocally(text),
      },
    }).state;
  }
  return state.knowledge ?? lib.createKnowledge();
};
