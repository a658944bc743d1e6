import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isConversationMemoryError,
  MemoryArgumentError,
  SessionConflictError,
  StoreUnavailableError,
} from 'conversation-memory';
// node-redis's own error classes: what the store really receives.
import * as driver from '@redis/client/dist/lib/errors';
import { createClient } from 'redis';
import { RedisSessionStore } from 'conversation-memory/node';
import { createMemory } from 'conversation-memory';
import { redisFailure } from '../../src/node/redis/failure';
import { startRedisServer } from '../support/redisServer';

/** A socket error as Node raises it. */
const socketError = (code: string): Error =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:6379`), { code });

/** Errors raised before the command left: nothing can have been written. */
const neverSent: readonly [string, () => Error][] = [
  ['ClientOfflineError', () => new driver.ClientOfflineError()],
  ['ClientClosedError', () => new driver.ClientClosedError()],
  ['ConnectionTimeoutError', () => new driver.ConnectionTimeoutError()],
  ['RootNodesUnavailableError', () => new driver.RootNodesUnavailableError()],
  ['MaxCommandRedirectionsError', () => new driver.MaxCommandRedirectionsError()],
  ['ECONNREFUSED', () => socketError('ECONNREFUSED')],
  ['ENOTFOUND', () => socketError('ENOTFOUND')],
];

/** Replies by which the server refused the command for now (a failover): nothing written. */
const refusals = [
  'CLUSTERDOWN The cluster is down',
  'TRYAGAIN Multiple keys request during rehashing of slot',
  'MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no',
  "READONLY You can't write against a read only replica.",
  'LOADING Redis is loading the dataset in memory',
  'BUSY Redis is busy running a script.',
  'NOREPLICAS Not enough good replicas to write.',
];

/** Errors after the command may have reached the server: a write's outcome is unknown. */
const maybeSent: readonly [string, () => Error][] = [
  ['SocketClosedUnexpectedlyError', () => new driver.SocketClosedUnexpectedlyError()],
  ['DisconnectsClientError', () => new driver.DisconnectsClientError()],
  ['SocketTimeoutError', () => new driver.SocketTimeoutError(100)],
  ['node-redis TimeoutError', () => new driver.TimeoutError()],
  ['our TimeoutError', () => new DOMException('Redis did not answer within 5 ms', 'TimeoutError')],
  ['ECONNRESET', () => socketError('ECONNRESET')],
  ['an unknown driver error', () => new Error('something else')],
];

describe('redisFailure: what a failed Redis call becomes', () => {
  it.each(neverSent)('%s: StoreUnavailableError, nothing written, even for a write', (_, make) => {
    const cause = make();
    const error = redisFailure(cause, 'RedisEventStore.append', true) as StoreUnavailableError;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ code: 'CM_STORE_UNAVAILABLE', mayHaveWritten: false, cause });
    expect(error.message).toMatch(
      /^\[conversation-memory\] RedisEventStore\.append: Redis is unreachable \(.+\); nothing was written: try again later$/,
    );
  });

  it.each(refusals)('a refusal (%s): nothing written', (message) => {
    const cause = new driver.SimpleError(message);
    const error = redisFailure(cause, 'RedisSessionStore.save', true) as StoreUnavailableError;
    expect(error).toMatchObject({ code: 'CM_STORE_UNAVAILABLE', mayHaveWritten: false, cause });
    expect(error.message).toContain('Redis refused the command for now');
  });

  it.each(maybeSent)('%s: a write may have been applied; a read wrote nothing', (_, make) => {
    const write = redisFailure(make(), 'RedisSessionStore.save', true) as StoreUnavailableError;
    expect(write).toMatchObject({ code: 'CM_STORE_UNAVAILABLE', mayHaveWritten: true });
    expect(write.message).toContain('the change may or may not have been applied');
    const read = redisFailure(make(), 'RedisSessionStore.load', false) as StoreUnavailableError;
    expect(read).toMatchObject({ code: 'CM_STORE_UNAVAILABLE', mayHaveWritten: false });
  });

  it('passes through our own errors and non-errors', () => {
    for (const error of [
      new MemoryArgumentError('RedisSessionStore.load', 'the store is closed'),
      new SessionConflictError('RedisSessionStore.save', 's1', 1, 2),
      'a string',
    ]) {
      expect(redisFailure(error, 'RedisSessionStore.load', true)).toBe(error);
    }
  });

  it('echoes the cause escaped and shortened (a driver message is input too)', () => {
    const cause = Object.assign(new Error(`reset\u001b[31m${'x'.repeat(500)}`), {
      code: 'ECONNRESET',
    });
    const error = redisFailure(cause, 'RedisSessionStore.load', false) as Error;
    expect(error.message).not.toContain('\u001b');
    expect(error.message.length).toBeLessThan(400);
  });

  it('property: any driver failure is ours, and says "may have written" only for a write that may have been sent', () => {
    const cases = [
      ...neverSent.map(([name, make]) => ({ name, make, sent: false, refused: false })),
      ...refusals.map((message) => ({
        name: message,
        make: () => new driver.SimpleError(message),
        sent: true,
        refused: true,
      })),
      ...maybeSent.map(([name, make]) => ({ name, make, sent: true, refused: false })),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.boolean(),
        fc.string({ maxLength: 30 }),
        (failure, writes, api) => {
          const error = redisFailure(failure.make(), api || 'api', writes);
          expect(isConversationMemoryError(error)).toBe(true);
          expect(error).toBeInstanceOf(StoreUnavailableError);
          expect((error as StoreUnavailableError).mayHaveWritten).toBe(
            writes && failure.sent && !failure.refused,
          );
        },
      ),
    );
  });
});

describe("redisFailure: the server's error replies, from a real Redis", () => {
  let server: Awaited<ReturnType<typeof startRedisServer>>;
  let raw: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer({ own: true });
    raw = createClient({ url: server.url });
    raw.on('error', () => undefined);
    await raw.connect();
    await raw.set('a-string', 'x');
  });
  afterAll(async () => {
    raw.destroy();
    await server.stop();
  });

  /** The error the server really replies to `args` (a node-redis ErrorReply). */
  const replyTo = async (args: string[]): Promise<Error> => {
    try {
      await raw.sendCommand(args);
    } catch (error) {
      return error as Error;
    }
    throw new Error(`no error reply to ${args.join(' ')}`);
  };

  /** Each reply, what it becomes: transient or lasting, and whether a write may have happened. */
  const REPLIES: readonly {
    readonly name: string;
    readonly args: string[];
    readonly what: RegExp;
    readonly transient: boolean;
    readonly inScript: boolean;
  }[] = [
    {
      name: 'WRONGTYPE (a command on a key of another type)',
      args: ['HGET', 'a-string', 'f'],
      what: /another type of value/,
      transient: false,
      inScript: false,
    },
    {
      name: 'WRONGTYPE raised inside a script',
      args: [
        'EVAL',
        "redis.call('SET', KEYS[2], 'y'); return redis.call('HGET', KEYS[1], 'f')",
        '2',
        'a-string',
        'other',
      ],
      what: /another type of value/,
      transient: false,
      inScript: true,
    },
    {
      name: 'NOSCRIPT (nothing ran)',
      args: ['EVALSHA', 'ffffffffffffffffffffffffffffffffffffffff', '0'],
      what: /answered the command with an error/,
      transient: false,
      inScript: false,
    },
    {
      name: "a script's error reply",
      args: ['EVAL', "return redis.error_reply('ERR boom')", '0'],
      what: /answered the command with an error/,
      transient: false,
      inScript: false,
    },
    {
      name: 'a Lua error in a script (it may have written before)',
      args: ['EVAL', "redis.call('SET', KEYS[1], 'y'); error('x')", '1', 'other'],
      what: /answered the command with an error/,
      transient: false,
      inScript: true,
    },
    {
      name: 'an unknown command',
      args: ['NOSUCHCOMMAND'],
      what: /answered the command with an error/,
      transient: false,
      inScript: false,
    },
  ];

  it.each(REPLIES)('$name: StoreUnavailableError with the reply as cause', async (reply) => {
    const cause = await replyTo(reply.args);
    for (const writes of [false, true]) {
      const error = redisFailure(cause, 'RedisSessionStore.save', writes) as StoreUnavailableError;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({
        code: 'CM_STORE_UNAVAILABLE',
        transient: reply.transient,
        cause,
      });
      expect(error.message).toMatch(reply.what);
      expect(error.mayHaveWritten).toBe(writes && reply.inScript);
    }
  });

  it('OOM (over maxmemory): transient, nothing written', async () => {
    await raw.sendCommand(['CONFIG', 'SET', 'maxmemory', '1']);
    let cause: Error;
    try {
      cause = await replyTo(['SET', 'more', 'x']);
    } finally {
      await raw.sendCommand(['CONFIG', 'SET', 'maxmemory', '0']);
    }
    expect(cause.message).toMatch(/^OOM/);
    const error = redisFailure(cause, 'RedisSessionStore.save', true) as StoreUnavailableError;
    expect(error).toMatchObject({ transient: true, mayHaveWritten: false, cause });
    expect(error.message).toContain('out of memory');
    expect(error.message).toContain('try again later');
  });

  it('a store still falls back from EVALSHA to EVAL when the server lost its scripts (NOSCRIPT)', async () => {
    const store = new RedisSessionStore({ url: server.url, prefix: 'noscript:' });
    try {
      await store.save('s1', createMemory());
      await raw.sendCommand(['SCRIPT', 'FLUSH']);
      expect((await store.load('s1'))?.revision).toBe(1);
      expect(await store.save('s1', createMemory(), { expectedRevision: 1 })).toEqual({
        revision: 2,
      });
    } finally {
      await store.close();
    }
  });
});
