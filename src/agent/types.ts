import type { EntityMemory, KnowledgeGraph, KnowledgeMemory } from './knowledge/moduleTypes';
import type { KnowledgeEffect } from '../model/knowledgeEffects';
import type { ConversationMemory } from '../facade/ConversationMemory';
import type { SessionStore } from '../stores/session/types';
import type { EventStore } from '../stores/event/types';
import type { MemoryOptions } from '../model/config';
import type { MemoryEffect } from '../model/effects';
import type { JsonObject, JsonValue, Message } from '../model/message';
import type { MessageInput } from '../model/messageInput';
import type { Provider } from './provider';
import type { MaskToolResults, ViewCacheOption } from '../view/viewTypes';
import type { AgentStream } from './streamEvents';
import type {
  ModelCallInfo,
  ModelErrorInfo,
  ModelResultInfo,
  ToolEndInfo,
  ToolStartInfo,
} from './hooks';

/**
 * A tool the agent may run: its name, description and parameters (a JSON Schema object) go to
 * the model; `execute` runs with the arguments the model chose. A string result becomes the tool
 * message's content as it is; any other value is written as JSON. A tool that throws (or rejects)
 * does not crash the run: the error text becomes the tool message.
 *
 * @example
 * ```ts
 * const calc: AgentTool = {
 *   name: 'calc',
 *   description: 'Adds two numbers',
 *   parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
 *   execute: ({ a, b }) => Number(a) + Number(b),
 * };
 * ```
 */
export interface AgentTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
  /**
   * Runs the tool. `args` is a mutable copy of the model's arguments (memory keeps its own frozen
   * copy); `context.signal` is the run's abort signal, when it has one.
   */
  execute(args: { [key: string]: JsonValue }, context: ToolContext): unknown;
  /**
   * Whether running the tool twice with the same arguments does no more than running it once
   * (a read, a lookup). Only such a tool is run again by `agent.resume({ rerun: true })` when its
   * call was interrupted. Default `false`.
   */
  readonly idempotent?: boolean;
}

/**
 * What a tool's `execute` receives besides its arguments.
 *
 * @example
 * ```ts
 * const fetchTool: AgentTool = {
 *   name: 'fetch', description: 'GET a URL', parameters: { type: 'object' },
 *   execute: async ({ url }, { signal }) => (await fetch(String(url), { signal })).text(),
 * };
 * ```
 */
export interface ToolContext {
  readonly signal: AbortSignal | undefined;
}

/**
 * Where an error reported to `config.onError` came from.
 *
 * @example
 * ```ts
 * const context: AgentErrorContext = { runId: 'run-1', source: 'observer', event: 'onMemoryTrim' };
 * ```
 */
export interface AgentErrorContext {
  readonly runId: string;
  /**
   * `'observer'`: an observer threw or rejected; `'summarize'`: a summary call failed;
   * `'memoryListener'`: a subscriber of the memory threw (the memory kept the change);
   * `'entityMemory'`, `'knowledgeGraph'`: an extraction failed (its provider call rejected, its
   * answer could not be read, or its knowledge store could not be written: nothing was committed,
   * the messages are read again next run) or its knowledge store could not be read;
   * `'knowledgeMemory'`: its store could not be read or written.
   */
  readonly source:
    | 'observer'
    | 'summarize'
    | 'memoryListener'
    | 'entityMemory'
    | 'knowledgeGraph'
    | 'knowledgeMemory';
  /** The observer event, for `source: 'observer'`. */
  readonly event?: keyof AgentObserver;
}

/**
 * The agent's settings (the reference's `AgentConfig` fields that concern memory).
 *
 * @example
 * ```ts
 * const config: AgentConfig = { model: 'gpt-4o-mini', summarizeOnTrim: true, onError: console.error };
 * ```
 */
