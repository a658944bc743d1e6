import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { unknownOption } from '../util/unknownOption';
import { unreadable } from './unreadable';

/** A class of our errors that takes `(api, what, { cause })`. */
type ErrorClass = new (api: string, what: string, options?: { cause?: unknown }) => Error;

/** One field, read once; a read that throws names the field (`options.name could not be read`). */
const readField = (
  options: object,
  key: string,
  api: string,
  field: string,
  ErrorClass: ErrorClass,
): unknown => {
  try {
    return (options as Record<string, unknown>)[key];
  } catch (error) {
    throw unreadable(error, ErrorClass, api, field);
  }
};

/**
 * A caller's options object, read once into a plain object of the fields it gives: its own
 * enumerable keys are listed, and each known one is read once (inherited keys are never read, as
 * with `createMemory`'s config), so the checks that follow work on the copy and a getter cannot
 * show them one value and the work another. `undefined` reads as no options (`{}`).
 *
 * Throws (a `MemoryArgumentError`, or `how.error`) for a value that is not an object (an array
 * included), for a key that is not one of `known` (with a did-you-mean), and for an object that
 * cannot be read (a getter or a Proxy trap that throws, a revoked Proxy): `options could not be
 * read: …` (`options.name could not be read: …` when reading one field threw), with the original
 * error as `cause`, as `fromDict` reports its options; never the caller's own error. Nothing of
 * the options is read after it returns, so a call that reads its options with it first refuses
 * hostile options before it writes anything.
 *
 * For the authors of custom stores and providers: the stores at `conversation-memory/node` and
 * the provider adapters read their options with it.
 *
 * @param options - the options as given
 * @param known - the options the call reads
 * @param api - the public call, for the errors
 * @param how - `example`, how the options look (for the error of a value that is not an object);
 *   `hints`, names a caller may use for an option (`ttl` → `defaultTtl`), for the did-you-mean;
 *   `where`, the name of the options in the errors (default `'options'`); `error`, the class the
 *   call throws for its options (default `MemoryArgumentError`; any class that takes
 *   `(api, what, { cause })`)
 * @returns the known fields given, in a new plain object
 * @throws MemoryArgumentError (or `how.error`) naming the call and the option
 * @example
 * ```ts
 * const given = readOptionFields({ snapshotEvery: 64 }, ['snapshotEvery'], 'MyStore', {
 *   example: '{ snapshotEvery: 64 }',
 * });
 * given.snapshotEvery; // 64
 * ```
 */
export const readOptionFields = <K extends string>(
  options: unknown,
  known: readonly K[],
  api: string,
  how: {
    readonly example?: string;
    readonly hints?: Readonly<Record<string, string>>;
    readonly where?: string;
    readonly error?: new (api: string, what: string, options?: { cause?: unknown }) => Error;
  } = {},
): Partial<Record<K, unknown>> => {
  if (options === undefined) return {};
  const { example, hints, where = 'options', error: ErrorClass = MemoryArgumentError } = how;
  try {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      const such = example === undefined ? '' : ` such as ${example}`;
      throw new ErrorClass(
        api,
        `${where} must be an object${such}, received ${describeValue(options)}`,
      );
    }
    const unknown = unknownOption(options, known, where, hints);
    if (unknown !== undefined) throw new ErrorClass(api, unknown);
    const fields: Partial<Record<K, unknown>> = {};
    for (const key of Object.keys(options)) {
      // Known keys only, even from a Proxy that lists other keys the second time it is asked.
      if ((known as readonly string[]).includes(key)) {
        fields[key as K] = readField(options, key, api, `${where}.${key}`, ErrorClass);
      }
    }
    return fields;
  } catch (error) {
    throw unreadable(error, ErrorClass, api, where);
  }
};
