import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { unknownOption } from '../util/unknownOption';
import { unreadable } from './unreadable';

/**
 * A caller's options object, read once into a plain object of the fields it gives: its own
 * enumerable keys are listed, and each known one is read once (inherited keys are never read, as
 * with `createMemory`'s config), so the checks that follow work on the copy and a getter cannot
 * show them one value and the work another. `undefined` reads as no options (`{}`).
 *
 * Throws `MemoryArgumentError` for a value that is not an object (an array included), for a key
 * that is not one of `known` (with a did-you-mean), and for an object that cannot be read (a
 * getter or a Proxy trap that throws, a revoked Proxy): `options could not be read: …`, with the
 * original error as `cause`, as `fromDict` reports its options. Never the caller's own error.
 *
 * @param options - the options as given
 * @param known - the options the call reads
 * @param api - the public call, for the errors
 * @param example - how the options look, for the error of a value that is not an object
 * @param hints - names a caller may use for an option (`ttl` → `defaultTtl`), for the
 *   did-you-mean
 * @returns the known fields given, in a new plain object
 * @example
 * ```ts
 * const given = { snapshotEvery: 64 };
 * readOptionFields(given, ['snapshotEvery'], 'createEventLog', '{ snapshotEvery: 64 }');
 * // { snapshotEvery: 64 }
 * ```
 * @internal
 */
export const readOptionFields = <K extends string>(
  options: unknown,
  known: readonly K[],
  api: string,
  example: string,
  hints?: Readonly<Record<string, string>>,
): Partial<Record<K, unknown>> => {
  if (options === undefined) return {};
  try {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw new MemoryArgumentError(
        api,
        `options must be an object such as ${example}, received ${describeValue(options)}`,
      );
    }
    const unknown = unknownOption(options, known, 'options', hints);
    if (unknown !== undefined) throw new MemoryArgumentError(api, unknown);
    const fields: Partial<Record<K, unknown>> = {};
    for (const key of Object.keys(options)) {
      // Known keys only, even from a Proxy that lists other keys the second time it is asked.
      if ((known as readonly string[]).includes(key)) {
        fields[key as K] = (options as Record<string, unknown>)[key];
      }
    }
    return fields;
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, 'options');
  }
};
