/**
 * A writer process for the SQLite event store tests.
 *
 * `writers` mode: appends `count` actions (`w<id>-m<i>`), one per append, to the stream `shared`,
 * retrying on `EventConflictError` with the version it reports. Prints one JSON line
 * `{ id, appended, conflicts }`; any other error exits with 1.
 *
 * `batches` mode: appends forever to `shared` in batches of 1 to 7 actions tagged
 * `<round>-<batch>-<j>/<size>` (snapshotEvery 3, so appends cross snapshots often), printing
 * `ready` once the store is open: the parent kills it with SIGKILL at a random moment.
 *
 * Usage: tsx test/support/eventAppendWorker.ts writers <db> <id> <count> <startAt>
 *        tsx test/support/eventAppendWorker.ts batches <db> <round>
 */
import { isConversationMemoryError, memoryActions, type MemoryAction } from 'conversation-memory';
import { SqliteEventStore } from 'conversation-memory/node';

const CONFIG = { maxMessages: 10_000, tokenizer: 'heuristic' } as const;
const [mode, file, ...rest] = process.argv.slice(2);
const added = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });

if (mode === 'writers') {
  const [id, countText, startText] = rest;
  const count = Number(countText);
  const store = new SqliteEventStore({ path: file as string });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startText) - Date.now())));
  let conflicts = 0;
  let expected = 0;
  try {
    for (let i = 0; i < count; i++) {
      for (;;) {
        try {
          ({ version: expected } = await store.append('shared', [added(`w${id}-m${i}`)], {
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
    process.stdout.write(`${JSON.stringify({ id, appended: count, conflicts })}\n`);
  } catch (error) {
    process.stderr.write(`writer ${id} failed: ${String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await store.close();
  }
} else if (mode === 'batches') {
  const [round] = rest;
  const store = new SqliteEventStore({ path: file as string, snapshotEvery: 3 });
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
