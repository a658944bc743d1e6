import type { ConversationMemory } from '../../facade/ConversationMemory';
import type { RecallFeed } from './recallFeed';
import type { ViewTarget } from '../../view/viewTypes';
import type { CheckedAgentOptions } from '../checkAgentOptions';
import type { AgentTool } from '../types';
import type { RunContext } from './context';
import type { EventJournal } from './eventJournal';
import { knowledgeRun } from './knowledgeStep';
import { knowledgeTools } from './knowledgeTools';
import type { ReportError } from './notify';
import { readToolResultTool } from './readToolResultTool';
import type { StreamSink } from './streamRun';

/**
 * What every run of one agent shares: its checked options, its memory (the one it was given or
 * made), whose rules its model views meet, and where its errors are reported.
 *
 * @internal
 */
export interface AgentSetup {
  readonly checked: CheckedAgentOptions;
  readonly memory: ConversationMemory | undefined;
  readonly target: ViewTarget;
  readonly report: ReportError;
  /** With the `recall` option: the agent's feed of what left its window. */
  readonly recallFeed?: RecallFeed | undefined;
}

/**
 * The context of one run: the agent's setup, the run's id and signal, its link to the event
 * stream (`journal`, with `eventStore`), the stream's sink (with `agent.stream`), and the tools
 * the run adds to the agent's own: knowledge memory's `remember`/`recall`/`forget` (acting for
 * this run) and, with masking, `read_tool_result` (reading this run's transcript). Loads and
 * saves nothing: persistence is {@link agentPersistence}'s.
 *
 * @param setup - what the agent's runs share
 * @param run - the run's id, abort signal and the id of the messages it records
 * @param journal - the run's link to the event stream, or `undefined`
 * @param sink - where `agent.stream` takes the run's events, or `undefined`
 * @returns a fresh context (its tool map and specs are the run's own copies)
 * @example
 * ```ts
 * const context = assembleRunContext(setup, { runId: 'r1', signal: undefined }, undefined);
 * await runAgent(context, [userMessage('hi')], undefined);
 * ```
 * @internal
 */
export const assembleRunContext = (
  { checked, memory, target, report, recallFeed }: AgentSetup,
  {
    runId,
    signal,
    messageId,
  }: {
    readonly runId: string;
    readonly signal: AbortSignal | undefined;
    readonly messageId?: string | undefined;
  },
  journal: EventJournal | undefined,
  sink?: StreamSink,
): RunContext => {
  const knowledge = checked.knowledge;
  const tools = new Map(checked.tools);
  const toolSpecs = [...checked.toolSpecs];
  const context: RunContext = {
    runId,
    signal,
    messageId,
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
    journal,
    emit: sink?.emit,
    whenRead: sink?.whenRead,
    knowledge: knowledge === undefined ? undefined : knowledgeRun(knowledge),
    mask: checked.mask === undefined ? undefined : { keep: checked.mask, view: undefined },
    markInterrupted: checked.markInterrupted,
    cache: checked.cache,
    recall:
      checked.recall === undefined || recallFeed === undefined
        ? undefined
        : { feed: recallFeed, ...checked.recall },
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
  return context;
};
