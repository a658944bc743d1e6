import { MemoryArgumentError } from '../errors/memoryErrors';
import { unreadable } from './unreadable';

/**
 * One field of a method's options, read once: `undefined` when the options are not an object
 * (the method's own checks name such options). A read that throws (a getter, a Proxy trap, a
 * revoked Proxy) is a `MemoryArgumentError` saying `options.<key> could not be read: …`, with the
 * caller's error as `cause`, never the caller's error itself.
 *
 * @param options - the options as given
 * @param key - the field
 * @param api - the public call, for the error
 * @returns the field's value
 * @example
 * ```ts
 * readOption({ namespace: 'u1' }, 'namespace', 'InMemoryEventStore.streams'); // 'u1'
 * ```
 * @internal
 */
export const readOption = (options: unknown, key: string, api: string): unknown => {
  if (typeof options !== 'object' || options === null) return undefined;
  try {
    return (options as Record<string, unknown>)[key];
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, `options.${key}`);
  }
};
