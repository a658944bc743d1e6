import { describeValue, readOptionFields } from 'conversation-memory/store-kit';

/** A class of our errors that takes `(api, what, { cause })`. */
type OptionsErrorClass = new (api: string, what: string, options?: { cause?: unknown }) => Error;

/** How an adapter's call reads its options. */
export interface AdapterOptionsHow {
  /** How the options look, for the error of a value that is not an object (`{ client }`). */
  readonly example: string;
  /** The class the call throws for its options (`AgentConfigError` for the provider factories). */
  readonly error: OptionsErrorClass;
  /** `true` when the call has no default for its options, so `undefined` is refused too. */
  readonly required?: boolean;
  /** Names a caller may use for an option (`model` → `defaultModel`), for the did-you-mean. */
  readonly hints?: Readonly<Record<string, string>>;
  /** The options' name in the errors (default `options`). */
  readonly where?: string;
}

/**
 * What a value that is not an options object is, for the error: as `describeValue` says, except
 * that a string's text is never echoed (an API key passed in place of `{ client }` must not
 * reach a log).
 */
const notAnObject = (value: unknown): string =>
  typeof value === 'string'
    ? value === ''
      ? 'an empty string'
      : 'a string'
    : describeValue(value);

/**
 * Reads an adapter call's options (every adapter: the provider factories, the embedder, the
 * observer, the Redux slice, the Zustand store): a value that is not an object (an array, `null`,
 * a string, a function, `undefined` when `how.required`) is refused with the one error every
 * adapter gives, of the call's class for its options, `options must be an object such as
 * <example>, received <what it is>`; then the object is read once with `readOptionFields`
 * (an unknown key and options that cannot be read are refused, with the same class).
 *
 * @param options - what the caller passed
 * @param known - the options the call reads
 * @param api - the public call, for the errors
 * @param how - the example, the error class, whether options are required, the hints
 * @returns the known fields given, in a new plain object (`{}` for `undefined` when optional)
 * @throws `how.error` naming the call, the options and the value received
 * @example
 * ```ts
 * const given = readAdapterOptions(options, ['client', 'name'], 'openaiProvider', {
 *   example: '{ client }',
 *   error: AgentConfigError,
 *   required: true,
 * });
 * ```
 * @internal
 */
export const readAdapterOptions = <K extends string>(
  options: unknown,
  known: readonly K[],
  api: string,
  how: AdapterOptionsHow,
): Partial<Record<K, unknown>> => {
  checkAdapterOptions(options, api, how);
  const { example, error, hints, where } = how;
  return readOptionFields(options, known, api, {
    example,
    error,
    ...(hints === undefined ? {} : { hints }),
    ...(where === undefined ? {} : { where }),
  });
};

/**
 * The first half of {@link readAdapterOptions}, for a call whose options are read by another
 * check (a memory config, read by `createMemory`): throws when `options` is not an object.
 *
 * @param options - what the caller passed
 * @param api - the public call, for the error
 * @param how - the example, the error class, whether options are required
 * @throws `how.error` naming the call, the options and the value received
 * @example
 * ```ts
 * checkAdapterOptions(memoryOptions, 'createMemoryStore', { example: '{ maxMessages: 50 }', error: MemoryConfigError });
 * ```
 * @internal
 */
export const checkAdapterOptions = (
  options: unknown,
  api: string,
  how: Pick<AdapterOptionsHow, 'example' | 'error' | 'required' | 'where'>,
): void => {
  if (options === undefined && how.required !== true) return;
  // Neither reads the value: a Proxy's traps are not run here (`Array.isArray` of a revoked
  // Proxy throws, and `readOptionFields` reports that as options that cannot be read).
  let isObject: boolean;
  try {
    isObject = typeof options === 'object' && options !== null && !Array.isArray(options);
  } catch {
    return;
  }
  if (!isObject) {
    throw new how.error(
      api,
      `${how.where ?? 'options'} must be an object such as ${how.example}, received ${notAnObject(options)}`,
    );
  }
};
