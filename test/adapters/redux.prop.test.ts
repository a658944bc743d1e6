import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearMemory,
  createMemory,
  memoryActions,
  memoryTransition,
  type MemoryAction,
  type MemoryConfig,
  type MemoryEffect,
  type MemoryOptions,
  type MemoryState,
  type Message,
} from 'conversation-memory';
import { startMemoryEffectsListening } from 'conversation-memory/redux';
import { configArb } from '../arbitraries/config';
import { turnArb } from '../arbitraries/conversation';
import { messageArb } from '../arbitraries/message';
import { summaryTextArb, textArb } from '../arbitraries/text';
import { makeChatStore, warningsBesidesTiming } from '../support/reduxStore';

afterEach(() => {
  vi.restoreAllMocks();
});

/** One slice action, as data, so a failing sequence prints readably. */
type Op =
  | { readonly kind: 'created'; readonly id: string; readonly config?: MemoryOptions }
  | { readonly kind: 'removed'; readonly id: string }
  | { readonly kind: 'messageAdded'; readonly id: string; readonly message: Message }
  | { readonly kind: 'messagesAdded'; readonly id: string; readonly messages: readonly Message[] }
  | { readonly kind: 'summaryApplied'; readonly id: string; readonly text: string }
  | { readonly kind: 'cleared'; readonly id: string }
  | { readonly kind: 'memoryActionApplied'; readonly id: string; readonly action: MemoryAction };

/** Any config of the library, all policies included. */
const anyConfigArb: fc.Arbitrary<MemoryConfig> = fc
  .tuple(
    configArb,
    fc.constantFrom('reference' as const, 'strict' as const),
    fc.constantFrom('user' as const, null),
    fc.boolean(),
  )
  .map(([config, toolPairs, startOn, pinSystem]) => ({ ...config, toolPairs, startOn, pinSystem }));

/** Some of a config's keys: what a conversation overrides. */
const overrideArb: fc.Arbitrary<MemoryOptions> = anyConfigArb.chain((config) =>
  fc
    .subarray(Object.keys(config) as (keyof MemoryConfig)[])
    .map((keys) => Object.fromEntries(keys.map((key) => [key, config[key]])) as MemoryOptions),
);

const idArb = fc.constantFrom('a', 'b', 'c', 'toString');

const createdArb: fc.Arbitrary<Op> = fc
  .record({
    kind: fc.constant('created' as const),
    id: idArb,
    config: fc.option(overrideArb, { nil: undefined }),
  })
  .map(({ kind, id, config }): Op => (config === undefined ? { kind, id } : { kind, id, config }));

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: createdArb, weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('removed' as const), id: idArb }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('messageAdded' as const),
      id: idArb,
      message: messageArb,
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('messagesAdded' as const),
      id: idArb,
      messages: turnArb,
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('summaryApplied' as const),
      id: idArb,
      text: summaryTextArb,
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('cleared' as const), id: idArb }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('memoryActionApplied' as const),
      id: idArb,
      action: fc.oneof(
        fc.constant(memoryActions.limitsEnforced()),
        fc.constant(memoryActions.toolPairBoundaryFixed()),
        fc.option(textArb, { nil: null }).map((text) => memoryActions.summarySet(text)),
      ),
    }),
    weight: 2,
  },
);

/** A few conversations created, then any ops (on them, on missing ones, removals, re-creations). */
const opsArb: fc.Arbitrary<Op[]> = fc
  .tuple(fc.array(createdArb, { minLength: 1, maxLength: 3 }), fc.array(opArb, { maxLength: 30 }))
  .map(([created, ops]) => [...created, ...ops]);

/** The memory action a slice op applies (a removal reports what a clear does). */
const memoryActionOf = (op: Exclude<Op, { kind: 'created' }>): MemoryAction => {
  switch (op.kind) {
    case 'messageAdded':
      return memoryActions.messageAdded(op.message);
    case 'messagesAdded':
      return memoryActions.messagesAdded(op.messages);
    case 'summaryApplied':
      return memoryActions.summaryApplied(op.text);
    case 'memoryActionApplied':
      return op.action;
    case 'cleared':
    case 'removed':
      return memoryActions.cleared();
  }
};

describe('conversations slice: the store is a fold of memoryTransition per conversation', () => {
  it('random action sequences give the model’s states, identities and effects, with no warning', () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errored = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fc.assert(
      fc.property(anyConfigArb, opsArb, (defaults, ops) => {
        const { chats, store, listener } = makeChatStore(defaults);
        const seen: [string, MemoryEffect][] = [];
        startMemoryEffectsListening(listener, chats, (effect, { conversationId }) => {
          seen.push([conversationId, effect]);
        });
        const model = new Map<string, MemoryState>();
        for (const op of ops) {
          const before = store.getState().conversations.conversations;
          let expected: readonly MemoryEffect[] = [];
          // A missing conversation, an existing one created again, or a no-op keep the object.
          let unchanged = op.kind === 'created' ? model.has(op.id) : !model.has(op.id);
          if (op.kind === 'created') {
            store.dispatch(
              chats.actions.conversationCreated(
                op.config === undefined
                  ? { conversationId: op.id }
                  : { conversationId: op.id, config: op.config },
              ),
            );
            if (!model.has(op.id)) model.set(op.id, createMemory({ ...defaults, ...op.config }));
          } else {
            const memory = model.get(op.id);
            if (memory !== undefined) {
              const transition =
                op.kind === 'removed'
                  ? clearMemory(memory)
                  : memoryTransition(memory, memoryActionOf(op));
              expected = transition.effects;
              unchanged = op.kind !== 'removed' && transition.state === memory;
              if (op.kind === 'removed') model.delete(op.id);
              else model.set(op.id, transition.state);
            }
            store.dispatch(sliceAction(chats, op));
          }
          const after = store.getState().conversations.conversations;
          expect(after).toEqual(Object.fromEntries(model));
          if (unchanged) expect(after[op.id]).toBe(before[op.id]);
          for (const id of Object.keys(before)) {
            if (id !== op.id) expect(after[id]).toBe(before[id]);
          }
          expect(seen.splice(0)).toEqual(expected.map((effect) => [op.id, effect]));
        }
      }),
    );
    expect(warningsBesidesTiming(warned)).toEqual([]);
    expect(errored).not.toHaveBeenCalled();
  });
});

/** The slice action of an op. */
const sliceAction = (
  chats: ReturnType<typeof makeChatStore>['chats'],
  op: Exclude<Op, { kind: 'created' }>,
) => {
  const conversationId = op.id;
  switch (op.kind) {
    case 'removed':
      return chats.actions.conversationRemoved({ conversationId });
    case 'messageAdded':
      return chats.actions.messageAdded({ conversationId, message: op.message });
    case 'messagesAdded':
      return chats.actions.messagesAdded({ conversationId, messages: op.messages });
    case 'summaryApplied':
      return chats.actions.summaryApplied({ conversationId, text: op.text });
    case 'cleared':
      return chats.actions.cleared({ conversationId });
    case 'memoryActionApplied':
      return chats.actions.memoryActionApplied({ conversationId, action: op.action });
  }
};
