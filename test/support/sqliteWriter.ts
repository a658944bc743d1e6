/**
 * A writer process for the SQLite multi-writer test: appends `count` messages (`w<id>-m<i>`) to one
 * shared session, each by load → add → save with the loaded revision, retrying on
 * `SessionConflictError`. Any other error (a leaked SQLITE_BUSY above all) is reported and makes
 * the process exit with 1. Prints one JSON line: { id, saved, conflicts }.
 *
 * Usage: tsx test/support/sqliteWriter.ts <database> <id> <count> <startAt>
 * (`startAt`: a Date.now() value; the writers start together, so that they collide.)
 */
import {
  addMessage,
  createMemory,
  isConversationMemoryError,
  userMessage,
} from 'conversation-memory';
import { SqliteSessionStore } from 'conversation-memory/node';

const [file, id, countText, startText] = process.argv.slice(2);
const count = Number(countText);
const store = new SqliteSessionStore({ path: file as string });
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startText) - Date.now())));
let conflicts = 0;
try {
  for (let i = 0; i < count; i++) {
    for (;;) {
      const loaded = await store.load('shared');
      const base = loaded?.state ?? createMemory({ maxMessages: 10_000, tokenizer: 'heuristic' });
      const next = addMessage(base, userMessage(`w${id}-m${i}`)).state;
      try {
        await store.save('shared', next, { expectedRevision: loaded?.revision ?? 0 });
        break;
      } catch (error) {
        if (isConversationMemoryError(error) && error.code === 'CM_SESSION_CONFLICT') {
          conflicts++;
          continue;
        }
        throw error;
      }
    }
  }
  process.stdout.write(`${JSON.stringify({ id, saved: count, conflicts })}\n`);
} catch (error) {
  const code = (error as { code?: unknown }).code;
  process.stderr.write(`writer ${id} failed (${String(code)}): ${String(error)}\n`);
  process.exitCode = 1;
} finally {
  await store.close();
}
