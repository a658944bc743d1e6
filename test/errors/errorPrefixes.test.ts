/**
 * An error's prefix names the public function, method or action the caller used (#17 §4), not
 * the internal function that found the problem: `createConversationsSlice` (not `createMemory`),
 * `ConversationMemory.add` (not `addMessage`), the action type for `memoryTransition`, the store
 * method for an append's config, and so on. One row per wrapper that used to leak a name.
 */
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createEventLog,
  createMemory,
  encodeEnvelope,
  InMemoryEventStore,
  InvalidMessageError,
  isConversationMemoryError,
  MemoryArgumentError,
  MemoryConfigError,
  memoryActions,
  memoryReducer,
  memoryTransition,
  RecordedMemory,
} from 'conversation-memory';
import { createConversationsSlice } from 'conversation-memory/redux';
import { createMemoryStore, memoryStateCreator } from 'conversation-memory/zustand';

const badMessage = { role: 'USER', content: 'x' } as never;

interface Row {
  readonly call: string;
  readonly run: () => unknown;
  readonly error: abstract new (...args: never[]) => Error;
  readonly prefix: string;
}

const rows: readonly Row[] = [
  {
    call: 'createConversationsSlice({ defaultConfig: { max_messages } })',
    run: () => createConversationsSlice({ defaultConfig: { max_messages: 3 } } as never),
    error: MemoryConfigError,
    prefix: '[conversation-memory] createConversationsSlice: options.defaultConfig.max_messages',
  },
  {
    call: 'slice.actions.conversationCreated({ config })',
    run: () =>
      createConversationsSlice().actions.conversationCreated({
        conversationId: 'a',
        config: { maxMessages: 0 },
      }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] conversations/conversationCreated: config.maxMessages',
  },
  {
    call: 'encodeEnvelope(memory)',
    run: () => encodeEnvelope(new ConversationMemory() as never),
    error: MemoryArgumentError,
    prefix: '[conversation-memory] encodeEnvelope: state must be a MemoryState',
  },
  {
    call: 'new ConversationMemory',
    run: () => new ConversationMemory({ maxMessages: 0 }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] new ConversationMemory: maxMessages must be at least 1',
  },
  {
    call: 'new RecordedMemory',
    run: () => new RecordedMemory({ maxMessages: 0 }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] new RecordedMemory: maxMessages must be at least 1',
  },
  {
    call: 'memory.add',
    run: () => new ConversationMemory().add(badMessage),
    error: InvalidMessageError,
    prefix: '[conversation-memory] ConversationMemory.add: message.role',
  },
  {
    call: 'memory.addMany',
    run: () => new ConversationMemory().addMany([badMessage]),
    error: InvalidMessageError,
    prefix: '[conversation-memory] ConversationMemory.addMany: messages[0].role',
  },
  {
    call: 'memory.reconfigure',
    run: () => new ConversationMemory().reconfigure({ maxMessages: 0 }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] ConversationMemory.reconfigure: maxMessages must be at least 1',
  },
  {
    call: 'memoryTransition(memory/messageAdded)',
    run: () =>
      memoryTransition(createMemory(), { type: 'memory/messageAdded', payload: badMessage }),
    error: InvalidMessageError,
    prefix: '[conversation-memory] memory/messageAdded: message.role',
  },
  {
    call: 'memoryReducer(memory/messagesAdded)',
    run: () =>
      memoryReducer(createMemory(), { type: 'memory/messagesAdded', payload: [badMessage] }),
    error: InvalidMessageError,
    prefix: '[conversation-memory] memory/messagesAdded: messages[0].role',
  },
  {
    call: 'memoryTransition(memory/reconfigured)',
    run: () =>
      memoryTransition(createMemory(), {
        type: 'memory/reconfigured',
        payload: { maxMessages: 0 },
      }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] memory/reconfigured: maxMessages must be at least 1',
  },
  {
    call: 'createEventLog(config)',
    run: () => createEventLog({ maxMessages: 0 }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] createEventLog: maxMessages must be at least 1',
  },
  {
    call: 'EventStore.append({ config })',
    run: () =>
      new InMemoryEventStore().append('s1', [memoryActions.cleared()], {
        expectedVersion: 0,
        config: { maxMessages: 0 },
      }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] InMemoryEventStore.append: options.config.maxMessages',
  },
  {
    call: 'createMemoryStore',
    run: () => createMemoryStore({ maxMessages: 0 }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] createMemoryStore: maxMessages must be at least 1',
  },
  {
    call: 'memoryStateCreator',
    run: () => memoryStateCreator({ maxMessages: 0 }),
    error: MemoryConfigError,
    prefix: '[conversation-memory] memoryStateCreator: maxMessages must be at least 1',
  },
];

const failureOf = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('errors name the call', () => {
  it.each(rows)('$call', async ({ run, error, prefix }) => {
    const failure = await failureOf(run);
    expect(failure).toBeInstanceOf(error);
    expect(isConversationMemoryError(failure)).toBe(true);
    expect((failure as Error).message.startsWith(prefix)).toBe(true);
  });

  it('the reducers called directly still name themselves', () => {
    expect(() => new ConversationMemory().add(badMessage)).not.toThrow(/addMessage:/);
    expect(() => createMemory({ maxMessages: 0 })).toThrow(
      '[conversation-memory] createMemory: maxMessages must be at least 1',
    );
  });
});
