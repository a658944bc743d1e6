import {
  readFactsPayload,
  readForgottenPayload,
  readRememberedPayload,
} from '../knowledge/readKnowledgePayload';
import type {
  FactsExtractedPayload,
  ForgottenPayload,
  RememberedPayload,
} from '../model/knowledgeActions';
import { creator } from './memoryActions';

/**
 * Creators of the knowledge actions, in `memoryActions`' style: each builds the action (its
 * payload checked as its reducer checks it, so a bad one is refused before it is recorded), and has
 * `type` and a `match` type guard. Apply them with `memoryTransition` (a conversation's
 * `state.knowledge`), `ConversationMemory.applyKnowledge`, `knowledgeTransition`, or append them
 * to an event log.
 *
 * | creator          | action                     |
 * | ---------------- | -------------------------- |
 * | `factsExtracted` | `knowledge/factsExtracted` |
 * | `remembered`     | `knowledge/remembered`     |
 * | `forgotten`      | `knowledge/forgotten`      |
 * | `cleared`        | `knowledge/cleared`        |
 *
 * @example
 * ```ts
 * const action = knowledgeActions.forgotten({ id: 'k1', at: Date.now() });
 * knowledgeActions.forgotten.match(action); // true
 * ```
 */
export const knowledgeActions = /* @__PURE__ */ Object.freeze({
  factsExtracted: /* @__PURE__ */ creator(
    'knowledge/factsExtracted',
    (payload: FactsExtractedPayload) => {
      readFactsPayload(payload, 'knowledgeActions.factsExtracted');
      return { type: 'knowledge/factsExtracted', payload };
    },
  ),
  remembered: /* @__PURE__ */ creator('knowledge/remembered', (payload: RememberedPayload) => {
    readRememberedPayload(payload, 'knowledgeActions.remembered');
    return { type: 'knowledge/remembered', payload };
  }),
  forgotten: /* @__PURE__ */ creator('knowledge/forgotten', (payload: ForgottenPayload) => {
    readForgottenPayload(payload, 'knowledgeActions.forgotten');
    return { type: 'knowledge/forgotten', payload };
  }),
  cleared: /* @__PURE__ */ creator('knowledge/cleared', () => ({ type: 'knowledge/cleared' })),
});
