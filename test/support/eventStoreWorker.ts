/**
 * A writer process for the event store tests, on any of the stores that other processes can share:
 * `sqlite <file> -`, `redis <url> <prefix>` or `postgres <connection string> <schema>`.
 *
 * `writers` mode: opens the store and loads the stream `shared` (which connects), prints `ready`,
 * waits for a line on stdin, then appends `count` actions (`<name>-m<i>`), one per append, retrying
 * on `EventConflictError` with the version it reports, and prints one JSON line
 * `{ name, appended, conflicts }`; any other error exits with 1.
 *
 * `batches` mode: appends forever to `shared` in batches of 1 to 7 actions tagged
 * `<round>-<batch>-<j>/<size>` (snapshotEvery 3, so appends cross snapshots often), printing
 * `ready` once the store answered: the parent kills it with SIGKILL at a random moment.
 *
 * Usage: node <bundle> <backend> <target> <scope> writers <name> <count>
 *        node <bundle> <backend> <target> <scope> batches <round>
 * (test/support/eventStoreWorkers.ts bundles and starts it.)
 */
import { createInterface } from 'node:readline';
import {
  type EventStore,
  isConversationMemoryError,
  memoryActions,
  type MemoryAction,
} from 'conversation-memory';
import { PostgresEventStore, RedisEventStore, SqliteEventStore } from 'conversation-memory/node';

const CONFIG = { maxMessages: 10_000, tokenizer: 'heuristic' } as const;
const [backend, target, scope, mode, ...rest] = process.argv.slice(2) as (string | undefined)[];
const added = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });

const open = (snapshotEvery?: number): EventStore => {
  const every = snapshotEvery === undefined ? {} : { snapshotEvery };
  if (target === undefined || scope === undefined) throw new Error('usage: see the module comment');
  if (backend === 'sqlite') return new SqliteEventStore({ path: target, ...every });
  if (backend === 'redis') return new RedisEventStore({ url: target, prefix: scope, ...every });
  if (backend === 'postgres') {
    return new PostgresEventStore({ connectionString: target, schema: scope, ...every });
  }
  throw new Error(`unknown backend ${String(backend)}`);
};

if (mode === 'writers') {
  const [name, countText] = rest;
  const count = Number(countText);
  const store = open();
  let expected = (await store.load('shared'))?.version ?? 0; // connects
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  lines.close();
  let conflicts = 0;
  try {
    for (let i = 0; i < count; i++) {
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
    process.stdout.write(`${JSON.stringify({ name, appended: count, conflicts })}\n`);
  } catch (error) {
    process.stderr.write(`writer ${String(name)} failed: ${String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await store.close();
  }
} else if (mode === 'batches') {
  const [round] = rest;
  const store = open(3);
  let version = (await store.load('shared'))?.version ?? 0;
  process.stdout.write('ready\n');
  for (let batch = 0; ; batch++) {
    const size = 1 + (batch % 7);
    const actions = Array.from({ length: size }, (_, j) =>
      added(`${String(round)}-${batch}-${j}/${size}`),
    );
    ({ version } = await store.append('shared', actions, {
      expectedVersion: version,
      config: CONFIG,
    }));
  }
} else {
  process.stderr.write(`unknown mode ${String(mode)}\n`);
  process.exitCode = 2;
}
