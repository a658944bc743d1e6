import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from 'conversation-memory';

describe('StoreUnavailableError.forId', () => {
  const cause = new Error('ECONNRESET');

  it('is the same failure about the id: every field kept, the id in the field and the message', () => {
    for (const [mayHaveWritten, remedy] of [
      [false, undefined],
      [true, undefined],
      [false, 'create the folder'],
    ] as const) {
      const failure = new StoreUnavailableError(
        'MyStore.load',
        'the server is unreachable',
        mayHaveWritten,
        {
          cause,
          ...(remedy === undefined ? {} : { remedy }),
        },
      );
      const named = failure.forId('thread "7"\n');
      expect(named).not.toBe(failure);
      expect(named).toBeInstanceOf(StoreUnavailableError);
      expect(named).toMatchObject({
        code: 'CM_STORE_UNAVAILABLE',
        id: 'thread "7"\n',
        store: 'MyStore',
        mayHaveWritten,
        transient: remedy === undefined,
        cause,
      });
      expect(named.message).toBe(
        failure.message.replace(
          'the server is unreachable',
          'the server is unreachable, id "thread \\"7\\"\\n"',
        ),
      );
      expect(failure.id).toBeUndefined();
    }
  });

  it('returns an error that names an id already as it is', () => {
    const failure = new StoreUnavailableError('MyStore.load', 'down', false, { id: 'a' });
    expect(failure.message).toContain(', id "a"');
    expect(failure.forId('b')).toBe(failure);
  });
});
