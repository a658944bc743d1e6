/**
 * An agent that remembers a user's facts across sessions, offline. `LocalProvider` answers the
 * reference's extraction prompts with its deterministic extractor, so no model is needed.
 *
 * - The knowledge graph and knowledge memory live in a knowledge store shared by every session of
 *   the user (one record, `user-42`): facts are extracted once per message after each run; a new
 *   value retires the old one, in every session; the agent's `remember` tool writes entries there.
 * - Each conversation is saved with its session, with which of its messages were read.
 *
 * 1. Monday, session "trip": the user gives their name, employer and city, and asks the agent to
 *    remember a preference.
 * 2. Tuesday, a new session "billing" (a new agent, as after a restart): its first model call
 *    already carries the preference and the facts; the user says they moved.
 * 3. Wednesday, back in "trip": the old city is retired (kept, with `validTo`), the new one is in
 *    force, and the model sees only the new one. Five more turns read no message twice: each fact
 *    is stored once.
 *
 * Run: `npx tsx examples/knowledgeAcrossSessions.ts`
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, type ModelCallInfo } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { createKnowledgeGraph, createKnowledgeMemory } from 'conversation-memory/knowledge';
import { JsonFileSessionStore, SqliteKnowledgeStore } from 'conversation-memory/node';

const directory = mkdtempSync(join(tmpdir(), 'cm-knowledge-'));
const sessions = new JsonFileSessionStore({ directory: join(directory, 'sessions') });
const knowledgeStore = new SqliteKnowledgeStore({ path: join(directory, 'knowledge.db') });

/** What the model received first in a main call: the knowledge blocks, when there are any. */
const blocksOf = (call: ModelCallInfo): string =>
  call.messages[0]?.role === 'system' && (call.messages[0].content ?? '').startsWith('[')
    ? (call.messages[0].content ?? '')
    : '';

/** A new agent for one session of user 42 (as a new process would make it). */
const agentFor = (sessionId: string) => {
  const calls: ModelCallInfo[] = [];
  const knowledgeGraph = createKnowledgeGraph({ store: knowledgeStore, id: 'user-42' });
  const agent = createAgent({
    provider: new LocalProvider(),
    session: { store: sessions, id: sessionId, namespace: 'user-42' },
    knowledgeGraph,
    knowledgeMemory: createKnowledgeMemory({ store: knowledgeStore, id: 'user-42' }),
    observers: [{ onModelCall: (_run, call) => void (call.kind === 'main' && calls.push(call)) }],
  });
  return { agent, knowledgeGraph, calls };
};

try {
  console.log('Monday, session "trip":');
  const monday = agentFor('trip');
  await monday.agent.run('My name is Ada.');
  await monday.agent.run('I work at Acme and I live in Lyon.');
  await monday.agent.run(
    '/call remember {"content": "Prefers window seats", "persistent": "true"}',
  );
  for (const r of monday.knowledgeGraph.state.relations) {
    console.log(`  learned ${r.subject} --[${r.relation}]--> ${r.object}`);
  }

  console.log('Tuesday, a new session "billing":');
  const tuesday = agentFor('billing');
  await tuesday.agent.run('Can you book my seat?');
  const seen = blocksOf(tuesday.calls[0] as ModelCallInfo);
  console.log(`  the first model call carries:\n${seen.replace(/^/gm, '    ')}`);
  assert.match(seen, /Prefers window seats/);
  assert.match(seen, /User --\[lives_in\]--> Lyon/);
  await tuesday.agent.run('I moved to Nice.');

  console.log('Wednesday, back in "trip":');
  const wednesday = agentFor('trip');
  for (const text of [
    'Any news?',
    'Tell me a joke.',
    'Thanks!',
    'What time is it?',
    'Where do I live?',
  ]) {
    await wednesday.agent.run(text);
  }
  const relations = wednesday.knowledgeGraph.state.relations;
  for (const r of relations) {
    const status = r.retiredAt === null ? 'in force' : `retired (${r.retiredBy})`;
    console.log(
      `  ${r.subject} --[${r.relation}]--> ${r.object}: ${status}, ${r.mentions} mention`,
    );
  }
  const lyon = relations.find((r) => r.object === 'Lyon');
  const nice = relations.find((r) => r.object === 'Nice');
  assert.equal(lyon?.retiredBy, 'superseded');
  assert.equal(nice?.retiredAt, null);
  assert.ok(
    relations.every((r) => r.mentions === 1),
    'no message was read twice',
  );
  const last = blocksOf(wednesday.calls.at(-1) as ModelCallInfo);
  assert.match(last, /User --\[lives_in\]--> Nice/);
  assert.doesNotMatch(last, /Lyon/);
  console.log(
    `knowledge across sessions: session 2 received the remembered preference; "${nice?.object}" retired "${lyon?.object}" (kept, validTo set); ${relations.length} facts, each stored once`,
  );
} finally {
  await knowledgeStore.close();
  rmSync(directory, { recursive: true, force: true });
}
