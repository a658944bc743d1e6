import { clearMemory as clearMemoryState } from '../../core/clearMemory';
import { RecordedMemory } from '../../facade/RecordedMemory';
import { ConversationMemory } from '../../facade/ConversationMemory';
import { NO_EFFECTS } from '../../internal/window';
import type { MemoryEffect } from '../../model/effects';
import { PROVIDER_SAFE } from '../../model/providerSafe';
import type { CheckedAgentOptions } from '../checkAgentOptions';
import type { AgentRunResult } from '../types';
import type { RunContext } from './context';
import { EventJournal } from './eventJournal';
import type { ReportError } from './notify';
import { loadSession, reapplyRun, saveSession } from './session';
import { SessionStart } from './sessionStart';

/**
 * How one agent keeps its conversation between runs: nothing, a saved state (`session`), or a
 * stream of actions (`eventStore`).
 *
 * @internal
 */
export interface AgentPersistence {
  /** The memory the agent runs on: the one it was given, or one it made to load into. */
  readonly memory: ConversationMemory | undefined;
  /** A new link to the event stream for one run or one clear; `undefined` without `eventStore`. */
  readonly journal: () => EventJournal | undefined;
  /**
   * Runs `run` (one run of the agent, on `context`) between the load and the save of what the
   * agent keeps: with a stream, loads it first (every change is appended as it is made); with a
   * session, loads it first and saves it after with the loaded revision (a run that throws saves
   * nothing); else runs it as it is.
   */
  readonly around: (
    context: RunContext,
    run: () => Promise<AgentRunResult>,
  ) => Promise<AgentRunResult>;
  /**
   * `agent.clearMemory`: clears the memory, and what the agent keeps with it (a stream gets a
   * `memory/cleared` action, a session is saved cleared).
   */
  readonly clear: (report: ReportError) => Promise<readonly MemoryEffect[]>;
}

/**
 * The persistence of an agent made with `checked` options: the memory it runs on, and the loads
 * and saves around each run and each clear.
 *
 * A session or a stream needs a memory to load into: the agent makes one when none was given (for
 * a stream, one that records its changes as actions), with the provider-safe policy unless the
 * stream's config says otherwise. A given memory keeps its own policy. A session or stream the
 * store does not have starts from the memory as the agent's first load found it.
 *
 * @param checked - the agent's checked options
 * @returns the memory, and the steps that load and save around runs and clears
 * @example
 * ```ts
 * const persistence = agentPersistence(checkAgentOptions({ provider, session: { store, id } }));
 * await persistence.around(context, () => runAgent(context, messages, undefined));
 * ```
 * @internal
 */
export const agentPersistence = (checked: CheckedAgentOptions): AgentPersistence => {
  const { session, eventStore } = checked;
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

  const around = async (
    context: RunContext,
    run: () => Promise<AgentRunResult>,
  ): Promise<AgentRunResult> => {
    if (context.journal !== undefined) {
      // The stream is the truth: load it, then every change of the run is appended.
      await context.journal.load();
      return run();
    }
    if (session === undefined || memory === undefined) return run();
    // Load at the start (the stored state replaces the memory's), save at the end with the
    // loaded revision; a run that throws saves nothing.
    const revision = await loadSession(session, memory, sessionStart, context);
    const result = await run();
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
  };

  const clear = async (report: ReportError): Promise<readonly MemoryEffect[]> => {
    if (memory === undefined) return NO_EFFECTS;
    const stream = journal();
    if (stream !== undefined) {
      // With a stream, the clear is appended (`memory/cleared`), like any change.
      await stream.load();
      let effects: readonly MemoryEffect[] = NO_EFFECTS;
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
  };

  return { memory, journal, around, clear };
};
