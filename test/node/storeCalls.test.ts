/**
 * `StoreCalls` (src/node/storeCalls.ts), the one helper every Node store opens its calls with:
 * the closed-store guard as `Store.method`, and what each backend makes of a call's failure
 * (`unavailableAt` for a store on files, `namingTheId` for a store on a server).
 */
import { describe, expect, it } from 'vitest';
import {
  MemoryArgumentError,
  SessionCorruptError,
  SessionConflictError,
  StoreUnavailableError,
} from 'conversation-memory';
import { type FailedCall, namingTheId, StoreCalls, unavailableAt } from '../../src/node/storeCalls';
import { sqliteFailurePlace, sqliteStoreCalls } from '../../src/node/sqlite/failurePlace';
import { rejection } from '../helpers';

/** An error as Node's file system raises it. */
const fsError = (code: string, syscall = 'open'): Error =>
  Object.assign(new Error(`${code}: ${syscall}`), { code, syscall });

const folderCalls = (): { calls: StoreCalls; seen: FailedCall[] } => {
  const seen: FailedCall[] = [];
  const calls = new StoreCalls(
    'MyStore',
    unavailableAt((call) => {
      seen.push(call);
      return { api: `MyStore.${call.method}`, store: 'MyStore', id: call.id, writes: call.writes };
    }),
  );
  return { calls, seen };
};

describe('StoreCalls: the closed-store guard', () => {
  it('opens a call as `Store.method`; after close() each call rejects before its task runs', async () => {
    const { calls } = folderCalls();
    expect(calls.open('load').api).toBe('MyStore.load');
    expect(calls.closed).toBe(false);
    expect(calls.close()).toBe(true);
    expect(calls.close()).toBe(false);
    expect(calls.closed).toBe(true);
    let ran = false;
    for (const run of [calls.run.bind(calls), calls.write.bind(calls)]) {
      const error = await rejection(
        run('save', { id: 's1' }, async () => {
          ran = true;
        }),
      );
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toBe(
        '[conversation-memory] MyStore.save: the store is closed',
      );
    }
    expect(ran).toBe(false);
    expect(() => calls.open('list')).toThrow(
      '[conversation-memory] MyStore.list: the store is closed',
    );
  });

  it("a call's stillOpen rejects once the store closed during the call", async () => {
    const { calls } = folderCalls();
    const error = await rejection(
      calls.run('load', {}, async ({ stillOpen }) => {
        calls.close();
        stillOpen();
      }),
    );
    expect((error as Error).message).toBe(
      '[conversation-memory] MyStore.load: the store is closed',
    );
  });
});

describe('StoreCalls: failures', () => {
  it.each([
    { method: 'run', code: 'EACCES', syscall: 'open', writes: false, mayHaveWritten: false },
    { method: 'run', code: 'ENOSPC', syscall: 'fsync', writes: false, mayHaveWritten: false },
    { method: 'write', code: 'EACCES', syscall: 'open', writes: true, mayHaveWritten: false },
    { method: 'write', code: 'EIO', syscall: 'fsync', writes: true, mayHaveWritten: true },
  ] as const)(
    '$method: $code in $syscall is StoreUnavailableError naming the call (writes: $writes)',
    async ({ method, code, syscall, writes, mayHaveWritten }) => {
      const { calls, seen } = folderCalls();
      const cause = fsError(code, syscall);
      const error = await rejection(
        calls[method]('save', { id: 's1', options: { namespace: 'n' } }, async () => {
          throw cause;
        }),
      );
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({ store: 'MyStore', id: 's1', mayHaveWritten });
      expect((error as Error).cause).toBe(cause);
      expect((error as Error).message).toMatch(/^\[conversation-memory\] MyStore\.save: /);
      expect(seen).toEqual([{ method: 'save', id: 's1', options: { namespace: 'n' }, writes }]);
    },
  );

  it("our own errors and bugs pass as they are, through each backend's failure", async () => {
    const own = new SessionConflictError('MyStore.save', 's1', 0, 1);
    const bug = new TypeError('a bug');
    for (const calls of [folderCalls().calls, new StoreCalls('MyStore', namingTheId)]) {
      for (const thrown of [own, bug]) {
        const error = await rejection(
          calls.write('save', { id: 's1' }, async () => {
            throw thrown;
          }),
        );
        expect(error).toBe(thrown);
      }
    }
  });

  it("namingTheId: a connection's StoreUnavailableError gets the call's id, a listing's none", async () => {
    const calls = new StoreCalls('RedisSessionStore', namingTheId);
    const lost = new StoreUnavailableError(
      'RedisSessionStore.load',
      'the server is unreachable',
      false,
    );
    const named = await rejection(
      calls.run('load', { id: 's1' }, async () => {
        throw lost;
      }),
    );
    expect(named).toBeInstanceOf(StoreUnavailableError);
    expect(named).toMatchObject({ id: 's1' });
    expect((named as Error).message).toContain('id "s1"');
    const listed = await rejection(
      calls.run('list', {}, async () => {
        throw lost;
      }),
    );
    expect(listed).toBe(lost);
    expect(calls.failed(lost, 'read', { id: 's2' })).toMatchObject({ id: 's2' });
  });

  it('sqliteStoreCalls: a damaged database is the record’s corrupt-record error, keyed by the namespace', async () => {
    const place = {
      store: 'SqliteSessionStore',
      path: '/nowhere/sessions.db',
      label: 'session database',
      corrupt: (api: string, key: string, problem: string, cause: unknown) =>
        new SessionCorruptError(api, key, `sqlite:/nowhere/sessions.db#${key}`, [problem], {
          cause,
        }),
    };
    const calls = sqliteStoreCalls(place);
    const damaged = Object.assign(new Error('database disk image is malformed'), {
      code: 'SQLITE_CORRUPT',
    });
    const error = await rejection(
      calls.run('load', { id: 's1', options: { namespace: 'u1' } }, async () => {
        throw damaged;
      }),
    );
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect(error).toMatchObject({ sessionId: 'u1:s1' });
    expect((error as Error).message).toMatch(/^\[conversation-memory\] SqliteSessionStore\.load: /);
    expect((error as Error).cause).toBe(damaged);
    const listing = await rejection(
      calls.run('list', {}, async () => {
        throw damaged;
      }),
    );
    expect(listing).toBeInstanceOf(StoreUnavailableError);
    expect(sqliteFailurePlace(place, { method: 'save', id: 's1', writes: true })).toMatchObject({
      api: 'SqliteSessionStore.save',
      store: 'SqliteSessionStore',
      id: 's1',
      writes: true,
      database: { path: '/nowhere/sessions.db', label: 'session database' },
    });
  });
});
