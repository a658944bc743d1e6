/**
 * Runs the stores against a folder this process may read but not write, and prints one JSON line
 * per case: what each call threw. Started by test/node/storeLastingFailures.test.ts, as the user
 * nobody when the tests run as root (root writes through mode bits), else as the same user.
 *
 * Usage: node storeAsUserWorker.mjs <read-only folder>. The folder holds session, event and
 * knowledge databases (`s.db`, `e.db`, `k.db`) made by the parent, all read-only for this process.
 */
import path from 'node:path';
// The heuristic tokenizer: the worker runs from a temp folder without gpt-tokenizer's files.
import { createMemory } from 'conversation-memory';
import {
  JsonFileSessionStore,
  SqliteEventStore,
  SqliteKnowledgeStore,
  SqliteSessionStore,
} from 'conversation-memory/node';

const [folder] = process.argv.slice(2) as [string];

const outcome = async (name: string, run: () => unknown): Promise<void> => {
  let thrown: unknown;
  try {
    await run();
  } catch (error) {
    thrown = error;
  }
  const error = thrown as
    { name?: unknown; code?: unknown; message?: unknown; transient?: unknown } | undefined;
  const line = {
    name,
    uid: process.getuid?.(),
    threw: thrown !== undefined,
    class: error?.name,
    code: error?.code,
    transient: error?.transient,
    mayHaveWritten: (error as { mayHaveWritten?: unknown } | undefined)?.mayHaveWritten,
    message: error?.message,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

await outcome('json: a folder to create in it', () => {
  new JsonFileSessionStore({ directory: path.join(folder, 'sessions') });
});
await outcome('json: a save in it', async () => {
  const store = new JsonFileSessionStore({ directory: folder });
  await store.save('s1', createMemory({ tokenizer: 'heuristic' }));
});
await outcome('session database: a new file in it', () => {
  new SqliteSessionStore({ path: path.join(folder, 'new.db') });
});
await outcome('session database: a read-only file', () => {
  new SqliteSessionStore({ path: path.join(folder, 's.db') });
});
await outcome('event database: a new file in it', () => {
  new SqliteEventStore({ path: path.join(folder, 'new.db') });
});
await outcome('event database: a read-only file', () => {
  new SqliteEventStore({ path: path.join(folder, 'e.db') });
});
await outcome('knowledge database: a new file in it', () => {
  new SqliteKnowledgeStore({ path: path.join(folder, 'new.db') });
});
await outcome('knowledge database: a read-only file', () => {
  new SqliteKnowledgeStore({ path: path.join(folder, 'k.db') });
});
