// Issue #27 item 9: entity memory and the knowledge graph share a user's facts across sessions
// through a knowledge store (retire, never overwrite; revisions, no lost update), and item 1: a
// record another program deleted is never written back. Real stores: in-memory, SQLite
// (better-sqlite3, two store objects on one file), Redis (a server this file starts).
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  InMemorySessionStore,
  type CompletionRequest,
  type ModelCallInfo,
  type Provider,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import {
  createEntityMemory,
  createKnowledgeGraph,
  createKnowledgeMemory,
  ENTITY_EXTRACTION_SYSTEM_PROMPT,
  type KnowledgeState,
  type KnowledgeStore,
} from 'conversation-memory/knowledge';
import { knowledgeBackends, watchKnowledgeStore } from '../support/knowledgeBackends';

/** The knowledge blocks a main call carried first ('' when none). */
const blocksOf = (call: ModelCallInfo | undefined): string => {
  const first = call?.messages[0];
  return first?.role === 'system' && /^\[Known|^\[Important|^\[General/.test(first.content ?? '')
    ? (first.content ?? '')
    : '';
};

/** `subject relation object` of each relation in force, sorted. */
const inForce = (state: KnowledgeState | undefined): string[] =>
  (state?.relations ?? [])
    .filter((r) => r.retiredAt === null)
    .map((r) => `${r.subject} ${r.relation} ${r.object}`)
    .sort();

/** `key: value` of the user entity's attributes in force, sorted. */
const userAttributes = (state: KnowledgeState | undefined): string[] =>
  (state?.entities.find((e) => e.name === 'User')?.attributes ?? [])
    .filter((a) => a.retiredAt === null)
    .map((a) => `${a.key}: ${a.value}`)
    .sort();

/** A gate that opens when `parties` callers wait at it. */
const barrier = (parties: number): (() => Promise<void>) => {
  let waiting = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++waiting === parties) open();
    await opened;
  };
};

/**
 * `LocalProvider`, whose first entity extraction waits at `gate`: two agents that share the gate
 * have both loaded the knowledge record before either saves.
 */
const gatedProvider = (gate: () => Promise<void>): Provider => {
  const local = new LocalProvider();
  let first = true;
  return {
    name: 'gated',
    defaultModel: local.defaultModel,
    complete: async (request: CompletionRequest) => {
      if (request.systemPrompt === ENTITY_EXTRACTION_SYSTEM_PROMPT && first) {
        first = false;
        await gate();
      }
      return local.complete(request);
    },
  };
};

const USER = 'user-1';
const WHERE = { namespace: 'acme' } as const;

/** An agent for one session of the user (a new agent, as a new process would make it). */
const sessionAgent = (
  store: KnowledgeStore,
  sessions: InMemorySessionStore,
  id: string,
  provider: Provider = new LocalProvider(),
) => {
  const calls: ModelCallInfo[] = [];
  const errors: unknown[] = [];
  const agent = createAgent({
    provider,
    session: { store: sessions, id },
    entityMemory: createEntityMemory({ store, id: USER, ...WHERE }),
    knowledgeGraph: createKnowledgeGraph({ store, id: USER, ...WHERE }),
    observers: [{ onModelCall: (_run, call) => void (call.kind === 'main' && calls.push(call)) }],
    config: { onError: (error) => void errors.push(error) },
  });
  return { agent, calls, errors };
};

describe.each(knowledgeBackends())('knowledge shared across sessions: $name', (backend) => {
  it("a move told in session B retires the old value in session A's next view; the record keeps both", async () => {
    const { store, other } = await backend.pair();
    const sessions = new InMemorySessionStore();
    const a = sessionAgent(store, sessions, 'A');
    await a.agent.run('I live in Lyon.');
    await a.agent.run('Tell me a joke.');
    await a.agent.run('I work at Acme.');
    const b = sessionAgent(store, sessions, 'B');
    await b.agent.run('I moved to Berlin.');
    // Session B's first call already carried what session A learned.
    expect(blocksOf(b.calls[0])).toContain('- User --[lives_in]--> Lyon');
    await a.agent.run('Where do I live?');
    const seen = blocksOf(a.calls.at(-1));
    expect(seen).toContain('- User --[lives_in]--> Berlin');
    expect(seen).toContain('lives_in: Berlin');
    expect(seen).toContain('- User --[works_at]--> Acme');
    expect(seen).not.toContain('--> Lyon');
    expect(seen).not.toContain('lives_in: Lyon');
    // The record (read by another store object) keeps the old value, retired, never overwritten.
    const record = (await other.load(USER, WHERE))?.state;
    const lyon = record?.relations.find((r) => r.object === 'Lyon');
    const berlin = record?.relations.find((r) => r.object === 'Berlin');
    expect(lyon).toMatchObject({ retiredBy: 'superseded', supersededBy: berlin?.id });
    expect(lyon?.retiredAt).toEqual(expect.any(Number));
    expect(lyon?.validTo).toBe(berlin?.validFrom);
    expect(berlin).toMatchObject({ retiredAt: null, validTo: null });
    const attributes = record?.entities.find((e) => e.name === 'User')?.attributes ?? [];
    const oldCity = attributes.find((x) => x.value === 'Lyon');
    const newCity = attributes.find((x) => x.value === 'Berlin');
    expect(oldCity).toMatchObject({ key: 'lives_in', retiredBy: 'superseded' });
    expect(oldCity?.supersededBy).toBe(newCity?.id);
    expect(userAttributes(record)).toEqual(['lives_in: Berlin', 'works_at: Acme']);
    expect(await other.load(USER)).toBeNull(); // the namespace's record only
    // Session A again in a new agent (a restart): no message is read twice.
    const again = sessionAgent(store, sessions, 'A');
    await again.agent.run('Thanks!');
    const after = (await other.load(USER, WHERE))?.state;
    expect(after?.relations.map((r) => [r.object, r.mentions])).toEqual([
      ['Lyon', 1],
      ['Acme', 1],
      ['Berlin', 1],
    ]);
    expect([...a.errors, ...b.errors, ...again.errors]).toEqual([]);
  });

  it('two sessions extracting at once lose no update: the later save applies its facts again to the newer record', async () => {
    const { store, other } = await backend.pair();
    const watched = watchKnowledgeStore(store);
    const sessions = new InMemorySessionStore();
    const gate = barrier(2);
    const a = sessionAgent(watched, sessions, 'A', gatedProvider(gate));
    const b = sessionAgent(watched, sessions, 'B', gatedProvider(gate));
    await Promise.all([
      a.agent.run('I work at Acme and I like chess.'),
      b.agent.run('I like tea and I live in Rome.'),
    ]);
    expect(watched.conflicts).toBeGreaterThan(0);
    expect([...a.errors, ...b.errors]).toEqual([]);
    const loaded = await other.load(USER, WHERE);
    expect(inForce(loaded?.state)).toEqual([
      'User likes chess',
      'User likes tea',
      'User lives_in Rome',
      'User works_at Acme',
    ]);
    expect(userAttributes(loaded?.state)).toEqual(['lives_in: Rome', 'works_at: Acme']);
    // One save per extraction: entities and relations, in each session.
    expect(loaded?.revision).toBe(4);
  });

  it('a single-valued relation told in two sessions at once: one value in force, the other retired by it', async () => {
    const { store, other } = await backend.pair();
    const watched = watchKnowledgeStore(store);
    const sessions = new InMemorySessionStore();
    const gate = barrier(2);
    const a = sessionAgent(watched, sessions, 'A', gatedProvider(gate));
    const b = sessionAgent(watched, sessions, 'B', gatedProvider(gate));
    await Promise.all([a.agent.run('I live in Lyon.'), b.agent.run('I live in Rome.')]);
    expect(watched.conflicts).toBeGreaterThan(0);
    const relations = (await other.load(USER, WHERE))?.state.relations ?? [];
    expect(relations.map((r) => r.object).sort()).toEqual(['Lyon', 'Rome']);
    const current = relations.filter((r) => r.retiredAt === null);
    expect(current).toHaveLength(1);
    const old = relations.find((r) => r.retiredAt !== null);
    expect(old).toMatchObject({ retiredBy: 'superseded', supersededBy: current[0]?.id });
    // Both sessions' next views agree.
    await a.agent.run('Where do I live?');
    await b.agent.run('Where do I live?');
    const city = current[0]?.object as string;
    for (const session of [a, b]) {
      expect(blocksOf(session.calls.at(-1))).toContain(`- User --[lives_in]--> ${city}`);
      expect(blocksOf(session.calls.at(-1))).not.toContain(`--> ${old?.object}`);
      expect(blocksOf(session.calls.at(-1))).toContain(`(lives_in: ${city})`);
    }
  });

  it('a knowledge memory record another store object deleted is never written back, even when the next load fails', async () => {
    const { store, other } = await backend.pair();
    const watched = watchKnowledgeStore(store);
    const calls: ModelCallInfo[] = [];
    const errors: unknown[] = [];
    const agent = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory(),
      knowledgeMemory: createKnowledgeMemory({ store: watched, id: USER }),
      observers: [{ onModelCall: (_run, call) => void (call.kind === 'main' && calls.push(call)) }],
      config: { onError: (error) => void errors.push(error) },
    });
    await agent.run('/call remember {"content": "Allergic to peanuts"}');
    expect((await other.load(USER))?.state.entries.map((e) => e.content)).toEqual([
      'Allergic to peanuts',
    ]);
    expect(await other.delete(USER)).toBe(true);
    watched.failLoads(1);
    await agent.run('/call remember {"content": "Likes tea"}');
    expect(errors).toHaveLength(1); // the failed load, reported
    const record = await other.load(USER);
    expect(record?.state.entries.map((e) => e.content)).toEqual(['Likes tea']);
    expect(record?.revision).toBe(1);
    // The next run reads the store's state.
    await agent.run('What do you know about me?');
    expect(blocksOf(calls.at(-1))).toContain('Likes tea');
    expect(blocksOf(calls.at(-1))).not.toContain('peanuts');
  });

  it('an entity and graph record another store object deleted is never written back, and the next run starts empty', async () => {
    const { store, other } = await backend.pair();
    const watched = watchKnowledgeStore(store);
    const sessions = new InMemorySessionStore();
    const a = sessionAgent(watched, sessions, 'A');
    await a.agent.run('I live in Lyon.');
    expect(await other.delete(USER, WHERE)).toBe(true);
    // The next run's load fails: what the modules held must not reach the store.
    watched.failLoads(1);
    await a.agent.run('I work at Acme.');
    expect(a.errors).toHaveLength(1);
    const record = (await other.load(USER, WHERE))?.state;
    expect(record?.relations.map((r) => r.object)).toEqual(['Acme']);
    expect(userAttributes(record)).toEqual(['works_at: Acme']);
    // Deleted without a failure: the next run starts from the store's state (nothing).
    expect(await other.delete(USER, WHERE)).toBe(true);
    await a.agent.run('Where do I live?');
    expect(blocksOf(a.calls.at(-1))).toBe('');
    expect(await other.load(USER, WHERE)).toBeNull();
  });
});

