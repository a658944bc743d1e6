/**
 * A writer process for the Redis event store tests.
 *
 * `writers` mode: appends `count` actions (`<name>-m<i>`), one per append, to the stream
 * `shared`, retrying on `EventConflictError` with the version it reports; prints `ready` once
 * connected, waits for a line on stdin, then prints one JSON line `{ appended, conflicts }`;
 * any other error exits with 1.
 *
 * `batches` mode: appends forever to `shared` in batches of 1 to 7 actions tagged
 * `<round>-<batch>-<j>/<size>` (snapshotEvery 3, so appends cross snapshots often), printing
 * `ready` once connected: the parent kills it with SIGKILL at a random moment.
 *
 * Usage: node --import tsx test/support/redisEventWorker.ts writers <url> <prefix> <name> <count>
 *        node --import tsx test/support/redisEventWorker.ts batches <url> <prefix> <round>
 */
import { createInterface } from 'node:readline';
import { isConversationMemoryError, memoryActions, type MemoryAction } from 'conversation-memory';
import { RedisEventStore } from 'conversation-memory/node';

const CONFIG = { maxMessages: 10_000, tokenizer: 'heuristic' } as const;
const [mode, url, prefix, ...rest] = process.argv.slice(2);
const added = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });

if (mode === 'writers') {
  const [name, countText] = rest;
  const store = new RedisEventStore({ url: url as string, prefix: prefix as string });
  let expected = (await store.load('shared'))?.version ?? 0; // connects
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  lines.close();
  let conflicts = 0;
  try {
    for (let i = 0; i < Number(countText); i++) {
      for (;;) {
        try {
          ({ version: expected } = await store.append('shared', [added(`${name}-m${i}`)], {
            expectedVersion: expected,
            config: CONFIG,
          }));
          break;
        } catch (error) {
          if (isConversationMemoryError(error) && error.code === 'CM_EVENT_CONFLICT') {
            conflicts++;
            expected = (error as unknown as { actualVersion: number }).actualVersion;
            continue;
          }
          throw error;
        }
      }
    }
    process.stdout.write(`${JSON.stringify({ appended: Number(countText), conflicts })}\n`);
  } catch (error) {
    process.stderr.write(`writer ${name} failed: ${String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await store.close();
  }
} else if (mode === 'batches') {
  const [round] = rest;
  const store = new RedisEventStore({
    url: url as string,
    prefix: prefix as string,
    snapshotEvery: 3,
  });
  let version = (await store.load('shared'))?.version ?? 0;
  process.stdout.write('ready\n');
  for (let batch = 0; ; batch++) {
    const size = 1 + (batch % 7);
    const actions = Array.from({ length: size }, (_, j) => added(`${round}-${batch}-${j}/${size}`));
    ({ version } = await store.append('shared', actions, {
      expectedVersion: version,
      config: CONFIG,
    }));
  }
} else {
  process.stderr.write(`unknown mode ${String(mode)}\n`);
  process.exitCode = 2;
}
