import { InvalidMessageError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { normalizeMessage } from '../internal/normalizeMessage';
import { listItem, listLength } from '../internal/readList';
import { readOptionFields } from '../internal/readOptionFields';
import { userMessage } from '../messages/constructors';
import type { Message } from '../model/message';
import { memoryRecallFeed, streamRecallFeed } from './run/recallFeed';
import { checkAgentOptions } from './checkAgentOptions';
import { agentPersistence } from './run/agentPersistence';
import { assembleRunContext, type AgentSetup } from './run/assembleRunContext';
import type { ReportError } from './run/notify';
import { runAgent } from './run/runAgent';
import { takeTurn } from './run/memoryTurns';
import type {
  Agent,
  AgentInput,
  AgentOptions,
  AgentRunResult,
  ResumeOptions,
  RunOptions,
} from './types';
import { streamRun, type StreamSink } from './run/streamRun';

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

const readRunOptions = (options: unknown, api: string): RunIds =>
  checkRunOptions(readOptions(options, api, RUN_OPTIONS, '{ runId, signal, messageId }'), api);

/** Checks the fields of a run's options (read by {@link readOptions}). */
const checkRunOptions = (
  { runId, signal, messageId }: { runId?: unknown; signal?: unknown; messageId?: unknown },
  api: string,
): RunIds => {
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
  if (
    messageId !== undefined &&
    (typeof messageId !== 'string' || messageId === '' || messageId.length > MAX_MESSAGE_ID)
  ) {
    throw new InvalidMessageError(
      api,
      `options.messageId must be a non-empty string of at most ${MAX_MESSAGE_ID} characters, received ${describeValue(messageId)}`,
    );
  }
  return {
    runId: (runId as string | undefined) ?? newRunId(),
    signal,
    messageId: messageId as string | undefined,
  };
};

/** The longest `messageId` a run takes (an application's id: a UUID, a database key). */
const MAX_MESSAGE_ID = 256;

/** A run's id, signal and the id of the messages it records, as read from its options. */
interface RunIds {
  readonly runId: string;
  readonly signal: AbortSignal | undefined;
  readonly messageId: string | undefined;
}

/** The options of `run` and `stream`. */
const RUN_OPTIONS = ['runId', 'signal', 'messageId'];

/** `resume`'s options: `rerun` (default `false`) and a run's `runId` and `signal`. */
const readResumeOptions = (options: ResumeOptions | undefined): RunIds & { rerun: boolean } => {
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
  const persistence = agentPersistence(checked);
  const { memory } = persistence;
  const report: ReportError = (error, context) => {
    try {
      checked.onError?.(error, context as never);
    } catch {
      // An onError that throws has nowhere left to report to.
    }
  };
  const setup: AgentSetup = {
    checked,
    memory,
    target: checked.provider.target ?? 'openai',
    report,
    recallFeed:
      checked.recall === undefined
        ? undefined
        : checked.eventStore !== undefined
          ? streamRecallFeed(checked.eventStore)
          : memory === undefined
            ? undefined
            : memoryRecallFeed(memory),
  };
  const start = (
    messages: readonly Message[],
    run: RunIds,
    resume: { readonly rerun: boolean } | undefined,
    sink?: StreamSink,
  ): Promise<AgentRunResult> => {
    const context = assembleRunContext(setup, run, persistence.journal(), sink);
    return takeTurn(memory, () =>
      persistence.around(context, () => runAgent(context, messages, resume)),
    );
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
        (sink, signal) => start(messages, { ...options, signal }, undefined, sink),
        options,
      );
    },
    clearMemory: () => takeTurn(memory, () => persistence.clear(report)),
  };
};
