import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMemory,
  InMemoryEventStore,
  InMemorySessionStore,
  memoryActions,
  MemoryArgumentError,
  userMessage,
} from 'conversation-memory';
import { createKnowledge, InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
import { rejection } from '../helpers';
import { closedMessage, closeTwice, methodsOf, settle, tripwire } from '../support/closedStore';

/** A store of each family, holding one record, so that each method would otherwise succeed. */
const STORES = [
  {
    name: 'InMemorySessionStore',
    open: async () => {
      const store = new InMemorySessionStore();
      await store.save('s1', createMemory());
      return store;
    },
  },
  {
    name: 'InMemoryKnowledgeStore',
    open: async () => {
      const store = new InMemoryKnowledgeStore();
      await store.save('s1', createKnowledge());
      return store;
    },
  },
  {
    name: 'InMemoryEventStore',
    open: async () => {
      const store = new InMemoryEventStore();
      await store.append('s1', [memoryActions.messageAdded(userMessage('hi'))], {
        expectedVersion: 0,
      });
      return store;
    },
  },
] as const;

describe('every in-memory store after close()', () => {
  it.each(STORES)(
    '$name: every public method rejects with MemoryArgumentError `Store.method: the store is closed`, reading none of its arguments',
    async ({ name, open }) => {
      const store = await open();
      await closeTwice(store);
      const methods = methodsOf(store);
      expect(methods.length).toBeGreaterThanOrEqual(4);
      for (const method of methods) {
        const looks: string[] = [];
        const args = [tripwire(looks), tripwire(looks), tripwire(looks), tripwire(looks)];
        const error = await rejection(settle(store, method, args));
        expect(error, method).toBeInstanceOf(MemoryArgumentError);
        expect((error as Error).message, method).toBe(closedMessage(name, method));
        expect(looks, `${name}.${method} read its arguments`).toEqual([]);
      }
    },
  );

  it.each(STORES)(
    '$name: whatever the arguments, each method rejects the same way',
    async ({ name, open }) => {
      const store = await open();
      await store.close();
      const methods = methodsOf(store);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...methods),
          fc.array(fc.anything(), { maxLength: 4 }),
          async (method, args) => {
            const error = await rejection(settle(store, method, args));
            expect(error).toBeInstanceOf(MemoryArgumentError);
            expect((error as Error).message).toBe(closedMessage(name, method));
          },
        ),
        { numRuns: 100 },
      );
    },
  );
});
