import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryArgumentError } from 'conversation-memory';
import { sessionKeyOf } from 'conversation-memory/store-kit';
import { RedisEventStore, RedisSessionStore } from 'conversation-memory/node';
// node-redis's own slot function (vendored cluster-key-slot, patched to match Redis on `{}`): an
// oracle independent of the layout under test.
import calculateSlot from '@redis/client/dist/lib/utils/calculate-slot';
import {
  checkRedisPrefix,
  redisEventKeyLayout,
  redisHashTag,
  redisKeyLayout,
} from '../../src/node/redis/schema';

/** Text rich in what matters here: braces, `%` escapes, `:`, glob characters, a few letters. */
const tricky = (maxLength: number) =>
  fc.string({
    unit: fc.constantFrom(
      '{',
      '}',
      '%',
      '7',
      'D',
      '2',
      '5',
      ':',
      '*',
      '?',
      '[',
      ']',
      '\\',
      'a',
      'é',
      '😀',
    ),
    maxLength,
  });

/** A prefix the stores accept: anything but `{}` at its first `{`. */
const prefixArb = tricky(6).filter((prefix) => {
  const open = prefix.indexOf('{');
  return open < 0 || prefix[open + 1] !== '}';
});

/** A storage key, as `sessionKeyOf` makes it from an id and an optional namespace. */
const keyArb = fc
  .tuple(
    tricky(6).filter((id) => id !== ''),
    fc.option(tricky(4).filter((ns) => ns !== '')),
  )
  .map(([id, namespace]) => sessionKeyOf(id, { namespace }).key);

/** Every key one session or one stream uses, under `prefix`. */
const keysOf = (prefix: string, key: string): { session: string[]; stream: string[] } => {
  const sessions = redisKeyLayout(prefix);
  const events = redisEventKeyLayout(prefix);
  return {
    session: [sessions.session(key), sessions.aside(key, 1_764_500_000.5, 'a1b2c3d4')],
    stream: [events.stream(key), events.meta(key), events.snapshots(key)],
  };
};

/** Redis's glob (`SCAN … MATCH`) for the patterns the layout makes: `\x` literal, `*` any run. */
const globMatches = (pattern: string, name: string): boolean => {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') source += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '*') source += '[\\s\\S]*';
    else if ('?[]'.includes(c)) throw new Error(`unescaped ${c} in ${pattern}`);
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u').test(name);
};

describe('Redis key layout: one slot per session, nothing shared between sessions', () => {
  it('every key of a session (hash, aside) and of a stream (stream, meta, snapshots) is in one slot, whatever the prefix, id and namespace', () => {
    fc.assert(
      fc.property(prefixArb, keyArb, (prefix, key) => {
        const { session, stream } = keysOf(prefix, key);
        const slot = calculateSlot(session[0] as string);
        for (const name of [...session, ...stream]) expect(calculateSlot(name)).toBe(slot);
      }),
      { numRuns: 500 },
    );
  });

  it('without braces in the prefix, the slot is the hash tag of the storage key alone (sessions spread)', () => {
    fc.assert(
      fc.property(
        prefixArb.filter((prefix) => !prefix.includes('{')),
        keyArb,
        (prefix, key) => {
          const slot = calculateSlot(redisHashTag(key));
          for (const name of Object.values(keysOf(prefix, key)).flat()) {
            expect(calculateSlot(name)).toBe(slot);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keys are injective: each name parses back to its own key and family only', () => {
    fc.assert(
      fc.property(prefixArb, keyArb, keyArb, (prefix, a, b) => {
        const sessions = redisKeyLayout(prefix);
        const events = redisEventKeyLayout(prefix);
        const all = (key: string) => Object.values(keysOf(prefix, key)).flat();
        expect(sessions.sessionKeyOf(sessions.session(a))).toBe(a);
        expect(events.streamKeyOf(events.meta(a))).toBe(a);
        // No other family's key reads as a session hash or a stream's meta.
        for (const name of all(a)) {
          if (name !== sessions.session(a)) expect(sessions.sessionKeyOf(name)).toBeUndefined();
          if (name !== events.meta(a)) expect(events.streamKeyOf(name)).toBeUndefined();
        }
        // Two keys never share a name, in any family.
        if (a !== b) for (const name of all(a)) expect(all(b)).not.toContain(name);
        expect(new Set(all(a)).size).toBe(all(a).length);
      }),
      { numRuns: 500 },
    );
  });

  it('SCAN patterns match exactly the family, and the keys that start with the given start', () => {
    fc.assert(
      fc.property(prefixArb, keyArb, fc.option(tricky(3)), (prefix, key, start) => {
        const sessions = redisKeyLayout(prefix);
        const events = redisEventKeyLayout(prefix);
        const keyStart = start === null ? '' : `${start}`;
        const starts = key.startsWith(keyStart);
        const { session, stream } = keysOf(prefix, key);
        const [hash, aside] = session as [string, string];
        const [, meta] = stream as [string, string, string];
        expect(globMatches(sessions.sessionPattern(keyStart), hash)).toBe(starts);
        expect(globMatches(events.metaPattern(keyStart), meta)).toBe(starts);
        expect(globMatches(sessions.asidePattern(), aside)).toBe(true);
        for (const name of [aside, ...stream]) {
          expect(globMatches(sessions.sessionPattern(), name)).toBe(false);
        }
        for (const name of [...session, ...stream].filter((name) => name !== meta)) {
          expect(globMatches(events.metaPattern(), name)).toBe(false);
        }
        for (const name of [hash, ...stream]) {
          expect(globMatches(sessions.asidePattern(), name)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('documents the layout: the storage key as a hash tag right after the prefix', () => {
    expect(keysOf('app:', 'u1:s1')).toEqual({
      session: ['app:{u1:s1}s', 'app:{u1:s1}corrupt:1764500000.5:a1b2c3d4'],
      stream: ['app:{u1:s1}ev', 'app:{u1:s1}evc', 'app:{u1:s1}evs'],
    });
    // `%` and `}` are escaped, so the tag ends at the first `}` and two keys never share one.
    expect(redisKeyLayout('p:').session(sessionKeyOf('a}b').key)).toBe('p:{a%7Db}s');
    expect(redisKeyLayout('p:').session(sessionKeyOf('%7D').key)).toBe('p:{%25257D}s');
    expect(redisKeyLayout('p:').sessionPattern('u1:')).toBe('p:{u1:*}s');
  });
});

describe('Redis key prefix', () => {
  it('refuses a prefix with "{}" at its first "{" (Redis would hash each key whole), in both stores', () => {
    for (const prefix of ['{}', 'app{}:', 'a{}{b}:']) {
      expect(() => checkRedisPrefix(prefix, 'test')).toThrow(MemoryArgumentError);
      for (const make of [
        () => new RedisSessionStore({ url: 'redis://127.0.0.1:1', prefix }),
        () => new RedisEventStore({ url: 'redis://127.0.0.1:1', prefix }),
      ]) {
        expect(make).toThrow(MemoryArgumentError);
        expect(make).toThrow('options.prefix must not have "{}" at its first "{"');
      }
    }
    // A "{}" after another brace pair is fine: the first tag decides.
    for (const prefix of ['app{x}:{}', 'a{b', '}{', 'plain:']) {
      expect(checkRedisPrefix(prefix, 'test')).toBe(prefix);
    }
  });
});
