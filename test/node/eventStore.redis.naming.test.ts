/**
 * Every failure of `RedisEventStore` to reach Redis names the stream it was about (issue #27
 * §12): `read` (an async generator, which `naming` did not wrap) and the errors `subscribe`
 * reports to `onError` carry `id` as `append`, `load` and `delete` do, for any stream id, with or
 * without a namespace, in the field and in the message. Real Redis: a loopback port nothing listens on, and a real server whose
 * subscription connection is killed.
 */
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isConversationMemoryError,
  memoryActions,
  StoreUnavailableError,
  userMessage,
} from 'conversation-memory';
import { RedisEventStore } from 'conversation-memory/node';
import { quoteText } from '../../src/util/escapeText';
import { freePort, startRedisServer, type RedisTestServer } from '../support/redisServer';

/** A stream id of any kind the store accepts: words, spaces, separators, any Unicode. */
const streamIdArb = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((id) => !id.includes('\0')),
  fc.constantFrom('thread 7', 'a:b', '{slot}', '../etc/passwd', 'ü🙂', 'line\nbreak'),
);

const failureOf = async (run: () => Promise<unknown>): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

const readAll = async (store: RedisEventStore, id: string, namespace?: string) => {
  const out = [];
  for await (const entry of store.read(id, namespace === undefined ? undefined : { namespace })) {
    out.push(entry);
  }
  return out;
};

/** The first error a subscription reports, within `ms`. */
const firstReported = (
  store: RedisEventStore,
  id: string,
  namespace: string | undefined,
): Promise<{ error: unknown; stop: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no error was reported')), 10_000);
    const stop = store.subscribe(id, 0, () => undefined, {
      ...(namespace === undefined ? {} : { namespace }),
      onError: (error) => {
        clearTimeout(timer);
        resolve({ error, stop });
      },
    });
  });

const expectNamed = (error: unknown, id: string, api: string): void => {
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect(isConversationMemoryError(error) && error.code).toBe('CM_STORE_UNAVAILABLE');
  expect((error as StoreUnavailableError).id).toBe(id);
  expect((error as Error).message).toContain(`[conversation-memory] ${api}: `);
  // The message names the stream too (quoted and escaped, as ids are in every error).
  expect((error as Error).message).toContain(`, id ${quoteText(id)}`);
};

describe('RedisEventStore: Redis unreachable, every call names the stream', () => {
  it('read, subscribe (and append, load, delete, as before), for any stream id and namespace', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const store = new RedisEventStore({ url, commandTimeoutMs: 2_000 });
    try {
      await fc.assert(
        fc.asyncProperty(
          streamIdArb,
          fc.option(fc.stringMatching(/^[a-z]{1,8}$/), { nil: undefined }),
          async (id, namespace) => {
            const where = namespace === undefined ? undefined : { namespace };
            expectNamed(
              await failureOf(() => readAll(store, id, namespace)),
              id,
              'RedisEventStore.read',
            );
            const { error, stop } = await firstReported(store, id, namespace);
            expectNamed(error, id, 'RedisEventStore.subscribe');
            await stop();
            expectNamed(await failureOf(() => store.load(id, where)), id, 'RedisEventStore.load');
            expectNamed(
              await failureOf(() =>
                store.append(id, [memoryActions.cleared()], { expectedVersion: 0, ...where }),
              ),
              id,
              'RedisEventStore.append',
            );
            expectNamed(
              await failureOf(() => store.delete(id, where)),
              id,
              'RedisEventStore.delete',
            );
          },
        ),
        { numRuns: 12 },
      );
    } finally {
      await store.close().catch(() => undefined);
    }
  });
});

describe('RedisEventStore: a subscription whose connection is killed', () => {
  let server: RedisTestServer;
  let admin: ReturnType<typeof createClient>;

  beforeAll(async () => {
    server = await startRedisServer();
    admin = createClient({ url: server.url });
    admin.on('error', () => undefined);
    await admin.connect();
  }, 20_000);

  afterAll(async () => {
    admin?.destroy();
    await server?.stop();
  });

  it('reports the lost connection with the stream it was following, and resumes', async () => {
    const prefix = `cm-naming:${process.pid}-${Date.now().toString(36)}:`;
    const store = new RedisEventStore({ url: server.url, prefix });
    const id = 'thread "7"\u202e';
    const seen: number[] = [];
    const errors: unknown[] = [];
    const unsubscribe = store.subscribe(id, 0, ({ version }) => void seen.push(version), {
      namespace: 'team-a',
      onError: (error) => errors.push(error),
    });
    try {
      await store.append(id, [memoryActions.messageAdded(userMessage('a'))], {
        expectedVersion: 0,
        namespace: 'team-a',
      });
      const waitFor = async (check: () => boolean) => {
        for (let i = 0; i < 500 && !check(); i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(check()).toBe(true);
      };
      await waitFor(() => seen.length === 1);
      let blocked: { id: number }[] = [];
      for (let i = 0; i < 100 && blocked.length === 0; i++) {
        blocked = (await admin.clientList()).filter((client) => client.cmd === 'xread');
        if (blocked.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(blocked).toHaveLength(1);
      await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(blocked[0]?.id)]);
      await waitFor(() => errors.length > 0);
      for (const error of errors) expectNamed(error, id, 'RedisEventStore.subscribe');
      await store.append(id, [memoryActions.messageAdded(userMessage('b'))], {
        expectedVersion: 1,
        namespace: 'team-a',
      });
      await waitFor(() => seen.length === 2);
      expect(seen).toEqual([1, 2]);
    } finally {
      await unsubscribe();
      for await (const keys of admin.scanIterator({ MATCH: `${prefix}*` })) {
        if (keys.length > 0) await admin.del(keys);
      }
      await store.close();
    }
  });
});
