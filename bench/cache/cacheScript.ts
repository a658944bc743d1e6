/**
 * The cache benchmark's driver: feeds generated agent conversations (the pruning benchmark's
 * generator, `bench/pruning/agentConversations.ts`) message by message into memories with a
 * token window, and before every model call (each assistant message of a turn) builds the exact
 * requests an agent sends: `modelView(state, { target: 'anthropic', cache: true })` +
 * `toAnthropic(view.messages, { cache: view.cache })`, and `modelView(state, { target: 'openai' })`
 * + `toOpenAIChat(view.messages)`. Each goes through a prompt cache by its provider's rules (the
 * loopback servers' rules, `test/support/loopback/*PromptCache.ts`), counted in o200k tokens.
 *
 * With a summary, summarize-on-trim runs as the agent runs it: the trimmed messages are held
 * (`holdForSummary`), summarized at once by `LocalProvider` (deterministic) with the agent's
 * request, and committed (`commitSummary`); the summarizer's input tokens are counted apart.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { summaryExcerpt } from '../../src/agent/run/summarizePending';
import {
  commitSummary,
  countMessageTokens,
  createMemory,
  getPendingSummary,
  holdForSummary,
  LocalProvider,
  type MemoryState,
  type Message,
  modelView,
  SUMMARIZE_PROMPT,
  toAnthropic,
  toOpenAIChat,
  userMessage,
  addMessage,
  systemMessage,
} from '../../src/library';
import { SUMMARIZER_SYSTEM_PROMPT } from '../../src/agent/prompts';
import type { MessagesRequestBody } from '../../test/support/loopback/anthropicReply';
import {
  anthropicBlockCache,
  type AnthropicCacheUsage,
  requestBlocks,
} from '../../test/support/loopback/anthropicPromptCache';
import {
  openaiCachedTokens,
  openaiPrefixCache,
} from '../../test/support/loopback/openaiPromptCache';
import { type AgentConversation, scriptAgentConversation } from '../pruning/agentConversations';
import { type OpenAIPart, promptSizer, sharedTokens } from './promptSizer';

/**
 * The window's token budget (o200k), the memory's `maxTokens`.
 *
 * @example
 * ```ts
 * CACHE_BUDGET; // 20000
 * ```
 */
export const CACHE_BUDGET = 20_000;

/**
 * The seed of the first conversation; conversation `i` uses `CACHE_FIRST_SEED + i`.
 *
 * @example
 * ```ts
 * scriptAgentConversation(CACHE_FIRST_SEED, 200);
 * ```
 */
export const CACHE_FIRST_SEED = 20_260_290;

/**
 * The `trimTo` values measured (1 is today's trim).
 *
 * @example
 * ```ts
 * CACHE_TRIM_TOS[0]; // 1
 * ```
 */
export const CACHE_TRIM_TOS: readonly number[] = [1, 0.9, 0.7, 0.5];

/**
 * The agent's system prompt, the window's first message (pinned), about 130 o200k tokens: under
 * the 1,024 tokens either cache needs, so it caches nothing by itself.
 *
 * @example
 * ```ts
 * CACHE_SYSTEM_PROMPT.startsWith('You are a coding agent'); // true
 * ```
 */
export const CACHE_SYSTEM_PROMPT =
  'You are a coding agent working in the repository of a payments service. Read files with ' +
  'read_file, search the internal documents with search, and run the test suite with run_tests ' +
  'before you claim a fix. Keep answers short: one or two sentences, then what you will do next. ' +
  'Quote setting values exactly as the files state them, and prefer the newest value the user ' +
  'gave you over an older one. When a file changed, read it again before you rely on it. Never ' +
  'invent a test result: run the tests. Ask before you change anything outside the files the ' +
  'user mentioned.';

/** The model name both caches key on (one model per conversation). */
const MODEL = 'bench-model';

/**
 * One configuration: `trimTo` (`undefined`: the memory's default, today's trim) and whether
 * summarize-on-trim runs.
 *
 * @example
 * ```ts
 * const config: CacheConfig = { trimTo: 0.7, summary: true };
 * ```
 */
export interface CacheConfig {
  readonly trimTo: number | undefined;
  readonly summary: boolean;
}

/**
 * The numbers of one model call, as `onRequest` sees them.
 *
 * @example
 * ```ts
 * const seen: CacheRequest[] = [];
 * await measureCache({ conversations: 2, turns: 20, onRequest: (r) => seen.push(r) });
 * ```
 */
