import { isConversationMemoryError } from '../../errors/errorBrand';
import type { MemoryEffect, TrimmedEffect } from '../../model/effects';
import type { Message } from '../../model/message';
import type { RunContext } from './context';
import { notify } from './notify';

/** The effects of a memory call; a `ListenerError` (a memory subscriber threw) is reported, not fatal. */
const effectsOf = (context: RunContext, change: () => readonly MemoryEffect[]) => {
  try {
    return change();
  } catch (error) {
    if (isConversationMemoryError(error) && error.code === 'CM_LISTENER') {
      context.report(error, { runId: context.runId, source: 'memoryListener' });
      return (error as unknown as { effects: readonly MemoryEffect[] }).effects;
    }
    throw error;
  }
};

/**
 * Makes one change on the run's memory: directly, or through the run's event journal (which
 * appends the change's actions to the stream and may make the change again after a conflict).
 *
 * @internal
 */
export const commitChange = async (context: RunContext, change: () => void): Promise<void> => {
  if (context.journal === undefined) change();
  else await context.journal.commit(change);
};

/**
 * Adds messages to the run's memory (one `addMany`), then, for the trim it caused: holds the
 * removed messages for summarizing (when `summarizeOnTrim` is on) and tells the observers
 * (`onMemoryTrim(runId, removed, remaining, 'enforce_limits')`, as the reference does after
 * every add that removed messages). Without memory it does nothing.
 *
 * @internal
 */
export const addToMemory = async (
  context: RunContext,
  messages: readonly Message[],
): Promise<number[] | undefined> => {
  const { memory } = context;
  if (memory === undefined) return undefined;
  context.added?.push(...messages);
  let trims: TrimmedEffect[] = [];
  let all: MemoryEffect[] = [];
  // One step: the add and the holds of what it trimmed (appended together with an event store).
  await commitChange(context, () => {
    trims = [];
    all = [];
    for (const effect of effectsOf(context, () => memory.addMany(messages))) {
      all.push(effect);
      if (effect.type !== 'memory/trimmed' || effect.reason !== 'enforce_limits') continue;
      if (context.summarize !== undefined) {
        all.push(...effectsOf(context, () => memory.holdForSummary(effect)));
      }
      trims.push(effect);
    }
  });
  // The add took the positions just before the next one (one per message, in order).
  const next = memory.state.nextPosition;
  const positions = messages.map((_, k) => next - messages.length + k);
  if (context.emit !== undefined) {
    for (const effect of all) context.emit({ type: 'memory-effect', effect });
  }
  for (const effect of trims) {
    await notify(
      context.observers,
      'onMemoryTrim',
      [context.runId, effect.removed.length, effect.remaining, effect.reason],
      context.runId,
      context.report,
    );
  }
  return positions;
};

/**
 * {@link effectsOf} for the other memory calls of a run.
 *
 * @internal
 */
export const changeMemory = effectsOf;
