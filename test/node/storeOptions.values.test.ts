import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryArgumentError } from 'conversation-memory';
import {
  JsonFileSessionStore,
  RedisEventStore,
  RedisKnowledgeStore,
  RedisSessionStore,
  SqliteEventStore,
  SqliteKnowledgeStore,
  SqliteSessionStore,
} from 'conversation-memory/node';

/**
 * Values whose `String(value)` throws or says nothing useful: a Node store's option error must
 * still be a `MemoryArgumentError` that names the option and describes the value (never a bare
 * `TypeError: Cannot convert object to primitive value` from building the message).
 */
const HOSTILE: readonly [string, () => unknown, RegExp][] = [
  ['an object without a prototype', () => Object.create(null), /received an object\b/],
  [
    'an object whose toString throws',
    () => ({
      toString() {
        throw new Error('no');
      },
    }),
    /received an object\b/,
  ],
  ['a symbol', () => Symbol('x'), /received a symbol\b/],
  ['a string', () => 'soon', /received "soon"/],
];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-option-values-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const dir = () => fs.mkdtempSync(path.join(work, 'd-'));
const db = () => path.join(dir(), 'x.db');
/** Nothing listens here: the constructors check their options before any connection. */
const url = 'redis://127.0.0.1:1';

/** Each Node store's constructor and the number options it checks. */
const OPTIONS: readonly [string, string, (value: unknown) => unknown][] = [
  [
    'JsonFileSessionStore',
    'lockWaitMs',
    (v) => new JsonFileSessionStore({ directory: dir(), lockWaitMs: v as number }),
  ],
  [
    'JsonFileSessionStore',
    'staleLockMs',
    (v) => new JsonFileSessionStore({ directory: dir(), staleLockMs: v as number }),
  ],
  [
    'SqliteSessionStore',
    'lockTimeoutMs',
    (v) => new SqliteSessionStore({ path: db(), lockTimeoutMs: v as number }),
  ],
  [
    'SqliteEventStore',
    'lockTimeoutMs',
    (v) => new SqliteEventStore({ path: db(), lockTimeoutMs: v as number }),
  ],
  [
    'SqliteKnowledgeStore',
    'lockTimeoutMs',
    (v) => new SqliteKnowledgeStore({ path: db(), lockTimeoutMs: v as number }),
  ],
  [
    'RedisSessionStore',
    'commandTimeoutMs',
    (v) => new RedisSessionStore({ url, commandTimeoutMs: v as number }),
  ],
  [
    'RedisSessionStore',
    'minReplicas',
    (v) => new RedisSessionStore({ url, minReplicas: v as number }),
  ],
  [
    'RedisEventStore',
    'commandTimeoutMs',
    (v) => new RedisEventStore({ url, commandTimeoutMs: v as number }),
  ],
  [
    'RedisKnowledgeStore',
    'minReplicas',
    (v) => new RedisKnowledgeStore({ url, minReplicas: v as number }),
  ],
];

const CASES = OPTIONS.flatMap(([store, option, make]) =>
  HOSTILE.map(([kind, value, described]) => [store, option, kind, make, value, described] as const),
);

describe('Node stores: a bad option value is described, whatever it is', () => {
  it.each(CASES)('%s options.%s = %s', (store, option, _kind, make, value, described) => {
    let thrown: unknown;
    try {
      make(value());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MemoryArgumentError);
    const { message } = thrown as Error;
    expect(message).toMatch(
      new RegExp(`^\\[conversation-memory\\] ${store}: options\\.${option} must be `),
    );
    expect(message).toMatch(described);
  });

  it.each(HOSTILE)("RedisEventStore.subscribe's fromVersion = %s", (_kind, value, described) => {
    const store = new RedisEventStore({ url });
    try {
      expect(() => store.subscribe('s1', value() as number, () => undefined)).toThrow(
        MemoryArgumentError,
      );
      expect(() => store.subscribe('s1', value() as number, () => undefined)).toThrow(described);
    } finally {
      void store.close();
    }
  });
});
