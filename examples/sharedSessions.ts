/**
 * Two agent processes sharing conversations through a session store. Here both "processes" are
 * agents in one script and the store is a JSON file store in a temporary directory (the same code
 * runs with `SqliteSessionStore` on one machine or `RedisSessionStore` across many).
 *
 * 1. The web worker answers the user's first turn: the session does not exist yet, so the run
 *    saves revision 1.
 * 2. The queue worker, with its own empty memory, serves the next turn: it loads revision 1 (the
 *    model sees the first turn), and saves revision 2.
 * 3. Both serve a turn at the same time: the slower one's save conflicts (another writer saved
 *    since it loaded), so its turn is added onto the newer state and saved as revision 4. No turn
 *    is lost and nothing is written twice.
 *
 * Run: `npx tsx examples/sharedSessions.ts`
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, type Provider } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { JsonFileSessionStore } from 'conversation-memory/node';

const directory = mkdtempSync(join(tmpdir(), 'cm-sessions-'));
const store = new JsonFileSessionStore({ directory });
const session = { store, id: 'thread-7', namespace: 'user-42' };
const events: string[] = [];
const observers = [
  {
    onSessionLoad: (_run: string, id: string, count: number) =>
      void events.push(`loaded ${id} (${count} messages)`),
    onSessionSave: (_run: string, id: string, count: number) =>
      void events.push(`saved ${id} (${count} messages)`),
  },
];

/** A provider that waits for `release` before answering: a slow model call. */
const slowProvider = (release: Promise<void>): Provider => {
  const local = new LocalProvider();
  return {
    name: 'slow-local',
    defaultModel: 'local',
    complete: async (request) => {
      await release;
      return local.complete(request);
    },
  };
};

try {
  const web = createAgent({ provider: new LocalProvider(), session, observers });
  await web.run('Hi! My name is Alice.');
  console.log(
    `web worker:   revision ${(await store.load(session.id, { namespace: session.namespace }))?.revision}`,
  );

  const queue = createAgent({ provider: new LocalProvider(), session, observers });
  const reply = await queue.run("What's my name?");
  console.log(`queue worker: "${reply.message.content}"`);
  assert.match(reply.message.content ?? '', /Alice/);

  // Both at once: the slow one loads revision 2, the fast one saves revision 3 meanwhile.
  let release: () => void = () => undefined;
  const slow = createAgent({
    provider: slowProvider(new Promise((resolve) => (release = resolve))),
    session,
    observers,
  });
  const slowRun = slow.run('Slow question.');
  await queue.run('Fast question.');
  release();
  await slowRun;

  const stored = await store.load(session.id, { namespace: session.namespace });
  assert.equal(stored?.revision, 4);
  const users = stored?.state.messages.filter((m) => m.role === 'user').map((m) => m.content);
  assert.deepEqual(users, [
    'Hi! My name is Alice.',
    "What's my name?",
    'Fast question.',
    'Slow question.',
  ]);
  console.log(events.join('\n'));
  console.log(`files: ${readdirSync(directory).join(', ')}`);
  console.log(
    `shared sessions: 4 turns by 3 agents, revision ${stored?.revision}, ${stored?.state.messages.length} messages, no turn lost`,
  );
} finally {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
}
