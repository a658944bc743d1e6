/**
 * A separate process for the JsonFileSessionStore tests, run as `node --import tsx <this file>`
 * (one process, so that SIGKILL hits the writer itself):
 *
 * - `append <directory> <session> <writer> <count>`: prints `ready`, waits for `go` on stdin,
 *   then appends `count` messages `<writer>:<i>`, each by load → add → save with
 *   `expectedRevision`, reloading and retrying on a conflict; prints `{"conflicts": n}` last.
 * - `churn <directory> <session>`: saves the session again and again, the save that makes
 *   revision k + 1 a whole new state of `churnSize(k)` messages `churnText(k, i)`, with
 *   `expectedRevision`; prints `ready` after its first save. The parent kills it at a random moment.
 */
import {
  addMessage,
  addMessages,
  createMemory,
  type MemoryState,
  SessionConflictError,
  userMessage,
} from 'conversation-memory';
import { JsonFileSessionStore } from 'conversation-memory/node';
import { churnSize, churnText } from './sessionFileChurn';

const empty = (): MemoryState =>
  createMemory({ maxMessages: 100_000, tokenizer: 'heuristic', toolPairs: 'strict' });

/** Prints `ready`, then waits for the line `go` on stdin, so that all writers start together. */
const startTogether = async (): Promise<void> => {
  process.stdout.write('ready\n');
  let seen = '';
  for await (const chunk of process.stdin) {
    seen += String(chunk);
    if (seen.includes('go\n')) break;
  }
};

const append = async (directory: string, session: string, writer: string, count: number) => {
  const store = new JsonFileSessionStore({ directory, lockWaitMs: 20_000 });
  await startTogether();
  let conflicts = 0;
  for (let i = 0; i < count; i++) {
    for (;;) {
      const loaded = await store.load(session);
      const next = addMessage(loaded?.state ?? empty(), userMessage(`${writer}:${i}`)).state;
      try {
        await store.save(session, next, { expectedRevision: loaded?.revision ?? 0 });
        break;
      } catch (error) {
        if (!(error instanceof SessionConflictError)) throw error;
        conflicts++;
      }
    }
  }
  process.stdout.write(`${JSON.stringify({ conflicts })}\n`);
};

const churn = async (directory: string, session: string) => {
  const store = new JsonFileSessionStore({ directory });
  let revision = (await store.load(session))?.revision ?? 0;
  let ready = false;
  for (let k = revision; ; k++) {
    const texts = Array.from({ length: churnSize(k) }, (_, i) => churnText(k, i));
    const state = addMessages(empty(), texts.map(userMessage)).state;
    revision = (await store.save(session, state, { expectedRevision: revision })).revision;
    if (!ready) process.stdout.write('ready\n');
    ready = true;
  }
};

const [mode, directory = '', session = '', writer = '', count = '0'] = process.argv.slice(2);
if (mode === 'append') await append(directory, session, writer, Number(count));
else if (mode === 'churn') await churn(directory, session);
else throw new Error(`unknown mode ${String(mode)}`);
