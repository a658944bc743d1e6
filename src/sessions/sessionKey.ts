import { SessionIdError } from '../errors/sessionErrors';
import { codePointLength } from '../internal/codePoints';
import { describeValue } from '../internal/describeValue';

/**
 * The longest id or namespace, in characters (code points), as in the reference.
 *
 * @example
 * ```ts
 * MAX_SESSION_ID_LENGTH; // 512
 * ```
 */
export const MAX_SESSION_ID_LENGTH = 512;

const check = (api: string, field: 'sessionId' | 'namespace', value: unknown): string => {
  if (typeof value !== 'string') {
    throw new SessionIdError(
      api,
      field,
      `${field} must be a string, received ${describeValue(value)}`,
    );
  }
  if (value === '') {
    throw new SessionIdError(
      api,
      field,
      field === 'sessionId'
        ? 'sessionId must not be empty'
        : 'namespace must not be empty when provided',
    );
  }
  if (value.includes('\u0000')) {
    throw new SessionIdError(
      api,
      field,
      `${field} must not contain null bytes: ${describeValue(value)}`,
    );
  }
  const length = codePointLength(value);
  if (length > MAX_SESSION_ID_LENGTH) {
    throw new SessionIdError(
      api,
      field,
      `${field} too long (${length} chars, max ${MAX_SESSION_ID_LENGTH}): ${describeValue(value)}`,
    );
  }
  return value;
};

/**
 * A validated session address: the id, the namespace (or `undefined`), and the stored key
 * (`ns:id`, or the bare id), as the reference builds it.
 *
 * @example
 * ```ts
 * const where: SessionKey = sessionKeyOf('s1', { namespace: 'u1' }); // { id: 's1', namespace: 'u1', key: 'u1:s1' }
 * ```
 */
export interface SessionKey {
  readonly id: string;
  readonly namespace: string | undefined;
  readonly key: string;
}

/**
 * Validates an id and an optional namespace with the reference's rules (not empty, no null byte,
 * at most 512 characters; a namespace of `''` is refused too) and builds the stored key. Every
 * store calls it first; a custom store should too.
 *
 * @param sessionId - the id as given
 * @param options - the options as given (only `namespace` is read, once)
 * @param api - the calling method, for the error
 * @throws SessionIdError naming the field and the value
 * @example
 * ```ts
 * sessionKeyOf('s1').key; // 's1'
 * sessionKeyOf('s1', { namespace: 'u1' }).key; // 'u1:s1'
 * sessionKeyOf(''); // throws SessionIdError: sessionId must not be empty
 * ```
 */
export const sessionKeyOf = (
  sessionId: unknown,
  options?: unknown,
  api = 'sessionKeyOf',
): SessionKey => {
  const id = check(api, 'sessionId', sessionId);
  let namespace: unknown;
  if (options !== undefined && options !== null) {
    if (typeof options !== 'object') {
      throw new SessionIdError(
        api,
        'namespace',
        `options must be an object, received ${describeValue(options)}`,
      );
    }
    namespace = (options as { namespace?: unknown }).namespace;
  }
  if (namespace === undefined || namespace === null) return { id, namespace: undefined, key: id };
  const ns = check(api, 'namespace', namespace);
  return { id, namespace: ns, key: `${ns}:${id}` };
};

/**
 * Validates a namespace alone (as `search` takes it): `undefined` when none was given.
 *
 * @example
 * ```ts
 * namespaceOf(undefined); // undefined
 * namespaceOf('u1'); // 'u1'
 * ```
 */
export const namespaceOf = (namespace: unknown, api = 'namespaceOf'): string | undefined =>
  namespace === undefined || namespace === null ? undefined : check(api, 'namespace', namespace);
