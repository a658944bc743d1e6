import { either as E } from 'fp-ts';
import { createKnowledge } from '../../knowledge/createKnowledge';
import { knowledgeBlocks } from '../../knowledge/retrieval/knowledgeBlocks';
import type { KnowledgeBlocksOptions } from '../../knowledge/retrieval/types';
import { renderExtractionConversation } from '../../knowledge/extraction/prompts';
import { readEntityAnswer } from '../../knowledge/extraction/readEntityAnswer';
import { readTripleAnswer } from '../../knowledge/extraction/readTripleAnswer';
import { userMessage, systemMessage } from '../../messages/constructors';
import { countMessageTokens } from '../../tokens/registry';
import { getPositions } from '../../core/selectors';
import { DEFAULT_CONFIG } from '../../internal/defaultConfig';
import type { KnowledgeState } from '../../model/knowledge';
import type { ExtractionSource, KnowledgeAction } from '../../model/knowledgeActions';
import type { KnowledgeEffect } from '../../model/knowledgeEffects';
import type { Message } from '../../model/message';
import type { KnowledgeModules } from '../checkAgentOptions';
import type { EntityMemory, KnowledgeGraph, KnowledgeModule } from '../knowledge/moduleTypes';
import { SharedKnowledge } from '../knowledge/sharedKnowledge';
import type { AgentErrorContext } from '../types';
import { callModel } from './callModel';
import type { RunContext } from './context';
import { commitChange } from './memoryStep';
import { notify } from './notify';

/**
 * A run's link to its knowledge modules: the modules, the knowledge store records of those that
 * have a `store` (one {@link SharedKnowledge} per store, id and namespace, shared by the modules
 * that name it), and the knowledge actions the run committed to the conversation (a session save
 * that meets a conflict applies them again to the latest state).
 *
 * @internal
 */
export interface KnowledgeRun {
  readonly modules: KnowledgeModules;
  readonly shared: ReadonlyMap<KnowledgeModule, SharedKnowledge>;
  readonly actions: KnowledgeAction[];
}

/** The modules in the order their errors name them. */
const MODULE_NAMES = ['entityMemory', 'knowledgeGraph', 'knowledgeMemory'] as const;

/**
 * A new run's link to `modules`: modules given the same store object, `id` and `namespace` share
 * one record.
 *
 * @internal
 */
export const knowledgeRun = (modules: KnowledgeModules): KnowledgeRun => {
  const shared = new Map<KnowledgeModule, SharedKnowledge>();
  const records: SharedKnowledge[] = [];
  for (const name of MODULE_NAMES) {
    const module = modules[name];
    const store = module?.options.store;
    if (module === undefined || store === undefined) continue;
    const { id, namespace } = module.options;
    let record = records.find(
      ({ link }) => link.store === store && link.id === id && link.namespace === namespace,
    );
    if (record === undefined) {
      record = new SharedKnowledge({ store, id, namespace });
      records.push(record);
    }
    record.modules.push(module);
    shared.set(module, record);
  }
  return { modules, shared, actions: [] };
};

/** A module's name, as `AgentErrorContext.source` gives it. */
type ModuleName = 'entityMemory' | 'knowledgeGraph' | 'knowledgeMemory';

/**
 * Reports a failed knowledge step to the observers' `onError` and to `config.onError`; the run
 * goes on.
 *
 * @internal
 */
export const reportKnowledgeError = async (
  context: RunContext,
  error: unknown,
  source: ModuleName,
): Promise<void> => {
  const where: AgentErrorContext = { runId: context.runId, source };
  context.report(error, where);
  await notify(
    context.observers,
    'onError',
    [context.runId, error, where],
    context.runId,
    context.report,
  );
};

/**
 * Puts the conversation's facts into the modules that follow the conversation; a module with a
 * store keeps its record's facts, and takes the conversation's cursors when `cursors` is set.
 */
const followConversation = (
  run: KnowledgeRun,
  conversation: KnowledgeState,
  cursors: boolean,
): void => {
  for (const name of MODULE_NAMES) {
    const module = run.modules[name];
    if (module === undefined) continue;
    if (!run.shared.has(module)) module.restore(conversation);
    else if (cursors && module.state.cursors !== conversation.cursors) {
      module.restore(Object.freeze({ ...module.state, cursors: conversation.cursors }));
    }
  }
};

/**
 * At the start of a run (after the session or stream was loaded): with a memory, its facts
 * (`state.knowledge`) are the truth of the modules without a store, and its cursors the truth of
 * every module; each knowledge store record is loaded (a store that fails is reported, the
 * modules keep what they held, and the run's first commit to it loads it again).
 *
 * @internal
 */
