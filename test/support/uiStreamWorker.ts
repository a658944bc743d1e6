/**
 * A chat server process for test/node/uiMessageStreamStore.redis.test.ts: runs one slow reply
 * with `toUIMessageStream({ store })` on a Redis store, reading nothing of it itself (as when the
 * page that asked has gone), then prints the metadata of the reply memory kept.
 * Arguments: redis URL, key prefix, chat id.
 */
import { createClient } from 'redis';
import { ConversationMemory, createAgent, type Provider } from 'conversation-memory';
import { toUIMessageStream } from 'conversation-memory/ai-sdk';
import { RedisUIMessageStreamStore } from 'conversation-memory/node';
import { LocalProvider } from 'conversation-memory/testing';

const [url, prefix, chatId] = process.argv.slice(2) as [string, string, string];
const client = await createClient({ url }).connect();
const store = new RedisUIMessageStreamStore({ client, prefix, pollMs: 10 });
const local = new LocalProvider();
const slow: Provider = {
  name: 'slow',
  defaultModel: 'local-1',
  complete: (request) => local.complete(request),
  stream: (request) => ({
    async *[Symbol.asyncIterator]() {
      for await (const part of local.stream(request)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        request.signal?.throwIfAborted();
        yield part;
      }
    },
  }),
};
const memory = new ConversationMemory({ tokenizer: 'heuristic' });
const agent = createAgent({ provider: slow, memory });
const stream = toUIMessageStream(agent.stream('tell me a long story', { messageId: 'm-x' }), {
  store,
  chatId,
});
await stream.cancel(); // nobody reads here: the run goes on, kept in Redis
while ((await store.read(chatId)) === null) await new Promise((resolve) => setTimeout(resolve, 10));
console.log('streaming');
for (let i = 0; i < 200 && memory.getHistory().length < 2; i++) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
console.log(`kept: ${JSON.stringify(memory.getHistory()[1]?.metadata ?? null)}`);
await new Promise((resolve) => setTimeout(resolve, 200));
await client.quit();
