import { normalizeMessage } from '../../internal/normalizeMessage';
import { userMessage } from '../../messages/constructors';
import type { Message } from '../../model/message';
import { SUMMARIZE_PROMPT, SUMMARIZER_SYSTEM_PROMPT } from '../prompts';
import type { RunContext } from './context';
import { changeMemory, commitChange } from './memoryStep';
import type { MemoryEffect } from '../../model/effects';
import { notify } from './notify';
import { callModel } from './callModel';

/**
 * The reference's excerpt: one `ROLE: content` line per message (`ASSISTANT: ` alone for a
 * tool-call-only message).
 *
 * @internal
 */
export const summaryExcerpt = (messages: readonly Message[]): string =>
  messages.map((message) => `${message.role.toUpperCase()}: ${message.content ?? ''}`).join('\n');

/**
 * Phase two of summarize-on-trim, run by the agent: when memory holds trimmed messages, asks the
 * summary provider for a summary of all of them (one call) and commits it, which releases them
 * and records what the summary covers; then tells the observers (`onMemorySummarize` with the
 * whole stored summary). A failed call (reported to `config.onError`), an invalid reply, or an
 * empty summary commits nothing: the messages stay held for the next attempt.
 *
 * @returns whether a summary call was made
 * @internal
 */
export const summarizePending = async (
  context: RunContext,
  iteration: number,
): Promise<boolean> => {
  const { memory, summarize } = context;
  if (memory === undefined || summarize === undefined) return false;
  const { messages, positions } = memory.pendingSummary;
  const through = positions[positions.length - 1];
  if (through === undefined) return false;
  let text: string;
  try {
    const request = {
      model: summarize.model,
      systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
      messages: [userMessage(SUMMARIZE_PROMPT + summaryExcerpt(messages))],
      maxTokens: summarize.maxTokens,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    };
    const result = await callModel(context, summarize.provider, request, 'summary', iteration);
    const reply = normalizeMessage(
      (result as { message?: unknown } | null)?.message,
      `${summarize.provider.name}: summary reply`,
    );
    text = reply.content ?? '';
  } catch (error) {
    context.report(error, { runId: context.runId, source: 'summarize' });
    return true;
  }
  let effects: readonly MemoryEffect[] = [];
  await commitChange(context, () => {
    effects = changeMemory(context, () => memory.commitSummary(text, through));
  });
  for (const effect of effects) context.emit?.({ type: 'memory-effect', effect });
  const summary = memory.summary;
  if (effects.some((effect) => effect.type === 'memory/summaryChanged') && summary !== null) {
    await notify(
      context.observers,
      'onMemorySummarize',
      [context.runId, summary],
      context.runId,
      context.report,
    );
  }
  return true;
};