export const startKnowledge = async (context: RunContext): Promise<void> => {
  const run = context.knowledge;
  if (run === undefined) return;
  const { memory } = context;
  if (memory !== undefined) {
    followConversation(run, memory.state.knowledge ?? createKnowledge(), true);
  }
  for (const record of new Set(run.shared.values())) {
    try {
      await record.load();
    } catch (error) {
      await reportKnowledgeError(context, error, nameOf(run, record.modules[0]));
    }
  }
};

/** The option that gave `module` to the agent. */
const nameOf = (run: KnowledgeRun, module: KnowledgeModule | undefined): ModuleName =>
  MODULE_NAMES.find((name) => run.modules[name] === module) ?? 'knowledgeMemory';

/**
 * Commits one knowledge action: first to the owner's knowledge store record when it has one
 * (saved with the revision loaded, applied again to another writer's newer record), then to the
 * conversation (the memory, appended to its event stream with an event store, saved with its
 * session); the modules without a store follow the conversation's facts. A store that fails
 * rejects before the conversation changes, so an extraction's cursor stays and the next run reads
 * those messages again. Streams get the effects as `memory-effect` events.
 *
 * @returns the effects (of the conversation's change, or of the module's without a memory)
 * @internal
 */
export const commitKnowledge = async (
  context: RunContext,
  action: KnowledgeAction,
  owner: ModuleName,
): Promise<readonly KnowledgeEffect[]> => {
  const run = context.knowledge as KnowledgeRun;
  const { memory } = context;
  const module = run.modules[owner];
  const record = module === undefined ? undefined : run.shared.get(module);
  let effects: readonly KnowledgeEffect[] = [];
  if (record !== undefined) effects = await record.commit(module as KnowledgeModule, action);
  if (memory !== undefined) {
    await commitChange(context, () => {
      effects = memory.applyKnowledge(action) as readonly KnowledgeEffect[];
    });
    run.actions.push(action);
    followConversation(run, memory.state.knowledge ?? createKnowledge(), false);
  } else if (record === undefined && module !== undefined) {
    effects = module.apply(action);
  }
  if (context.emit !== undefined) {
    for (const effect of effects) context.emit({ type: 'memory-effect', effect });
  }
  return effects;
};

/** The text of the run's latest user message (the query the blocks are scoped to). */
const latestUserText = (messages: readonly Message[]): string => {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role === 'user') return message.content ?? '';
  }
  return '';
};

/**
 * The knowledge blocks of the next main call (`knowledgeBlocks`: knowledge graph, entities,
 * knowledge, each within its module's budget counted with the memory's tokenizer as one system
 * message), scoped to the latest user message; `undefined` when there is nothing to show.
 *
 * @internal
 */
export const knowledgeText = (
  context: RunContext,
  messages: readonly Message[],
): string | undefined => {
  const run = context.knowledge;
  if (run === undefined) return undefined;
  const { entityMemory, knowledgeGraph, knowledgeMemory } = run.modules;
  const tokenizer = context.memory?.state.config.tokenizer ?? DEFAULT_CONFIG.tokenizer;
  const state: KnowledgeState = {
    ...createKnowledge(),
    entities: entityMemory?.state.entities ?? [],
    relations: knowledgeGraph?.state.relations ?? [],
    entries: knowledgeMemory?.state.entries ?? [],
  };
  const budget = (value: number | undefined) => (value === undefined ? {} : { budget: value });
  const options: KnowledgeBlocksOptions = {
    query: latestUserText(messages),
    now: Date.now(),
    countTokens: (text) => countMessageTokens(tokenizer, systemMessage(text), 'agent.run'),
    ...(knowledgeGraph === undefined
      ? {}
      : {
          graph: {
            ...budget(knowledgeGraph.options.budget),
            maxContextTriples: knowledgeGraph.options.maxContextTriples,
          },
        }),
    ...(entityMemory === undefined ? {} : { entities: budget(entityMemory.options.budget) }),
    ...(knowledgeMemory === undefined
      ? {}
      : {
          knowledge: {
            ...budget(knowledgeMemory.options.budget),
            maxContextChars: knowledgeMemory.options.maxContextChars,
          },
        }),
  };
  const { text } = knowledgeBlocks(state, options);
  return text === '' ? undefined : text;
};

/** One message the extractor may read, with its position. */
interface Readable {
  readonly message: Message;
  readonly position: number;
}