export interface AgentConfig {
  /** The model of every main call. Default: the provider's `defaultModel`. */
  readonly model?: string;
  /** The agent's own instruction, sent apart from the messages. Default `''`. */
  readonly systemPrompt?: string;
  /** The most main model calls per run (default 10). */
  readonly maxIterations?: number;
  /** Summarize what memory trims, and show the summary to the model (default `false`). */
  readonly summarizeOnTrim?: boolean;
  /** The provider of summary calls. Default: the agent's provider. */
  readonly summarizeProvider?: Provider;
  /**
   * The model of summary calls. Default: `summarizeProvider.defaultModel` when a
   * `summarizeProvider` is given (the reference used the agent's model even then), else the
   * agent's model.
   */
  readonly summarizeModel?: string;
  /** `maxTokens` of summary calls (default 150). */
  readonly summarizeMaxTokens?: number;
  /** Receives observer errors and failed summary calls; they never break a run. */
  readonly onError?: (error: unknown, context: AgentErrorContext) => void;
  /**
   * Mask stale tool output in what every main call sends (`modelView`'s `maskToolResults`):
   * tool results older than what `keepLast` / `keepTurns` keep, and exact repeats of a newer
   * result, are sent as a short placeholder naming the tool and the call id; the current turn
   * (the run, from its user message on) is always sent verbatim. The agent then offers the tool
   * `read_tool_result` (`{ call_id }`), which answers a result's content as memory keeps it.
   * Memory is not changed. `untilFits` is refused: the agent's views have no budget. Default: no
   * masking.
   */
  readonly maskToolResults?: MaskToolResults;
  /**
   * Mark interrupted replies for the model (default `true`): a reply whose stream was stopped
   * (an abort, or the reader leaving `agent.stream`) is kept in memory as the text the user saw,
   * marked `metadata.interrupted: true`; every later model call sends it with ` [interrupted]`
   * appended, so the model knows it was cut short and did not finish it. Memory keeps the text
   * as it was (the inspector and `getHistory` show it unmarked). `false` sends it as it is, like
   * any assistant message.
   */
  readonly markInterrupted?: boolean;
  /**
   * Prompt caching on every main call, streamed or not (`modelView`'s `cache`): `true` for the
   * five-minute cache, `{ ttl: '1h' }` for the one-hour cache. Each call's view marks its cache
   * breakpoints, which the Anthropic adapter sends as `cache_control` (with one more on the
   * system prompt); the request carries a cache key, which the OpenAI adapter sends as
   * `prompt_cache_key`: `cacheKey` when given, else the session's or event stream's key (`ns:id`),
   * else none. Summary and extraction calls are sent without it. Default: off (requests as
   * before).
   */
  readonly cache?: ViewCacheOption | undefined;
  /**
   * The cache key of every main call when `cache` is on (OpenAI's `prompt_cache_key`: calls with
   * the same key reach the same cache), in place of the session's or event stream's key. A
   * non-empty string. Default: the session's or event stream's key, else none.
   */
  readonly cacheKey?: string | undefined;
}

/**
 * Observer events, with the reference's arguments. Methods may be sync or async; each is awaited
 * before the run goes on, and one that throws never breaks the run (the others still receive the
 * event; the error goes to `config.onError`).
 *
 * @example
 * ```ts
 * const observer: AgentObserver = {
 *   onMemoryTrim: (runId, removed, remaining, reason) => console.log(runId, removed, remaining, reason),
 *   onMemorySummarize: (runId, summary) => console.log(runId, summary),
 * };
 * ```
 */
