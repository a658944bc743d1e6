import { type EventLog, logActions, seek } from '../../log/eventLog';
import type { MemoryAction } from '../../model/actions';
import type { FactRecord, KnowledgeState } from '../../model/knowledge';

/** The larger of `time` and a fact's own times (when it was learned, restated, retired). */
const laterOf = (time: number, fact: FactRecord & { readonly updatedAt?: number }): number => {
  let latest = Math.max(time, fact.recordedAt);
  if (fact.retiredAt !== null) latest = Math.max(latest, fact.retiredAt);
  if (fact.updatedAt !== undefined) latest = Math.max(latest, fact.updatedAt);
  return latest;
};

/**
 * The latest time a knowledge state records: when its newest fact was learned, restated or
 * retired (`-Infinity` for no fact, or no knowledge).
 *
 * @param knowledge - the knowledge, if any
 * @returns the time in milliseconds since the epoch, or `-Infinity`
 * @example
 * ```ts
 * knowledgeTimeOf(createKnowledge()); // -Infinity
 * ```
 */
export const knowledgeTimeOf = (knowledge: KnowledgeState | undefined): number => {
  if (knowledge === undefined) return -Infinity;
  let latest = -Infinity;
  for (const entity of knowledge.entities) {
    latest = laterOf(latest, entity);
    for (const attribute of entity.attributes) latest = laterOf(latest, attribute);
  }
  for (const relation of knowledge.relations) latest = laterOf(latest, relation);
  for (const entry of knowledge.entries) latest = laterOf(latest, entry);
  return latest;
};

/**
 * The time a knowledge action carries (`payload.at`), or `-Infinity` for any other action and for
 * `knowledge/cleared` (which carries none).
 *
 * @param action - an action of the log
 * @returns its time in milliseconds since the epoch, or `-Infinity`
 * @example
 * ```ts
 * actionTime({ type: 'knowledge/forgotten', payload: { id: 'k1', at: 5000 } }); // 5000
 * ```
 */
export const actionTime = (action: MemoryAction): number => {
  if (
    action.type !== 'knowledge/factsExtracted' &&
    action.type !== 'knowledge/remembered' &&
    action.type !== 'knowledge/forgotten'
  ) {
    return -Infinity;
  }
  const at = action.payload.at;
  return Number.isFinite(at) ? at : -Infinity;
};

/**
 * The time of every step of a log, for its knowledge, in one pass: step `n`'s is the latest `at`
 * of the knowledge actions up to the `n`th, or the latest time the initial knowledge records,
 * whichever is later; `0` while there is neither (there is then no fact whose time could matter).
 * Once a time is known it never decreases (an action stamped earlier does not move it back), and
 * no clock is read, so the inspector shows the same blocks on every replay.
 *
 * @param log - the event log
 * @returns `log.length + 1` times, step 0 first
 * @example
 * ```ts
 * knowledgeTimes(log)[7]; // 2000: the `at` of the latest extraction up to step 7
 * ```
 */
export const knowledgeTimes = (log: EventLog): number[] => {
  let latest = knowledgeTimeOf(seek(log, 0).knowledge);
  const orZero = (time: number): number => (time === -Infinity ? 0 : time);
  const times = [orZero(latest)];
  for (const action of logActions(log)) {
    latest = Math.max(latest, actionTime(action));
    times.push(orZero(latest));
  }
  return times;
};
