/**
 * `saveOnConflict`, the agent's one retry-on-conflict loop over a `RevisionedStore` (the session
 * save at the end of a run, a knowledge module's commit), on the real in-memory stores: another
 * writer saves before each of the first `conflicts` saves.
 */
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  createMemory,
  InMemorySessionStore,
  type MemoryState,
  SessionConflictError,
  userMessage,
} from 'conversation-memory';
import {
  createKnowledge,
  InMemoryKnowledgeStore,
  KnowledgeConflictError,
} from 'conversation-memory/knowledge';
import { saveOnConflict } from '../../src/agent/run/saveOnConflict';
import { rejection } from '../helpers';

const said = (state: MemoryState, text: string): MemoryState =>
  addMessage(state, userMessage(text)).state;

describe('saveOnConflict: sessions', () => {
  it.each([
    { attempts: 1, conflicts: 0, saves: 1 },
    { attempts: 2, conflicts: 0, saves: 1 },
    { attempts: 2, conflicts: 1, saves: 2 },
    { attempts: 2, conflicts: 2, saves: undefined },
    { attempts: 5, conflicts: 4, saves: 5 },
    { attempts: 5, conflicts: 5, saves: undefined },
  ])(
    '$attempts attempts, $conflicts conflicts: saved on save $saves (else the conflict rejects)',
    async ({ attempts, conflicts, saves }) => {
      const store = new InMemorySessionStore();
      const options = { namespace: 'n' };
      await store.save('s', said(createMemory(), 'base'), options);
      const read = await store.load('s', options);
      let other = 0;
      let tries = 0;
      const original = store.save.bind(store);
      // Another writer saves just before each of our first `conflicts` saves.
      store.save = async (id, state, given) => {
        tries += 1;
        if (other < conflicts) {
          other += 1;
          const latest = await store.load(id, options);
          await original(id, said(latest?.state ?? createMemory(), `other ${other}`), options);
        }
        return original(id, state, given);
      };
      const redone: number[] = [];
      const record = {
        store,
        id: 's',
        options,
        conflict: 'CM_SESSION_CONFLICT',
        attempts,
      } as const;
      const run = saveOnConflict(
        record,
        said(read?.state as MemoryState, 'mine'),
        read?.revision ?? 0,
        async (load) => {
          const latest = await load();
          redone.push(latest?.revision ?? 0);
          return said(latest?.state ?? createMemory(), 'mine');
        },
      );
      if (saves === undefined) {
        const error = await rejection(run);
        expect(error).toBeInstanceOf(SessionConflictError);
        expect(tries).toBe(attempts);
        expect((await store.load('s', options))?.revision).toBe(1 + conflicts);
        return;
      }
      const saved = await run;
      expect(tries).toBe(saves);
      // Each redo read the record the other writer had just saved.
      expect(redone).toEqual(Array.from({ length: saves - 1 }, (_, i) => 2 + i));
      const stored = await store.load('s', options);
      expect(saved).toEqual({ state: stored?.state, revision: 2 + conflicts });
      expect(stored?.state.messages.map((m) => m.content)).toEqual([
        'base',
        ...Array.from({ length: conflicts }, (_, i) => `other ${i + 1}`),
        'mine',
      ]);
    },
  );

  it('another error rejects at once, with no retry', async () => {
    const store = new InMemorySessionStore();
    let tries = 0;
    const broken = new Error('disk full');
    store.save = async () => {
      tries += 1;
      throw broken;
    };
    const record = {
      store,
      id: 's',
      options: {},
      conflict: 'CM_SESSION_CONFLICT',
      attempts: 5,
    } as const;
    const error = await rejection(
      saveOnConflict(record, createMemory(), 0, async () => createMemory()),
    );
    expect(error).toBe(broken);
    expect(tries).toBe(1);
  });
});

describe('saveOnConflict: knowledge', () => {
  it('a redo with nothing left to save stops without saving; the options reach load and save as given', async () => {
    const store = new InMemoryKnowledgeStore();
    const seen: unknown[] = [];
    const load = store.load.bind(store);
    const save = store.save.bind(store);
    store.load = async (id, options) => {
      seen.push(['load', options]);
      return load(id, options);
    };
    store.save = async (id, state, options) => {
      seen.push(['save', options]);
      return save(id, state, options);
    };
    await save('k', createKnowledge());
    const record = {
      store,
      id: 'k',
      options: {},
      conflict: 'CM_KNOWLEDGE_CONFLICT',
      attempts: 5,
    } as const;
    const saved = await saveOnConflict(record, createKnowledge(), 0, async (l) => {
      await l();
      return undefined;
    });
    expect(saved).toBeUndefined();
    expect(seen).toEqual([
      ['save', { expectedRevision: 0 }],
      ['load', {}],
    ]);
    const error = await rejection(
      saveOnConflict({ ...record, attempts: 1 }, createKnowledge(), 0, async () => undefined),
    );
    expect(error).toBeInstanceOf(KnowledgeConflictError);
  });
});
