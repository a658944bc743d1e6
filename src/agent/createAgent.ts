import { InvalidMessageError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { normalizeMessage } from '../internal/normalizeMessage';
import { listItem, listLength } from '../internal/readList';
import { readOptionFields } from '../internal/readOptionFields';
import { userMessage } from '../messages/constructors';
import type { MemoryEffect } from '../model/effects';
import type { Message } from '../model/message';
import { checkAgentOptions } from './checkAgentOptions';
import type { ReportError } from './run/notify';
import { runAgent } from './run/runAgent';
import type { RunContext } from './run/context';
import { loadSession, reapplyRun, saveSession } from './run/session';
import { SessionStart } from './run/sessionStart';
import { clearMemory as clearMemoryState } from '../core/clearMemory';
import { ConversationMemory } from '../facade/ConversationMemory';
import { takeTurn } from './run/memoryTurns';
import { EventJournal } from './run/eventJournal';
import { RecordedMemory } from '../facade/RecordedMemory';
import type {
  Agent,
  AgentInput,
  AgentOptions,
  AgentRunResult,
  AgentTool,
  ResumeOptions,
  RunOptions,
} from './types';
import { streamRun, type StreamSink } from './run/streamRun';
import { PROVIDER_SAFE } from '../model/providerSafe';
import { knowledgeTools } from './run/knowledgeTools';
import { knowledgeRun } from './run/knowledgeStep';
import { readToolResultTool } from './run/readToolResultTool';

const API = 'agent.run';

let runCount = 0;

/** A run id: a random UUID where the platform has one, else a counter with the time. */
const newRunId = (): string => {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  runCount += 1;
  return `run-${Date.now().toString(36)}-${runCount}`;
};

/** The run's input as canonical messages; a string is one user message. */
const readInput = (input: AgentInput): Message[] => {
  if (typeof input === 'string') return [userMessage(input)];
  if (!Array.isArray(input)) return [normalizeMessage(input, API)];
  const length = listLength(input, API);
  const messages: Message[] = [];
  for (let i = 0; i < length; i++) messages.push(normalizeMessage(listItem(input, i, API), API, i));
  return messages;
};

/**
 * A run's options, read once (`runId`, `signal`; `resume` adds `rerun`): options that are not an
 * object, an unknown key, or options that cannot be read (a getter or a Proxy trap that throws,
 * with the caller's error as `cause`) are an `InvalidMessageError` naming the call.
 */
const readOptions = (options: unknown, api: string, known: readonly string[], example: string) =>
  readOptionFields(options, known, api, { example, error: InvalidMessageError });

const readRunOptions = (
  options: unknown,
  api: string,
): { runId: string; signal: AbortSignal | undefined } =>
  checkRunOptions(readOptions(options, api, RUN_OPTIONS, '{ runId, signal }'), api);

/** Checks the fields of a run's options (read by {@link readOptions}). */
const checkRunOptions = (
  { runId, signal }: { runId?: unknown; signal?: unknown },
  api: string,
): { runId: string; signal: AbortSignal | undefined } => {
  if (runId !== undefined && (typeof runId !== 'string' || runId === '')) {
    throw new InvalidMessageError(
      api,
      `options.runId must be a non-empty string, received ${describeValue(runId)}`,
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidMessageError(
      api,
      `options.signal must be an AbortSignal, received ${describeValue(signal)}`,
    );
  }
  return { runId: (runId as string | undefined) ?? newRunId(), signal };
};

/** The options of `run` and `stream`. */
const RUN_OPTIONS = ['runId', 'signal'];

/** `resume`'s options: `rerun` (default `false`) and a run's `runId` and `signal`. */
const readResumeOptions = (
  options: ResumeOptions | undefined,
): { runId: string; signal: AbortSignal | undefined; rerun: boolean } => {
  const api = 'agent.resume';
  const { rerun = false, ...run } = readOptions(
    options,
    api,
    ['rerun', ...RUN_OPTIONS],
    '{ rerun: true }',
  );
  if (typeof rerun !== 'boolean') {
    throw new InvalidMessageError(
      api,
      `options.rerun must be true or false, received ${describeValue(rerun)}`,
    );
  }
  return { ...checkRunOptions(run, api), rerun };
};

/**
 * Creates an agent: the seed's `run()` flow with memory, tools, observers and summarize-on-trim.
 *
 * A run takes the history from memory, adds the new messages (`addMany`), then loops: a main
 * model call; a reply with tool calls is added to memory, each call is run and its result added;
 * a reply without tool calls is the final answer, added to memory and returned. Without memory,
 * runs are independent. Runs that share a memory take turns (the second waits for the first).
 *
 * With `summarizeOnTrim`, what memory trims is held in the memory's state (not lost) and
 * summarized before the run's next model call or at its end: at most one summary call per main
 * model call, never one per add inside a tool loop. A failed or empty summary changes nothing and
 * the held messages wait for the next attempt. Every main call carries the stored summary as a
 * system message `[Conversation Summary] …` at index 0 (never stored in memory).
 *
 * With `session`, each run loads the session (the stored state replaces the memory's) and saves
 * it at the end with the revision it loaded. A session the store does not have (new, deleted,
 * expired) starts from the memory as the agent's first run found it, never from what the memory
 * held of a session that is gone; one that goes during the run is saved again with that start
 * and this run's messages only.
 *
 * With `eventStore`, the conversation is a stream of actions: each run loads the stream into the
 * memory (a `RecordedMemory`), and each change it makes (an add with the holds it causes, a
 * committed summary, a clear) is appended as its actions before the run goes on, with the
 * expected version; a conflict reloads and makes the change again, once. An absent stream (new
 * or deleted) is the empty state of the stream's config.
 *
 * @param options - `provider`, `tools`, `memory`, `session` or `eventStore`, `config`, `observers`
 * @returns the agent
 * @throws AgentConfigError naming the invalid option and its value
 * @example
 * ```ts
 * const memory = new ConversationMemory({ maxMessages: 20 });
 * const agent = createAgent({ provider: new LocalProvider(), memory });
 * await agent.run('My name is Alice');
 * (await agent.run("What's my name?")).message.content; // 'Your name is Alice.'
 * ```
 */
export const createAgent = (options: AgentOptions): Agent => {
  const checked = checkAgentOptions(options);
  const { session, eventStore } = checked;
  // A session or a stream needs a memory to load into: the agent makes one when none was given
  // (for a stream, one that records its changes as actions), with the provider-safe policy
  // unless the stream's config says otherwise. A given memory keeps its own policy.
  const memory =
    checked.memory ??
    (eventStore !== undefined
      ? new RecordedMemory(eventStore.config ?? PROVIDER_SAFE)
      : session === undefined
        ? undefined
        : new ConversationMemory(PROVIDER_SAFE));
  // Where a session or stream the store does not have starts: the memory as first found.
  const sessionStart = new SessionStart();
  const journal = () =>
    eventStore === undefined
      ? undefined
      : new EventJournal(eventStore, memory as RecordedMemory, sessionStart);
  const report: ReportError = (error, context) => {
    try {
      checked.onError?.(error, context as never);
    } catch {
      // An onError that throws has nowhere left to report to.
    }
  };
  const target = checked.provider.target ?? 'openai';
  const start = (
    messages: readonly Message[],
    { runId, signal }: { runId: string; signal: AbortSignal | undefined },
    resume: { readonly rerun: boolean } | undefined,
    sink?: StreamSink,
  ): Promise<AgentRunResult> => {
    const knowledge = checked.knowledge;
    const tools = new Map(checked.tools);
    const toolSpecs = [...checked.toolSpecs];
    const context: RunContext = {
      runId,
      signal,
      provider: checked.provider,
      target,
      model: checked.model,
      systemPrompt: checked.systemPrompt,
      maxIterations: checked.maxIterations,
      tools,
      toolSpecs,
      memory,
      observers: checked.observers,
      summarize: checked.summarize,
      report,
      added: [],
      journal: journal(),
      emit: sink?.emit,
      whenRead: sink?.whenRead,
      knowledge: knowledge === undefined ? undefined : knowledgeRun(knowledge),
      mask: checked.mask === undefined ? undefined : { keep: checked.mask, view: undefined },
      markInterrupted: checked.markInterrupted,
      cache: checked.cache,
    };
    const runTools: AgentTool[] = [];
    // The knowledge tools act for this run (its memory, stream and store revision).
    if (knowledge?.knowledgeMemory !== undefined) {
      runTools.push(...knowledgeTools(context, knowledge.knowledgeMemory));
    }
    // With masking, the model can read a masked result again (from this run's transcript).
    if (context.mask !== undefined) runTools.push(readToolResultTool(context));
    for (const tool of runTools) {
      tools.set(tool.name, tool);
      toolSpecs.push({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      });
    }
    return takeTurn(memory, async () => {
      if (context.journal !== undefined) {
        // The stream is the truth: load it, then every change of the run is appended.
        await context.journal.load();
        return runAgent(context, messages, resume);
      }
      if (session === undefined || memory === undefined) {
        return runAgent(context, messages, resume);
      }
      // Load at the start (the stored state replaces the memory's), save at the end with the
      // loaded revision; a run that throws saves nothing.
      const revision = await loadSession(session, memory, sessionStart, context);
      const result = await runAgent(context, messages, resume);
      const added = context.added ?? [];
      const hold = checked.summarize !== undefined;
      await saveSession(
        session,
        memory,
        revision,
        (latest) => reapplyRun(latest, added, hold, context.knowledge?.actions ?? []),
        sessionStart,
        context,
      );
      return result;
    });
  };
  return {
    memory,
    run: async (input: AgentInput, runOptions?: RunOptions) =>
      start(readInput(input), readRunOptions(runOptions, API), undefined),
    resume: async (resumeOptions?: ResumeOptions) => {
      const { rerun, ...run } = readResumeOptions(resumeOptions);
      return start([], run, { rerun });
    },
    stream: (input: AgentInput, runOptions?: RunOptions) => {
      const messages = readInput(input);
      const options = readRunOptions(runOptions, 'agent.stream');
      return streamRun(
        (sink, signal) => start(messages, { runId: options.runId, signal }, undefined, sink),
        options.signal,
      );
    },
    clearMemory: () =>
      takeTurn(memory, async () => {
        if (memory === undefined) return NO_EFFECTS;
        const stream = journal();
        if (stream !== undefined) {
          // With a stream, the clear is appended (`memory/cleared`), like any change.
          await stream.load();
          let effects = NO_EFFECTS;
          await stream.commit(() => {
            effects = memory.clear();
          });
          return effects;
        }
        if (session === undefined) return memory.clear();
        // With a session, the cleared memory is saved too (else the next run would load it back).
        const run = { runId: 'clearMemory', observers: [], report };
        const revision = await loadSession(session, memory, sessionStart, run);
        const effects = memory.clear();
        await saveSession(
          session,
          memory,
          revision,
          (latest) => clearMemoryState(latest).state,
          sessionStart,
          run,
        );
        return effects;
      }),
  };
};

const NO_EFFECTS: readonly MemoryEffect[] = Object.freeze([]);
