import type { KnowledgeAction } from '../../model/knowledgeActions';
import { memoryTransition } from '../../core/memoryTransition';
import { addMessages } from '../../core/addMessages';
import { holdForSummary } from '../../core/holdForSummary';
import type { ConversationMemory } from '../../facade/ConversationMemory';
import type { Message } from '../../model/message';
import type { MemoryState } from '../../model/state';
import type { CheckedSession } from '../checkAgentOptions';
import type { AgentObserver } from '../types';
import { notify, type ReportError } from './notify';
import { saveOnConflict } from './saveOnConflict';
import type { SessionStart } from './sessionStart';

/** What the session steps need of a run. */
interface SessionRun {
  readonly runId: string;
  readonly observers: readonly AgentObserver[];
  readonly report: ReportError;
}

/**
 * Loads the run's session into memory (the stored state replaces the memory's) and returns the
 * revision to save with: `0` when the store has no such session (the save then creates it).
 *
 * A session the store does not have (never saved, deleted, expired) starts from the agent's
 * {@link SessionStart}, never from what the memory held: on a first run that is the memory as
 * it is; after the session vanished, the old content goes. `onSessionLoad` fires when something
 * was loaded, and when a session the memory held is gone (with the count of the start's
 * messages, `0` for the memory the agent made).
 *
 * @internal
 */
export const loadSession = async (
  session: CheckedSession,
  memory: ConversationMemory,
  start: SessionStart,
  run: SessionRun,
): Promise<number> => {
  const { id, namespace, key } = session.where;
  const initial = start.of(memory);
  const loaded = await session.store.load(id, { namespace });
  const vanished = loaded === null && start.held;
  start.held = loaded !== null;
  memory.restore(loaded?.state ?? initial);
  if (loaded === null && !vanished) return 0;
  await notify(
    run.observers,
    'onSessionLoad',
    [run.runId, key, memory.state.messages.length],
    run.runId,
    run.report,
  );
  return loaded?.revision ?? 0;
};

/**
 * This run's messages added again onto another writer's state, as the run added them: trims
 * happen on the way, and what they remove is held for summarizing when the agent summarizes.
 *
 * @internal
 */
export const reapplyRun = (
  base: MemoryState,
  added: readonly Message[],
  hold: boolean,
  knowledge: readonly KnowledgeAction[] = [],
): MemoryState => {
  const transition = addMessages(base, added);
  let state = transition.state;
  if (hold) {
    for (const effect of transition.effects) {
      if (effect.type === 'memory/trimmed') state = holdForSummary(state, effect).state;
    }
  }
  // The run's knowledge actions, again (a fact already merged by the other writer is a mention).
  for (const action of knowledge) state = memoryTransition(state, action).state;
  return state;
};

/** One save, and one more on the latest state after a conflict (a second conflict rejects). */
const SESSION_RETRY = { conflict: 'CM_SESSION_CONFLICT', attempts: 2 } as const;

/**
 * Saves the memory at the end of a run, expecting the revision the run loaded. When another
 * writer saved in between (`SessionConflictError`), the run's change is made again on the latest
 * stored state (`redo`) and saved with its revision, once; a second conflict rejects. When the
 * session is gone by then (deleted or expired during the run), the change is made again on the
 * agent's {@link SessionStart} instead, never on what the memory held: the session is created
 * again with the start and this run's messages only. Then `onSessionSave`.
 *
 * @internal
 */
export const saveSession = async (
  session: CheckedSession,
  memory: ConversationMemory,
  revision: number,
  redo: (latest: MemoryState) => MemoryState,
  start: SessionStart,
  run: SessionRun,
): Promise<void> => {
  const { id, namespace, key } = session.where;
  const record = { store: session.store, id, options: { namespace }, ...SESSION_RETRY };
  let merged: MemoryState | undefined;
  await saveOnConflict(record, memory.state, revision, async (load) => {
    const latest = await load();
    merged = redo(latest?.state ?? start.of(memory));
    return merged;
  });
  if (merged !== undefined) memory.restore(merged);
  start.held = true;
  await notify(
    run.observers,
    'onSessionSave',
    [run.runId, key, memory.state.messages.length],
    run.runId,
    run.report,
  );
};
