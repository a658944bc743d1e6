/**
 * A recorded agent conversation whose replies carry the usage the agent records
 * (`metadata.usage`), for the inspector's usage and cost tests: a real agent run on a
 * `RecordedMemory`, its actions appended to an event log.
 */
import {
  appendAction,
  createAgent,
  createEventLog,
  RecordedMemory,
  type CompletionResult,
  type CompletionUsage,
  type EventLog,
  type Provider,
} from 'conversation-memory';

/** The usage of each model call of {@link usageLog}, in order (`undefined`: none reported). */
export const USAGE_CALLS: readonly (CompletionUsage | undefined)[] = [
  { inputTokens: 1200, cachedInputTokens: 0, cacheWriteTokens: 1100, outputTokens: 20 },
  { inputTokens: 1300, cachedInputTokens: 1100, cacheWriteTokens: 150, outputTokens: 15 },
  undefined,
  { inputTokens: 1500, outputTokens: 30 },
];

/** The config of {@link usageLog}. */
export const USAGE_CONFIG = { maxMessages: 50, tokenizer: 'heuristic' } as const;

/**
 * The log of three agent runs: the first calls a tool (two model calls, each with a usage), the
 * second's reply reports no usage, the third's reports no cache counts; then an assistant
 * message added by the application whose `metadata.usage` is not a usage (shown as absent).
 *
 * @returns the log (steps: each run adds the user turn, then its messages)
 */
export const usageLog = async (): Promise<EventLog> => {
  const memory = new RecordedMemory(USAGE_CONFIG);
  let log = createEventLog(USAGE_CONFIG);
  memory.onAction((action) => {
    log = appendAction(log, action);
  });
  let call = 0;
  const provider: Provider = {
    name: 'usage-log',
    defaultModel: 'usage-model',
    complete: async (): Promise<CompletionResult> => {
      const usage = USAGE_CALLS[call];
      call += 1;
      const message =
        call === 1
          ? {
              role: 'assistant' as const,
              content: null,
              toolCalls: [{ id: 'c1', name: 'clock', parameters: {} }],
            }
          : { role: 'assistant' as const, content: `Answer ${call}.` };
      return usage === undefined ? { message } : { message, usage };
    },
  };
  const agent = createAgent({
    provider,
    memory,
    tools: [
      {
        name: 'clock',
        description: 'The time.',
        parameters: { type: 'object', properties: {} },
        execute: () => '12:00',
      },
    ],
  });
  await agent.run('What time is it?');
  await agent.run('Thanks.');
  await agent.run('Bye.');
  memory.add({
    role: 'assistant',
    content: 'Noted.',
    metadata: { usage: { inputTokens: -1, outputTokens: 2 } },
  });
  return log;
};