export interface CacheRequest {
  readonly config: CacheConfig;
  readonly seed: number;
  readonly turn: number;
  /** The memory the requests were built from. */
  readonly state: MemoryState;
  /** The Anthropic request, as `toAnthropic` built it. */
  readonly anthropicRequest: MessagesRequestBody;
  /** Its input tokens (all of them) and the cache's counts. */
  readonly anthropicInput: number;
  readonly anthropic: AnthropicCacheUsage;
  /** The OpenAI request's messages, as `toOpenAIChat` built them. */
  readonly openaiRequest: readonly unknown[];
  readonly openaiInput: number;
  readonly openaiCached: number;
  /** The window's messages sent (not the system prompt nor the summary), in the library's count. */
  readonly historyTokens: number;
}

/**
 * One configuration's sums over every model call of every conversation.
 *
 * @example
 * ```ts
 * const [today] = await measureCache({ conversations: 2, turns: 20 });
 * today.anthropic.read / today.anthropic.input; // the share read from the cache
 * ```
 */
export interface CacheReport {
  readonly config: CacheConfig;
  readonly conversations: number;
  /** User turns, all conversations. */
  readonly turns: number;
  /** Model calls (requests), all conversations. */
  readonly requests: number;
  /** Anthropic: every input token, those read from the cache, those written to it. */
  readonly anthropic: { input: number; read: number; write: number };
  /** OpenAI: every input token, those cached. */
  readonly openai: { input: number; cached: number };
  /** The summarizer's input tokens (its system prompt and request), 0 without a summary. */
  readonly summarizerInput: number;
  /**
   * Per request once the window is full (from the conversation's first trim on): the history
   * tokens sent as a share of the budget.
   */
  readonly retained: number[];
  /** The same over every request (the window filling up included): their sum and count. */
  readonly retainedAll: { sum: number; count: number };
}

/**
 * What {@link measureCache} is asked.
 *
 * @example
 * ```ts
 * const options: MeasureCacheOptions = { conversations: 200, turns: 200 };
 * ```
 */
export interface MeasureCacheOptions {
  readonly conversations: number;
  /** The index of the first conversation (default 0: seed {@link CACHE_FIRST_SEED}). */
  readonly from?: number;
  readonly turns: number;
  readonly configs?: readonly CacheConfig[];
  readonly budget?: number;
  readonly onRequest?: (request: CacheRequest) => void;
}

/**
 * Every configuration of the issue: each `trimTo` of {@link CACHE_TRIM_TOS}, without then with a
 * summary.
 *
 * @example
 * ```ts
 * CACHE_CONFIGS.length; // 8
 * ```
 */
export const CACHE_CONFIGS: readonly CacheConfig[] = [false, true].flatMap((summary) =>
  CACHE_TRIM_TOS.map((trimTo) => ({ trimTo, summary })),
);

const emptyReport = (config: CacheConfig): CacheReport => ({
  config,
  conversations: 0,
  turns: 0,
  requests: 0,
  anthropic: { input: 0, read: 0, write: 0 },
  openai: { input: 0, cached: 0 },
  summarizerInput: 0,
  retained: [],
  retainedAll: { sum: 0, count: 0 },
});

/**
 * Runs the conversations under each configuration and sums what the caches report.
 *
 * @returns one report per configuration, in the order of `configs`
 * @example
 * ```ts
 * const reports = await measureCache({ conversations: 200, turns: 200 });
 * ```
 */
export const measureCache = async (options: MeasureCacheOptions): Promise<CacheReport[]> => {
  const configs = options.configs ?? CACHE_CONFIGS;
  const budget = options.budget ?? CACHE_BUDGET;
  const reports = configs.map(emptyReport);
  const from = options.from ?? 0;
  for (let i = from; i < from + options.conversations; i++) {
    const conversation = scriptAgentConversation(CACHE_FIRST_SEED + i, options.turns);
    const sizer = promptSizer();
    for (const report of reports) {
      await runConversation(conversation, report, budget, sizer, options.onRequest);
    }
  }
  return reports;
};

/** The library's count of each message, once per message object. */
const historyCounts = new WeakMap<Message, number>();
const historyTokens = (messages: readonly Message[]): number => {
  let sum = 0;
  for (const message of messages) {
    if (message.role === 'system') continue;
    let count = historyCounts.get(message);
    if (count === undefined) {
      count = countMessageTokens('o200k_base', message);
      historyCounts.set(message, count);
    }
    sum += count;
  }
  return sum;
};

