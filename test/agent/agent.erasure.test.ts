/**
 * Erasure holds against a live agent (issue #30 §3): after `deleteNamespace` of its tenant, or
 * once its records expired (`defaultTtl`, a clock moved by hand), an agent still running for that
 * namespace never writes back its old history, facts or actions: not in the session, not in the
 * event stream (its journal), not in the shared knowledge record. Between runs, in a tool and in
 * an observer hook (during the run), on the real in-memory stores.
 */
import { describe, expect, it } from 'vitest';
import {
  type AgentObserver,
  type AgentTool,
  createAgent,
  InMemoryEventStore,
  InMemorySessionStore,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { createKnowledgeMemory, InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
import { collect } from '../stores/storeSamples';

type How = 'deleteNamespace' | 'expired';
type When = 'between runs' | 'in a tool' | 'in an observer hook';

const cases: [How, When][] = (['deleteNamespace', 'expired'] as const).flatMap((how) =>
  (['between runs', 'in a tool', 'in an observer hook'] as const).map((when): [How, When] => [
    how,
    when,
  ]),
);

const TTL = 60;
const TENANT = 'tenant-7';
const ID = 'thread-1';
const USER = 'user-1';
const DONT_KNOW = 'I don\'t know your name yet. Tell me with "my name is …".';
/** What the runs before the erasure told: none of it may be written again. */
const OLD = ['Ada', 'peanuts'];
const REMEMBER_TEA = '/call remember {"content": "Likes tea"}';

/** The stores of one tenant, on one clock, and how the tenant's data goes. */
const tenantStores = (how: How) => {
  let now = 1_764_500_000;
  const clock = { defaultTtl: TTL, now: () => now };
  const sessions = new InMemorySessionStore(clock);
  const events = new InMemoryEventStore(clock);
  const knowledge = new InMemoryKnowledgeStore(clock);
  const erase = async () => {
    if (how === 'expired') {
      now += TTL + 1;
      return;
    }
    await sessions.deleteNamespace(TENANT);
    await events.deleteNamespace(TENANT);
    await knowledge.deleteNamespace(TENANT);
  };
  return { sessions, events, knowledge, erase };
};

/** An observer that erases at the first model call once armed, and a tool that erases. */
const erasers = (erase: () => Promise<void>) => {
  let armed = false;
  const observer: AgentObserver = {
    onModelCall: async () => {
      if (!armed) return;
      armed = false;
      await erase();
    },
  };
  const tool: AgentTool = {
    name: 'erase',
    description: "erases the tenant's data, as another process would",
    parameters: { type: 'object', properties: {} },
    execute: async () => {
      await erase();
      return 'gone';
    },
  };
  return { observer, tool, arm: () => void (armed = true) };
};

/** The input of the run during which (or before which) the data goes, after arming or erasing. */
const erasingRun = async (
  when: When,
  erase: () => Promise<void>,
  arm: () => void,
): Promise<string> => {
  if (when === 'between runs') await erase();
  if (when === 'in a tool') return '/call erase {}';
  if (when === 'in an observer hook') arm();
  return REMEMBER_TEA;
};

/** Whether `value`'s JSON has any of the old conversation's words. */
const hasOld = (value: unknown): boolean => {
  const json = JSON.stringify(value) ?? '';
  return OLD.some((word) => json.includes(word));
};

describe('an agent whose tenant was erased or expired: session and shared knowledge', () => {
  it.each(cases)('%s %s: nothing old is saved again', async (how, when) => {
    const { sessions, knowledge, erase } = tenantStores(how);
    const { observer, tool, arm } = erasers(erase);
    const agent = createAgent({
      provider: new LocalProvider(),
      session: { store: sessions, id: ID, namespace: TENANT },
      knowledgeMemory: createKnowledgeMemory({ store: knowledge, id: USER, namespace: TENANT }),
      tools: [tool],
      observers: [observer],
    });
    await agent.run('/call remember {"content": "Allergic to peanuts"}');
    await agent.run('My name is Ada.');
    const where = { namespace: TENANT };
    expect(hasOld(await sessions.load(ID, where))).toBe(true);
    expect(hasOld(await knowledge.load(USER, where))).toBe(true);

    await agent.run(await erasingRun(when, erase, arm));
    if (when === 'in a tool') await agent.run(REMEMBER_TEA);
    const session = await sessions.load(ID, where);
    expect(session).not.toBeNull();
    expect(hasOld(session)).toBe(false);
    expect(session?.revision).toBe(when === 'in a tool' ? 2 : 1);
    const record = await knowledge.load(USER, where);
    expect(record?.state.entries.map((entry) => entry.content)).toEqual(['Likes tea']);
    expect(record?.revision).toBe(1);

    // The runs after that know nothing old either, and save nothing old.
    expect((await agent.run("What's my name?")).message.content).toBe(DONT_KNOW);
    expect(hasOld(await sessions.load(ID, where))).toBe(false);
    expect(hasOld(await knowledge.load(USER, where))).toBe(false);
    expect(hasOld(agent.memory?.state)).toBe(false);
  });
});

describe('an agent whose tenant was erased or expired: event stream and shared knowledge', () => {
  it.each(cases)('%s %s: nothing old is appended again', async (how, when) => {
    const { events, knowledge, erase } = tenantStores(how);
    const { observer, tool, arm } = erasers(erase);
    const agent = createAgent({
      provider: new LocalProvider(),
      eventStore: { store: events, streamId: ID, namespace: TENANT },
      knowledgeMemory: createKnowledgeMemory({ store: knowledge, id: USER, namespace: TENANT }),
      tools: [tool],
      observers: [observer],
    });
    await agent.run('/call remember {"content": "Allergic to peanuts"}');
    await agent.run('My name is Ada.');
    const where = { namespace: TENANT };
    expect(hasOld(await collect(events.read(ID, where)))).toBe(true);

    await agent.run(await erasingRun(when, erase, arm));
    if (when === 'in a tool') await agent.run(REMEMBER_TEA);
    const actions = await collect(events.read(ID, where));
    expect(actions.length).toBeGreaterThan(0);
    expect(hasOld(actions)).toBe(false);
    const stream = await events.load(ID, where);
    expect(stream?.version).toBe(actions.length);
    expect(agent.memory?.state).toEqual(stream?.state);
    const record = await knowledge.load(USER, where);
    expect(record?.state.entries.map((entry) => entry.content)).toEqual(['Likes tea']);
    expect(record?.revision).toBe(1);

    expect((await agent.run("What's my name?")).message.content).toBe(DONT_KNOW);
    expect(hasOld(await collect(events.read(ID, where)))).toBe(false);
    expect(hasOld(await knowledge.load(USER, where))).toBe(false);
  });
});