/**
 * The messages an extractor has not read: with a memory, the window's messages at or past its
 * cursor; without one, the run's own messages, numbered from the cursor.
 */
const unreadMessages = (
  context: RunContext,
  cursor: number,
  runMessages: readonly Message[],
): Readable[] => {
  const { memory } = context;
  if (memory === undefined)
    return runMessages.map((message, i) => ({ message, position: cursor + i }));
  const positions = getPositions(memory.state);
  const unread: Readable[] = [];
  memory.state.messages.forEach((message, i) => {
    const position = positions[i] as number;
    if (position >= cursor) unread.push({ message, position });
  });
  return unread;
};

const hasText = (message: Message): boolean => (message.content ?? '').trim() !== '';

/**
 * One extractor's step at the end of a run: the messages it has not read (at most the last
 * `relevanceWindow` with text, the reference's window), one provider call with its prompts and
 * model (the module's, else the agent's), the answer read with `readEntityAnswer` /
 * `readTripleAnswer`; then one `knowledge/factsExtracted` action covering every unread message,
 * committed, and `onEntityExtraction` / `onKgExtraction`. A failed call or an unreadable answer
 * commits nothing (the cursor stays, so the next run reads those messages again) and is reported.
 */
const extractWith = async (
  context: RunContext,
  source: ExtractionSource,
  module: EntityMemory | KnowledgeGraph,
  runMessages: readonly Message[],
): Promise<void> => {
  const owner: ModuleName = source === 'entities' ? 'entityMemory' : 'knowledgeGraph';
  const unread = unreadMessages(context, module.state.cursors[source], runMessages);
  const readable = unread.filter((entry) => hasText(entry.message));
  if (readable.length === 0) return;
  const window = readable.slice(-module.options.relevanceWindow);
  const conversation = renderExtractionConversation(window.map((entry) => entry.message));
  const request = {
    model: module.options.model ?? context.model,
    systemPrompt: module.options.prompt.system,
    messages: [userMessage(module.options.prompt.user(conversation))],
    maxTokens: module.options.maxTokens,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  };
  let answer: string;
  try {
    const result = await callModel(context, context.provider, request, 'extraction', 0);
    answer = (result as { message?: { content?: unknown } }).message?.content as string;
    if (typeof answer !== 'string') answer = '';
  } catch (error) {
    await reportKnowledgeError(context, error, owner);
    return;
  }
  const from = (unread[0] as Readable).position;
  const to = (unread.at(-1) as Readable).position;
  const at = Date.now();
  let action: KnowledgeAction;
  let found: number;
  if (source === 'entities') {
    const read = readEntityAnswer(answer);
    if (E.isLeft(read)) return reportKnowledgeError(context, read.left, owner);
    found = read.right.length;
    action = {
      type: 'knowledge/factsExtracted',
      payload: {
        source,
        at,
        from,
        to,
        entities: read.right,
        limits: { maxEntities: (module as EntityMemory).options.maxEntities },
      },
    };
  } else {
    const read = readTripleAnswer(answer);
    if (E.isLeft(read)) return reportKnowledgeError(context, read.left, owner);
    found = read.right.length;
    const graph = module as KnowledgeGraph;
    action = {
      type: 'knowledge/factsExtracted',
      payload: {
        source,
        at,
        from,
        to,
        triples: read.right,
        limits: { maxRelations: graph.options.maxTriples },
        singleValuedRelations: graph.options.singleValuedRelations,
      },
    };
  }
  let effects: readonly KnowledgeEffect[];
  try {
    effects = await commitKnowledge(context, action, owner);
  } catch (error) {
    await reportKnowledgeError(context, error, owner);
    return;
  }
  await notify(
    context.observers,
    source === 'entities' ? 'onEntityExtraction' : 'onKgExtraction',
    [context.runId, found, effects],
    context.runId,
    context.report,
  );
};

/**
 * The extraction step after a run's last model call, before `run()` resolves: entity memory
 * first, then the knowledge graph (one provider call each at most). Failures are reported, never
 * thrown; an aborted run extracts nothing.
 *
 * @internal
 */
export const extractKnowledge = async (
  context: RunContext,
  runMessages: readonly Message[],
): Promise<void> => {
  const run = context.knowledge;
  if (run === undefined || context.signal?.aborted === true) return;
  const { entityMemory, knowledgeGraph } = run.modules;
  if (entityMemory !== undefined) await extractWith(context, 'entities', entityMemory, runMessages);
  if (knowledgeGraph !== undefined) {
    await extractWith(context, 'relations', knowledgeGraph, runMessages);
  }
};
