/**
 * A writer in its own process for the Redis multi-writer test. Arguments: url, prefix, session
 * id, writer name, count. It connects, prints `ready`, waits for a line on stdin, appends `count`
 * messages `${writer}:${i}` with retry-on-conflict, prints `{"conflicts": n}` and exits.
 */
import { createInterface } from 'node:readline';
import { RedisSessionStore } from 'conversation-memory/node';
import { appendWithRetry } from './sessionAppend';

const [url, prefix, sessionId, writer, count] = process.argv.slice(2);
if (url === undefined || prefix === undefined || sessionId === undefined || writer === undefined) {
  throw new Error('usage: redisAppendWorker URL PREFIX CM_SESSION_ID WRITER COUNT');
}
const store = new RedisSessionStore({ url, prefix });
await store.exists(sessionId); // connects
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();
let conflicts = 0;
for (let i = 0; i < Number(count); i++) {
  conflicts += await appendWithRetry(store, sessionId, `${writer}:${i}`);
}
await store.close();
process.stdout.write(`${JSON.stringify({ conflicts })}\n`);
