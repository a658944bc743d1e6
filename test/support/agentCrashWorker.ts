/**
 * A process that is killed inside a tool (issue #16 §2): an agent on an event store (SQLite or
 * Redis) runs `/call slow {"step": 1}` with `LocalProvider`; the tool prints `in-tool` and never
 * returns, so the stream ends with the assistant's tool call and no result. The parent kills it
 * with SIGKILL once it has printed `in-tool`.
 *
 * Usage: node agentCrashWorker.mjs sqlite <path> <streamId>
 *        node agentCrashWorker.mjs redis <url> <prefix> <streamId>
 */
import { createAgent, type EventStore } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { RedisEventStore, SqliteEventStore } from 'conversation-memory/node';

const [kind, where, ...rest] = process.argv.slice(2);
const store: EventStore =
  kind === 'sqlite'
    ? new SqliteEventStore({ path: where as string })
    : new RedisEventStore({ url: where as string, prefix: rest[0] as string });
const streamId = (kind === 'sqlite' ? rest[0] : rest[1]) as string;

const agent = createAgent({
  provider: new LocalProvider(),
  tools: [
    {
      name: 'slow',
      description: 'Takes forever',
      parameters: { type: 'object', properties: { step: { type: 'number' } } },
      execute: () => {
        process.stdout.write('in-tool\n');
        return new Promise(() => undefined);
      },
    },
  ],
  eventStore: { store, streamId, config: { maxMessages: 20, tokenizer: 'heuristic' } },
});
await agent.run('/call slow {"step": 1}');
process.stdout.write('finished\n');
