import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isConversationMemoryError,
  MemoryArgumentError,
  SessionConflictError,
  StoreUnavailableError,
} from 'conversation-memory';
// node-redis's own error classes: what the store really receives.
import * as driver from '@redis/client/dist/lib/errors';
import { redisFailure } from '../../src/node/redis/failure';

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

  it('passes through our own errors, other server replies (NOSCRIPT, a script error) and non-errors', () => {
    for (const error of [
      new MemoryArgumentError('RedisSessionStore.load', 'the store is closed'),
      new SessionConflictError('RedisSessionStore.save', 's1', 1, 2),
      new driver.SimpleError('NOSCRIPT No matching script. Please use EVAL.'),
      new driver.SimpleError('ERR Error running script'),
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
