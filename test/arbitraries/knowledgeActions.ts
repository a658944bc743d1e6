import fc from 'fast-check';
import {
  createMemory,
  memoryTransition,
  type MemoryAction,
  type MemoryState,
} from 'conversation-memory';
import type { ExtractedEntity, ExtractedTriple } from 'conversation-memory/knowledge';
import { memoryActionArb } from './actions';

/**
 * Random knowledge actions, as the knowledge modules make them, for conversations that mix them
 * with memory actions. An extraction depends on the conversation it reads (its cursor, the
 * positions held), so a step is drawn first and made into an action against the state it is
 * applied to ({@link knowledgeActionFor}): an extraction reads messages that exist, from its
 * cursor on, as the runtime does.
 */

const NAMES = ['Alice', 'alice', 'Alicia', 'Bob', 'Rob', 'Acme', 'Acme Corp', 'Paris', 'Globex'];
const RELATIONS = ['works_at', 'knows', 'lives_in', 'likes'];
const CONTENTS = ['likes tea', 'Likes Tea', 'lives in Lyon', 'has a cat', 'vegan'];
/** Small limits, so that eviction happens in short sequences. */
const LIMITS = { maxEntities: 4, maxRelations: 5, maxEntries: 3 };
const HOUR = 3_600_000;

const nameArb = fc.constantFrom(...NAMES);

const entityArb: fc.Arbitrary<ExtractedEntity> = fc.record({
  name: nameArb,
  type: fc.constantFrom('person', 'organization', 'other'),
  attributes: fc.dictionary(
    fc.constantFrom('city', 'role'),
    fc.constantFrom('Paris', 'Lyon', 'dev'),
  ),
});

const tripleArb: fc.Arbitrary<ExtractedTriple> = fc
  .record({
    subject: nameArb,
    relation: fc.constantFrom(...RELATIONS),
    object: nameArb,
    confidence: fc.constantFrom(1, 0.5),
    validFrom: fc.option(fc.constantFrom(0, 86_400_000), { nil: undefined }),
  })
  .map(({ validFrom, ...triple }) => (validFrom === undefined ? triple : { ...triple, validFrom }));

/**
 * One knowledge step, before it meets a state: an extraction (of entities or of triples, reading
 * `share` more messages at most), a `remember`, a `forget` (by content, or by the id of a recent
 * entry) or a clear.
 *
 * @example
 * ```ts
 * fc.sample(knowledgeStepArb, 1); // [{ kind: 'relations', items: [...], share: 2, limited: true }]
 * ```
 */
export type KnowledgeStep =
  | {
      readonly kind: 'entities' | 'relations';
      readonly items: readonly (ExtractedEntity | ExtractedTriple)[];
      readonly share: number;
      readonly limited: boolean;
    }
  | {
      readonly kind: 'remember';
      readonly content: string;
      readonly importance: number;
      readonly persistent: boolean;
      readonly ttlDays: number | null;
    }
  | { readonly kind: 'forget'; readonly content: string | null }
  | { readonly kind: 'clear' };

/** {@link KnowledgeStep}s: mostly extractions and remembers. */
export const knowledgeStepArb: fc.Arbitrary<KnowledgeStep> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('entities' as const),
      items: fc.array(entityArb, { maxLength: 3 }),
      share: fc.integer({ min: 1, max: 4 }),
      limited: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('relations' as const),
      items: fc.array(tripleArb, { maxLength: 3 }),
      share: fc.integer({ min: 1, max: 4 }),
      limited: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('remember' as const),
      content: fc.constantFrom(...CONTENTS),
      importance: fc.constantFrom(0.2, 0.5, 0.9),
      persistent: fc.boolean(),
      ttlDays: fc.constantFrom(null, 1),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('forget' as const),
      content: fc.option(fc.constantFrom(...CONTENTS), { nil: null }),
    }),
    weight: 1,
  },
  { arbitrary: fc.constant({ kind: 'clear' as const }), weight: 1 },
);