export interface AgentObserver {
  /** After every memory add that removed messages (`reason` is `'enforce_limits'`). */
  onMemoryTrim?(
    runId: string,
    messagesRemoved: number,
    messagesRemaining: number,
    reason: string,
  ): unknown;
  /** After a summary was committed, with the whole stored summary. */
  onMemorySummarize?(runId: string, summary: string): unknown;
  /**
   * At the start of a run, after its session was loaded into memory: when the store had it, and
   * when a session this agent had loaded or saved is gone (deleted, expired), with the count of
   * what the memory starts from instead (`0` unless the agent was given a memory with messages).
   * Not for a session the agent never held (the reference calls it on every run). `sessionId` is
   * the full key (`ns:id`).
   */
  onSessionLoad?(runId: string, sessionId: string, messageCount: number): unknown;
  /** At the end of a run, after its session was saved. */
  onSessionSave?(runId: string, sessionId: string, messageCount: number): unknown;
  /** Before each model call (main and summary), with the request as sent. */
  onModelCall?(runId: string, call: ModelCallInfo): unknown;
  /** After a model call resolved, with the reply, its usage and latency. */
  onModelResult?(runId: string, result: ModelResultInfo): unknown;
  /** After a model call rejected. */
  onModelError?(runId: string, failure: ModelErrorInfo): unknown;
  /** Before a tool runs. */
  onToolStart?(runId: string, tool: ToolStartInfo): unknown;
  /** After a tool ran (or failed). */
  onToolEnd?(runId: string, tool: ToolEndInfo): unknown;
  /**
   * After entity extraction merged what it found (the reference's `on_entity_extraction`), with
   * the number of entities the answer named and the merge's effects (added, merged, retired).
   */
  onEntityExtraction?(
    runId: string,
    entitiesExtracted: number,
    effects: readonly KnowledgeEffect[],
  ): unknown;
  /** After triple extraction merged what it found (the reference's `on_kg_extraction`). */
  onKgExtraction?(
    runId: string,
    triplesExtracted: number,
    effects: readonly KnowledgeEffect[],
  ): unknown;
  /**
   * A knowledge step failed (the reference's `on_error`): an extraction whose call rejected or
   * whose answer could not be read, or a knowledge store that failed. The run goes on; the same
   * error goes to `config.onError`.
   */
  onError?(runId: string, error: unknown, context: AgentErrorContext): unknown;
  /**
   * A tool call found unanswered when a run (or `resume`) began: the process running it stopped
   * (a crash, a kill) before its result was recorded. The agent answers it with a tool message
   * saying it was interrupted (or re-runs it, with `resume({ rerun: true })` and an `idempotent`
   * tool) and reports it here.
   */
  onToolInterrupted?(
    runId: string,
    toolCallId: string,
    toolName: string,
    input: JsonObject,
  ): unknown;
}

/**
 * Where an agent keeps its memory between runs and processes: a session store and the session's
 * id (and namespace).
 *
 * @example
 * ```ts
 * const session: AgentSession = { store: new InMemorySessionStore(), id: 'thread-7', namespace: 'user-42' };
 * ```
 */
export interface AgentSession {
  readonly store: SessionStore;
  readonly id: string;
  readonly namespace?: string | undefined;
}

/**
 * Where an event-sourced agent keeps its conversation: an event store and the stream's id (and
 * namespace), plus the config a new stream is created with (default: the memory's config before
 * the agent's first run, also for a stream created again after a deletion; for the memory the
 * agent makes, `PROVIDER_SAFE` over the defaults). The stream is the truth: every run starts from
 * it, its stored config included (a changed `config` does not apply to a stream that exists:
 * append `memoryActions.reconfigured(config)` to it), and every change the run makes to the
 * memory is appended to it as its action.
 *
 * @example
 * ```ts
 * const eventStore: AgentEventStore = {
 *   store: new InMemoryEventStore(),
 *   streamId: 'thread-7',
 *   namespace: 'user-42',
 *   config: { maxMessages: 50, tokenizer: 'heuristic' },
 * };
 * ```
 */
export interface AgentEventStore {
  readonly store: EventStore;
  readonly streamId: string;
  readonly namespace?: string | undefined;
  readonly config?: MemoryOptions | undefined;
}

/**
 * What `createAgent` takes.
 *
 * @example
 * ```ts
 * const options: AgentOptions = { provider: new LocalProvider(), memory: new ConversationMemory() };
 * ```
 */