describe('knowledge without a store', () => {
  it('stays with its conversation: another session does not see it (as before)', async () => {
    const sessions = new InMemorySessionStore();
    const agentFor = (id: string) => {
      const calls: ModelCallInfo[] = [];
      const agent = createAgent({
        provider: new LocalProvider(),
        session: { store: sessions, id },
        knowledgeGraph: createKnowledgeGraph(),
        observers: [{ onModelCall: (_r, call) => void (call.kind === 'main' && calls.push(call)) }],
      });
      return { agent, calls };
    };
    const a = agentFor('A');
    await a.agent.run('I live in Lyon.');
    await a.agent.run('Where do I live?');
    expect(blocksOf(a.calls.at(-1))).toContain('- User --[lives_in]--> Lyon');
    const b = agentFor('B');
    await b.agent.run('Where do I live?');
    expect(blocksOf(b.calls.at(-1))).toBe('');
  });

  it('store, id and namespace are checked as knowledge memory checks them', () => {
    expect(() => createKnowledgeGraph({ store: {} as never })).toThrow(
      'createKnowledgeGraph: options.store must be a knowledge store (with load, save, delete, list, close), received',
    );
    expect(() => createEntityMemory({ id: '' })).toThrow(
      'createEntityMemory: options.id must be a non-empty string, received ""',
    );
    expect(() => createEntityMemory({ stor: 1 } as never)).toThrow(/did you mean store\?/);
    expect(createKnowledgeGraph().options).toMatchObject({
      store: undefined,
      id: 'default',
      namespace: undefined,
    });
  });
});