/**
 * The action a step means in `state`, at time `at`; `undefined` for an extraction when the
 * conversation has no message yet (nothing to read). An extraction reads from its cursor up to
 * `share` messages, never past the last position given; with nothing new it re-reads the last
 * message read (a repeated extraction, which changes nothing).
 *
 * @example
 * ```ts
 * knowledgeActionFor({ kind: 'clear' }, createMemory(), 0); // { type: 'knowledge/cleared' }
 * ```
 */
export const knowledgeActionFor = (
  step: KnowledgeStep,
  state: MemoryState,
  at: number,
): MemoryAction | undefined => {
  const knowledge = state.knowledge;
  switch (step.kind) {
    case 'entities':
    case 'relations': {
      const cursor = knowledge?.cursors[step.kind] ?? 0;
      const last = state.nextPosition - 1;
      if (last < 0) return undefined;
      const from = Math.min(cursor, last);
      const to = Math.min(from + step.share - 1, last);
      return {
        type: 'knowledge/factsExtracted',
        payload: {
          source: step.kind,
          at,
          from,
          to,
          ...(step.limited ? { limits: LIMITS } : {}),
          ...(step.kind === 'entities'
            ? { entities: step.items as readonly ExtractedEntity[] }
            : { triples: step.items as readonly ExtractedTriple[] }),
        },
      };
    }
    case 'remember':
      return {
        type: 'knowledge/remembered',
        payload: {
          // The next counter id: never one in use.
          id: `k${knowledge?.nextId ?? 1}`,
          content: step.content,
          category: 'general',
          importance: step.importance,
          persistent: step.persistent,
          ttlDays: step.ttlDays,
          metadata: { by: 'test' },
          at,
          maxEntries: LIMITS.maxEntries,
        },
      };
    case 'forget': {
      if (step.content !== null) {
        return { type: 'knowledge/forgotten', payload: { content: step.content, at } };
      }
      const newest = knowledge?.entries.at(-1)?.id ?? 'k1';
      return { type: 'knowledge/forgotten', payload: { id: newest, at } };
    }
    case 'clear':
      return { type: 'knowledge/cleared' };
  }
};

/**
 * A step of a conversation: a memory action, or a knowledge step.
 *
 * @example
 * ```ts
 * const step: ConversationStep = { knowledge: { kind: 'clear' } };
 * ```
 */
export type ConversationStep =
  { readonly memory: MemoryAction } | { readonly knowledge: KnowledgeStep };

/**
 * Random conversations mixing memory actions ({@link memoryActionArb}) and knowledge steps.
 *
 * @example
 * ```ts
 * fc.sample(conversationStepsArb(20), 1);
 * ```
 */
export const conversationStepsArb = (maxLength: number): fc.Arbitrary<ConversationStep[]> =>
  fc.array(
    fc.oneof(
      { arbitrary: memoryActionArb.map((memory) => ({ memory })), weight: 3 },
      { arbitrary: knowledgeStepArb.map((knowledge) => ({ knowledge })), weight: 2 },
    ),
    // Longer than fast-check's default size: facts are retired and evicted after a few steps.
    { maxLength, size: '+1' },
  );

/**
 * Plays steps from `initial` (default: an empty memory) with `memoryTransition`: the actions
 * applied (knowledge steps made into actions against the state they meet, the i-th step at
 * `i` hours) and the state after each.
 *
 * @example
 * ```ts
 * const { actions, states } = playSteps(steps);
 * ```
 */
export const playSteps = (
  steps: readonly ConversationStep[],
  initial: MemoryState = createMemory(),
): { actions: MemoryAction[]; states: MemoryState[] } => {
  const actions: MemoryAction[] = [];
  const states: MemoryState[] = [];
  let state = initial;
  steps.forEach((step, i) => {
    const action =
      'memory' in step ? step.memory : knowledgeActionFor(step.knowledge, state, i * HOUR);
    if (action === undefined) return;
    state = memoryTransition(state, action).state;
    actions.push(action);
    states.push(state);
  });
  return { actions, states };
};