export interface AgentOptions {
  readonly provider: Provider;
  readonly tools?: readonly AgentTool[];
  /**
   * Shared memory; without it (and without a session) every run is independent. Two agents may
   * share one.
   */
  readonly memory?: ConversationMemory;
  /**
   * Load the memory from this session at the start of every run (also when `memory` is given: the
   * stored state replaces its state, its config included) and save it at the end with the loaded
   * revision. Without `memory`, the agent makes one with the provider-safe policy
   * (`new ConversationMemory(PROVIDER_SAFE)`).
   *
   * A session the store does not have (new, deleted, expired) starts from the memory as the
   * agent's first run found it, config included (empty for the memory the agent makes; a memory
   * given with a pinned system message keeps it), never from what the memory held of a session
   * that is gone: a new agent with the same options would start the same. When the session goes
   * during a run, the save creates it again with that start and this run's messages only.
   */
  readonly session?: AgentSession;
  /**
   * Keep the conversation as a stream of actions (not with `session`): at the start of every run
   * the memory is loaded from the stream (an absent stream, new or deleted, is the empty state of
   * `config`, never what the memory held of a deleted one); every change the run makes to the
   * memory is appended as its action, in order, each append awaited and made with the expected
   * version. A conflict (another writer appended meanwhile) reloads the stream and makes the
   * change again on it, once; a second conflict rejects with `EventConflictError` (a stream
   * deleted during the run: the change is made on the empty state and creates it anew; what the
   * run appended before the deletion went with it). `memory`, when given, must be a
   * `RecordedMemory` (the agent makes one otherwise); changes made to it outside a run are not
   * appended, and the next run replaces them.
   */
  readonly eventStore?: AgentEventStore;
  readonly config?: AgentConfig;
  readonly observers?: readonly AgentObserver[];
  /**
   * Entity memory (`createEntityMemory()`): after each run's last model call, entities are
   * extracted from the messages not read yet (one provider call) and merged; `[Known Entities]`
   * goes to every main call.
   */
  readonly entityMemory?: EntityMemory;
  /**
   * A knowledge graph (`createKnowledgeGraph()`): after each run, relationship triples are
   * extracted from the messages not read yet and merged (bi-temporal, retired never deleted);
   * `[Known Relationships]` scoped to the user's latest message goes to every main call.
   */
  readonly knowledgeGraph?: KnowledgeGraph;
  /**
   * Long-term knowledge (`createKnowledgeMemory()`): the agent offers the tools `remember`,
   * `recall` and `forget`, and `[Important Knowledge]`/`[General Knowledge]` go to every main call.
   */
  readonly knowledgeMemory?: KnowledgeMemory;
  /**
   * Recall (`modelView`'s `recall`): before every main model call, the messages that left the
   * window and match the user's latest message are quoted in one system block
   * `[Earlier in this conversation]` of at most `budget` tokens (and `k` messages, default 16).
   * The source: with `eventStore`, the stream (read once, then from where it stopped; what
   * other writers appended counts too); else what left this agent's memory in this process
   * (with `session`, a session deleted and started again starts over). A clear forgets all.
   * Needs `memory`, `session` or `eventStore`.
   */
  readonly recall?: AgentRecallOptions;
}

/**
 * `createAgent`'s `recall` option.
 *
 * @example
 * ```ts
 * const recall: AgentRecallOptions = { budget: 2000, k: 6 };
 * ```
 */
export interface AgentRecallOptions {
  /** The recall block's most tokens: an integer ≥ 1. */
  readonly budget: number;
  /** The most messages recalled: an integer from 1 to 1,000 (default 16). */
  readonly k?: number;
}

/**
 * What `run` takes: a user's text, one message, or several (oldest first).
 *
 * @example
 * ```ts
 * const input: AgentInput = [systemMessage('Be brief.'), userMessage('hi')];
 * ```
 */
export type AgentInput = string | MessageInput | readonly MessageInput[];

/**
 * Per-run options.
 *
 * @example
 * ```ts
 * await agent.run('hi', { runId: 'req-42', signal: AbortSignal.timeout(30_000) });
 * ```
 */
