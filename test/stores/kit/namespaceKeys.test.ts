/**
 * `namespaceKeys`: the one filter every store lists or searches a namespace's keys with (the
 * event and knowledge stores, in memory, in SQLite and on Redis).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  namespaceKeyPrefix,
  namespaceKeys,
  parseSessionKey,
  sessionKeyOf,
} from 'conversation-memory/store-kit';

/** Ids and namespaces with the characters the key escapes (`:` and `%`), and any other. */
const part = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc
    .array(fc.constantFrom('a', 'b', ':', '%', '3A', '25', '%3A', '}'), {
      minLength: 1,
      maxLength: 6,
    })
    .map((pieces) => pieces.join('')),
);

/** A part that `sessionKeyOf` takes (no lone surrogates, not blank, not too long). */
const valid = part.filter((text) => {
  try {
    sessionKeyOf(text, { namespace: text });
    return true;
  } catch {
    return false;
  }
});

describe('namespaceKeys', () => {
  it('finds each key of its namespace, and its id, and no key of another namespace', () => {
    fc.assert(
      fc.property(valid, valid, valid, (namespace, other, id) => {
        const keys = namespaceKeys(namespace);
        const { key } = sessionKeyOf(id, { namespace });
        expect(keys.prefix).toBe(namespaceKeyPrefix(namespace));
        expect(keys.includes(key)).toBe(true);
        const rest = keys.idOf(key);
        expect(rest).toBe(key.slice(keys.prefix.length));
        expect(parseSessionKey(key)).toMatchObject({ id, namespace });
        const elsewhere = sessionKeyOf(id, { namespace: other }).key;
        expect(keys.includes(elsewhere)).toBe(other === namespace);
        expect(keys.idOf(elsewhere) === undefined).toBe(other !== namespace);
        // A key without a namespace is in none.
        const bare = sessionKeyOf(id).key;
        expect(keys.includes(bare)).toBe(false);
        expect(keys.idOf(bare)).toBeUndefined();
      }),
    );
  });

  it('without a namespace, every key is in, and its id is the whole key', () => {
    fc.assert(
      fc.property(fc.string(), (key) => {
        const keys = namespaceKeys(undefined);
        expect(keys.prefix).toBe('');
        expect(keys.includes(key)).toBe(true);
        expect(keys.idOf(key)).toBe(key);
      }),
    );
  });

  it('on any stored key (one another program wrote too), the filter the stores used before: the prefix, then the rest', () => {
    fc.assert(
      fc.property(valid, fc.oneof(part, fc.string()), (namespace, key) => {
        const prefix = namespaceKeyPrefix(namespace);
        const keys = namespaceKeys(namespace);
        expect(keys.includes(key)).toBe(key.startsWith(prefix));
        expect(keys.idOf(key)).toBe(key.startsWith(prefix) ? key.slice(prefix.length) : undefined);
      }),
    );
  });

  it.each([
    { namespace: 'u1', key: 'u1:s1', id: 's1' },
    { namespace: 'a:b', key: 'a%3Ab:s1', id: 's1' },
    { namespace: 'a:b', key: 'a:b:s1', id: undefined },
    { namespace: 'u1', key: 'u1', id: undefined },
    { namespace: 'u1', key: 'u10:s1', id: undefined },
    { namespace: 'u1', key: 'u1:a%3Ab', id: 'a%3Ab' },
  ])('$namespace, $key: $id', ({ namespace, key, id }) => {
    expect(namespaceKeys(namespace).idOf(key)).toBe(id);
    expect(namespaceKeys(namespace).includes(key)).toBe(id !== undefined);
  });
});
