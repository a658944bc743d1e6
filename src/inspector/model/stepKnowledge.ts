import { memoryTransition } from '../../core/memoryTransition';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { knowledgeBlocks } from '../../knowledge/retrieval/knowledgeBlocks';
import {
  attributesInForce,
  entitiesInForce,
  entriesInForce,
  relationsInForce,
} from '../../knowledge/retrieval/factsInForce';
import type { KnowledgeBlocksResult } from '../../knowledge/retrieval/types';
import { actionAt, type EventLog, seek } from '../../log/eventLog';
import type { MemoryEffect } from '../../model/effects';
import type { MemoryState } from '../../model/state';
import { describeValue } from '../../util/describeValue';
import { knowledgeTimes } from './knowledgeClock';
import { knowledgeChanges } from './knowledgeChanges';
import type { StepKnowledge } from './knowledgeTypes';

const NO_BLOCKS: KnowledgeBlocksResult = Object.freeze({ text: '', blocks: Object.freeze([]) });

/**
 * The text of the latest user message in a state's window (its content, or its text parts joined
 * by newlines), or `''` when the window holds none: the query the agent scopes its blocks to.
 *
 * @param state - the state after a step
 * @returns the text
 * @example
 * ```ts
 * latestUserText(addMessage(createMemory(), userMessage('Where do I work?')).state); // 'Where do I work?'
 * ```
 */
export const latestUserText = (state: MemoryState): string => {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i];
    if (message?.role !== 'user') continue;
    if (message.content !== null && message.content !== '') return message.content;
    return (message.contentParts ?? []).flatMap((part) => part.text ?? []).join('\n');
  }
  return '';
};

/**
 * The blocks the model receives at a step: `knowledgeBlocks` over the state's knowledge with the
 * reference's limits (every module, no budget), scoped to the latest user message, at `now`.
 * No blocks when the state has no knowledge.
 *
 * @param state - the state after a step
 * @param now - the step's time (see `knowledgeTimes`)
 * @returns the blocks and their joined text
 * @example
 * ```ts
 * stepBlocks(seek(log, 7), knowledgeTimes(log)[7]).text; // '[Known Relationships]\n- Alice --[works_at]--> Globex…'
 * ```
 */
export const stepBlocks = (state: MemoryState, now: number): KnowledgeBlocksResult =>
  state.knowledge === undefined
    ? NO_BLOCKS
    : knowledgeBlocks(state.knowledge, {
        query: latestUserText(state),
        now,
        graph: {},
        entities: {},
        knowledge: {},
      });

/**
 * The knowledge at a step from the states around it and the step's effects: the facts in force
 * after it, what it changed, the blocks the model receives. The step that {@link stepKnowledge}
 * and the page's stepper share.
 *
 * @param before - the state before the step (`null` at step 0)
 * @param after - the state after the step
 * @param effects - the step's effects (`[]` at step 0)
 * @param now - the step's time
 * @param previousNow - the previous step's time (`now` at step 0)
 * @returns the knowledge, or `null` when the state has none
 * @example
 * ```ts
 * const { state, effects } = memoryTransition(before, action);
 * stepKnowledgeOf(before, state, effects, 2000, 1000)?.changes;
 * ```
 */
export const stepKnowledgeOf = (
  before: MemoryState | null,
  after: MemoryState,
  effects: readonly MemoryEffect[],
  now: number,
  previousNow: number,
): StepKnowledge | null => {
  const knowledge = after.knowledge;
  if (knowledge === undefined) return null;
  return {
    now,
    query: latestUserText(after),
    inForce: {
      entities: entitiesInForce(knowledge).map((entity) => ({
        ...entity,
        attributes: attributesInForce(entity),
      })),
      relations: relationsInForce(knowledge),
      entries: entriesInForce(knowledge, now),
    },
    changes: knowledgeChanges(before?.knowledge, knowledge, effects, now, previousNow),
    blocks: stepBlocks(after, now),
    cursors: knowledge.cursors,
  };
};

/**
 * The knowledge at step `n` of a log: the facts in force (entities with their attributes in
 * force, relations, entries), the facts the step added, merged, retired (with the reason and what
 * superseded them) or dropped, and the blocks the model receives there (`knowledgeBlocks` with the
 * reference's limits, the latest user message as query and the step's time as `now`: the latest
 * `at` of the knowledge actions so far, so every replay shows the same). `null` before any
 * knowledge action (and for a state without knowledge).
 *
 * @param log - the event log
 * @param n - the step, from 0 (the initial state) to `log.length`
 * @returns the knowledge at the step, or `null`
 * @throws MemoryArgumentError (a `RangeError`) when `n` is outside `0..log.length`
 * @example
 * ```ts
 * const at = stepKnowledge(log, 4);
 * at?.changes.find((c) => c.change === 'retired'); // { change: 'retired', reason: 'superseded', by: { id: 'r6', … }, … }
 * ```
 */
export const stepKnowledge = (log: EventLog, n: number): StepKnowledge | null => {
  if (!Number.isInteger(n) || n < 0 || n > log.length) {
    throw new MemoryArgumentError(
      'stepKnowledge',
      `n must be an integer from 0 to ${log.length} (the log's length), received ${describeValue(n)}`,
    );
  }
  const times = knowledgeTimes(log);
  const now = times[n] as number;
  if (n === 0) return stepKnowledgeOf(null, seek(log, 0), [], now, now);
  const before = seek(log, n - 1);
  const { state, effects } = memoryTransition(before, actionAt(log, n - 1));
  return stepKnowledgeOf(before, state, effects, now, times[n - 1] as number);
};
