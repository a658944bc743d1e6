import type { MemoryAction } from '../../model/actions';
import type { Message } from '../../model/message';
import { readUsage } from '../../tokens/readUsage';
import type { StepUsage } from './types';

/** The usage a message records (`metadata.usage` of an assistant message), or `null`. */
const usageOfMessage = (message: Message): StepUsage | null => {
  if (message.role !== 'assistant' || message.metadata === undefined) return null;
  if (!Object.prototype.hasOwnProperty.call(message.metadata, 'usage')) return null;
  // Metadata is the application's data: a usage that does not read is shown as absent.
  const usage = readUsage(message.metadata['usage']);
  return typeof usage === 'string' ? null : { calls: 1, ...usage };
};

/**
 * Two usages added up: the calls and every count; a cache count is present when either has it
 * (a call that did not report one counts as 0).
 *
 * @param a - a usage
 * @param b - another
 * @returns their sum
 * @example
 * ```ts
 * addStepUsage({ calls: 1, inputTokens: 10, outputTokens: 2 }, { calls: 1, inputTokens: 5, cachedInputTokens: 4, outputTokens: 1 });
 * // { calls: 2, inputTokens: 15, outputTokens: 3, cachedInputTokens: 4 }
 * ```
 */
export const addStepUsage = (a: StepUsage, b: StepUsage): StepUsage => {
  const cached =
    a.cachedInputTokens === undefined && b.cachedInputTokens === undefined
      ? {}
      : { cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0) };
  const written =
    a.cacheWriteTokens === undefined && b.cacheWriteTokens === undefined
      ? {}
      : { cacheWriteTokens: (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0) };
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...cached,
    ...written,
  };
};

/**
 * The model calls a step records: the usage of every assistant message the action adds that
 * carries one in `metadata.usage` (the agent puts each call's usage there), added up. A usage
 * that is not a valid `CompletionUsage` is left out, as if absent (metadata is the
 * application's data: never thrown on).
 *
 * @param action - the step's action (`null` at step 0)
 * @returns the usage, or `null` when the step adds no message with a usage
 * @example
 * ```ts
 * const reply = { ...assistantMessage('Hi'), metadata: { usage: { inputTokens: 900, cachedInputTokens: 768, outputTokens: 5 } } };
 * stepUsageOf({ type: 'memory/messageAdded', payload: reply });
 * // { calls: 1, inputTokens: 900, outputTokens: 5, cachedInputTokens: 768 }
 * ```
 */
export const stepUsageOf = (action: MemoryAction | null): StepUsage | null => {
  if (action === null) return null;
  const added =
    action.type === 'memory/messageAdded'
      ? [action.payload]
      : action.type === 'memory/messagesAdded'
        ? action.payload
        : [];
  let total: StepUsage | null = null;
  for (const message of added) {
    const usage = usageOfMessage(message);
    if (usage !== null) total = total === null ? usage : addStepUsage(total, usage);
  }
  return total;
};

/**
 * The usage of the steps shown, added up: the steps with a usage only.
 *
 * @param rows - the steps (their `usage`)
 * @returns the total, or `null` when no step records a usage
 * @example
 * ```ts
 * usageTotal(timelineRows(log)); // { calls: 12, inputTokens: 48000, cachedInputTokens: 39000, outputTokens: 900 }
 * ```
 */
export const usageTotal = (
  rows: readonly { readonly usage: StepUsage | null }[],
): StepUsage | null => {
  let total: StepUsage | null = null;
  for (const row of rows) {
    if (row.usage !== null) total = total === null ? row.usage : addStepUsage(total, row.usage);
  }
  return total;
};