/** One conversation under one configuration, added into `report` (mutable sums). */
const runConversation = async (
  conversation: AgentConversation,
  report: CacheReport,
  budget: number,
  sizer: ReturnType<typeof promptSizer>,
  onRequest: ((request: CacheRequest) => void) | undefined,
): Promise<void> => {
  const { config } = report;
  const sums = report as {
    -readonly [K in keyof CacheReport]: CacheReport[K];
  };
  const anthropicCache = anthropicBlockCache();
  const openaiCache = openaiPrefixCache<OpenAIPart>((a, b) => sharedTokens(a.tokens(), b.tokens()));
  const summarizer = new LocalProvider();
  let state = createMemory({
    maxMessages: 1_000_000,
    maxTokens: budget,
    tokenizer: 'o200k_base',
    toolPairs: 'strict',
    pinSystem: true,
    ...(config.trimTo === undefined ? {} : { trimTo: config.trimTo }),
  });

  let full = false;
  const add = async (message: Message): Promise<void> => {
    const added = addMessage(state, message);
    state = added.state;
    if (added.effects.some((effect) => effect.type === 'memory/trimmed')) full = true;
    if (!config.summary) return;
    for (const effect of added.effects) {
      if (effect.type === 'memory/trimmed') state = holdForSummary(state, effect).state;
    }
    const pending = getPendingSummary(state);
    const through = pending.positions[pending.positions.length - 1];
    if (through === undefined) return;
    // The agent's summary request (summarizePending), answered by LocalProvider.
    const prompt = SUMMARIZE_PROMPT + summaryExcerpt(pending.messages);
    const reply = await summarizer.complete({
      model: 'local',
      systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
      messages: [userMessage(prompt)],
      maxTokens: 150,
    });
    sums.summarizerInput += countTokens(SUMMARIZER_SYSTEM_PROMPT) + countTokens(prompt);
    state = commitSummary(state, reply.message.content ?? '', through).state;
  };

  const request = (turn: number): void => {
    const anthropicView = modelView(state, { target: 'anthropic', cache: true });
    const converted = toAnthropic(anthropicView.messages, {
      cache: anthropicView.cache ?? { ttl: '5m', breakpoints: [] },
    });
    const anthropicRequest: MessagesRequestBody = {
      model: MODEL,
      max_tokens: 1024,
      ...(converted.system === undefined ? {} : { system: converted.system }),
      messages: converted.messages,
    } as MessagesRequestBody;
    const blocks = sizer.anthropicBlocks(requestBlocks(anthropicRequest));
    const anthropicInput = blocks[blocks.length - 1]?.through ?? 0;
    const anthropic = anthropicCache.usage(MODEL, blocks) ?? {
      input_tokens: anthropicInput,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
    const openaiView = modelView(state, { target: 'openai' });
    const openaiRequest = toOpenAIChat(openaiView.messages);
    const parts = sizer.openaiParts(openaiView.messages, openaiRequest);
    const openaiInput = parts[parts.length - 1]?.through ?? 0;
    const openaiCached = openaiCachedTokens(openaiCache.matched(MODEL, parts));
    const history = historyTokens(openaiView.messages);

    sums.requests++;
    sums.anthropic.input += anthropicInput;
    sums.anthropic.read += anthropic.cache_read_input_tokens;
    sums.anthropic.write += anthropic.cache_creation_input_tokens;
    sums.openai.input += openaiInput;
    sums.openai.cached += openaiCached;
    if (full) sums.retained.push(history / budget);
    sums.retainedAll.sum += history / budget;
    sums.retainedAll.count++;
    onRequest?.({
      config,
      seed: conversation.seed,
      turn,
      state,
      anthropicRequest,
      anthropicInput,
      anthropic,
      openaiRequest,
      openaiInput,
      openaiCached,
      historyTokens: history,
    });
  };

  await add(systemMessage(CACHE_SYSTEM_PROMPT));
  for (const [turn, { messages }] of conversation.turns.entries()) {
    for (const message of messages) {
      // A model call before each assistant message: the agent asks, the model answers.
      if (message.role === 'assistant') request(turn);
      await add(message);
    }
  }
  sums.conversations++;
  sums.turns += conversation.turns.length;
};