export interface RunOptions {
  /** The id observers receive (default: a random UUID). */
  readonly runId?: string;
  /** Passed to every provider call. */
  readonly signal?: AbortSignal;
  /**
   * The id every message the run makes is recorded with (its replies, its tool results, the kept
   * part of an interrupted reply; not its input): the id of the UI message that shows the reply
   * in a chat UI (`toUIMessageStream`, `toUIMessages` in `conversation-memory/ai-sdk`). A
   * non-empty string of at most 256 characters. Without it, messages are recorded as they are.
   */
  readonly messageId?: string;
}

/**
 * What `agent.resume` takes: a run's options, and whether to run interrupted calls again.
 *
 * @example
 * ```ts
 * await agent.resume({ rerun: true, runId: 'recovery-1' });
 * ```
 */
export interface ResumeOptions extends RunOptions {
  /** Run interrupted calls of tools declared `idempotent: true` again (default `false`). */
  readonly rerun?: boolean;
}

/**
 * What a run resolves to.
 *
 * @example
 * ```ts
 * const { runId, message, iterations } = await agent.run('hi');
 * ```
 */
export interface AgentRunResult {
  readonly runId: string;
  /** The final assistant message (also added to memory). */
  readonly message: Message;
  /** How many main model calls the run made. */
  readonly iterations: number;
  /** `'maxIterations'` when the loop ran out before the model gave a final answer. */
  readonly stopReason: 'final' | 'maxIterations';
}

/**
 * An agent: the seed's `run()` flow around a provider, tools and an optional memory.
 *
 * @example
 * ```ts
 * const agent: Agent = createAgent({ provider: new LocalProvider() });
 * ```
 */
export interface Agent {
  run(input: AgentInput, options?: RunOptions): Promise<AgentRunResult>;
  /**
   * Runs like `run`, as an async iterable of `AgentStreamEvent`s: text deltas as the
   * provider streams them (its `stream`, else the whole reply as one delta), each tool call and
   * result, the memory's effects as they happen, and last `finish` with the result `run` would
   * resolve to. The run starts when the iteration starts (a stream nobody reads runs nothing),
   * and a stream is iterated once. A provider's stream is read no faster than the events are:
   * each text delta waits until the one before was taken, so a stream you stop reading without
   * leaving it (`break`, `return()`, cancelling the response body) holds its run, and its
   * memory's turn. Memory records each complete assistant message once, when it is complete. An
   * abort (the `signal`, or leaving the loop early) stops the run: no text delta is yielded after
   * the signal fires; the text of an unfinished reply that was yielded is kept as an assistant
   * message marked `metadata.interrupted: true` (nothing when none was), calls not run are
   * answered, and the iteration throws the reason. Later model calls send that reply with
   * ` [interrupted]` appended (`config.markInterrupted`).
   */
  stream(input: AgentInput, options?: RunOptions): AgentStream;
  /**
   * Finishes a conversation a stopped run left behind (a crash or a kill inside a tool): the
   * calls left unanswered at the end of memory are answered (with an interrupted-call result,
   * or, with `rerun: true`, by running again the tools declared `idempotent`), then the loop goes
   * on from memory as it stands, with no new input, until a final answer. A conversation that
   * already ends with a final answer resolves to it, with `iterations: 0`. (`run` answers
   * interrupted calls the same way, never re-running them, before it adds its input.) Rejects
   * with `InvalidMessageError` when there is no conversation to resume (an empty memory).
   */
  resume(options?: ResumeOptions): Promise<AgentRunResult>;
  /**
   * Clears the memory (`memory.clear()`) once every run already started on it has settled, so a
   * run in flight never writes into the cleared memory: the per-user pattern for one agent that
   * serves several users in turn. Resolves to the clear's effects (none without memory). With a
   * session, the cleared memory is saved to it (so the next run does not load the old one back).
   */
  clearMemory(): Promise<readonly MemoryEffect[]>;
  readonly memory: ConversationMemory | undefined;
}
