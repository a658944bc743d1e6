import { configureStore, type Middleware, type UnknownAction } from '@reduxjs/toolkit';
import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  decodeAction,
  type EventLog,
  memoryActions,
  type MemoryAction,
  type MemoryOptions,
  replay,
  seek,
} from 'conversation-memory';
import { createConversationsSlice } from 'conversation-memory/redux';
import { turnArb } from '../arbitraries/conversation';
import { messageArb } from '../arbitraries/message';
import { summaryTextArb } from '../arbitraries/text';

/**
 * Issue #7, section 4: "replays are exact: a test checks that replaying a store's recorded
 * actions gives the store's state". A real Redux Toolkit store runs random thread operations; a
 * middleware records every dispatched action as JSON text (what a devtools export or a server log
 * keeps). Read back, each thread's actions become an event log (its config from
 * `conversationCreated`, which carries the whole checked config), and `replay` of each log equals
 * the store’s thread, for every thread.
 */

type Op =
  | { readonly kind: 'created'; readonly id: string; readonly config: MemoryOptions }
  | { readonly kind: 'removed'; readonly id: string }
  | { readonly kind: 'messageAdded'; readonly id: string; readonly message: unknown }
  | { readonly kind: 'messagesAdded'; readonly id: string; readonly messages: readonly unknown[] }
  | { readonly kind: 'summaryApplied'; readonly id: string; readonly text: string }
  | { readonly kind: 'cleared'; readonly id: string };

const idArb = fc.constantFrom('a', 'b');
const configArb: fc.Arbitrary<MemoryOptions> = fc.record({
  maxMessages: fc.integer({ min: 1, max: 6 }),
  maxTokens: fc.option(fc.integer({ min: 5, max: 400 }), { nil: null }),
  tokenizer: fc.constantFrom('heuristic', 'o200k_base'),
  toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
});
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('created' as const), id: idArb, config: configArb }),
    weight: 2,
  },
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
    weight: 5,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('summaryApplied' as const),
      id: idArb,
      text: summaryTextArb,
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('cleared' as const), id: idArb }), weight: 1 },
);

/** The memory action a recorded slice action stands for, read back from JSON. */
const memoryActionOf = (
  type: string,
  payload: Record<string, unknown>,
): MemoryAction | undefined => {
  const raw = (() => {
    switch (type) {
      case 'messageAdded':
        return memoryActions.messageAdded(payload['message'] as never);
      case 'messagesAdded':
        return memoryActions.messagesAdded(payload['messages'] as never);
      case 'summaryApplied':
        return memoryActions.summaryApplied(payload['text'] as string);
      case 'cleared':
        return memoryActions.cleared();
      default:
        return undefined;
    }
  })();
  if (raw === undefined) return undefined;
  // Through JSON and decodeAction, as a log read from storage would be.
  const decoded = decodeAction(JSON.parse(JSON.stringify(raw)));
  if (E.isLeft(decoded)) throw decoded.left;
  return decoded.right;
};

describe('a Redux Toolkit store’s recorded actions replay to its state', () => {
  it('property: per thread, replay(log of the recorded actions) equals the store’s thread', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 25 }), (ops) => {
        const chats = createConversationsSlice({ name: 'chats' });
        const recorded: string[] = [];
        const recorder: Middleware = () => (next) => (action) => {
          recorded.push(JSON.stringify(action));
          return next(action);
        };
        const store = configureStore({
          reducer: { chats: chats.reducer },
          middleware: (getDefault) => getDefault().concat(recorder),
        });
        const { actions } = chats;
        for (const op of ops) {
          const conversationId = op.id;
          switch (op.kind) {
            case 'created':
              store.dispatch(actions.conversationCreated({ conversationId, config: op.config }));
              break;
            case 'removed':
              store.dispatch(actions.conversationRemoved({ conversationId }));
              break;
            case 'messageAdded':
              store.dispatch(
                actions.messageAdded({ conversationId, message: op.message as never }),
              );
              break;
            case 'messagesAdded':
              store.dispatch(
                actions.messagesAdded({ conversationId, messages: op.messages as never }),
              );
              break;
            case 'summaryApplied':
              store.dispatch(actions.summaryApplied({ conversationId, text: op.text }));
              break;
            case 'cleared':
              store.dispatch(actions.cleared({ conversationId }));
              break;
          }
        }

        // Read the record back: one event log per live thread.
        const logs = new Map<string, EventLog>();
        for (const text of recorded) {
          const action = JSON.parse(text) as UnknownAction & { payload: Record<string, unknown> };
          const [slice, type] = action.type.split('/') as [string, string];
          if (slice !== 'chats') continue;
          const id = action.payload['conversationId'] as string;
          if (type === 'conversationCreated') {
            // An existing thread keeps its messages; its config is in the action.
            if (!logs.has(id))
              logs.set(id, createEventLog(action.payload['config'] as MemoryOptions));
          } else if (type === 'conversationRemoved') {
            logs.delete(id);
          } else {
            const log = logs.get(id);
            const memoryAction = memoryActionOf(type, action.payload);
            // An action for a missing thread changed nothing in the store.
            if (log !== undefined && memoryAction !== undefined) {
              logs.set(id, appendAction(log, memoryAction));
            }
          }
        }
        const threads = store.getState().chats.conversations;
        expect([...logs.keys()].sort()).toEqual(Object.keys(threads).sort());
        for (const [id, log] of logs) {
          expect(replay(log)).toEqual(threads[id]);
          expect(seek(log, log.length)).toEqual(threads[id]);
        }
      }),
      { numRuns: 80 },
    );
  });
});
