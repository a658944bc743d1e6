import { MemoryArgumentError } from '../errors/memoryErrors';
import { unreadable } from '../internal/unreadable';
import { unknownOption } from '../util/unknownOption';

/**
 * The session-store methods whose options {@link checkSessionOptions} knows.
 *
 * @example
 * ```ts
 * const method: SessionMethod = 'save';
 * ```
 */
export type SessionMethod = 'save' | 'branch' | 'load' | 'exists' | 'delete' | 'search';

/**
 * The event-store methods whose options {@link checkEventOptions} knows.
 *
 * @example
 * ```ts
 * const method: EventMethod = 'append';
 * ```
 */
export type EventMethod = 'append' | 'read' | 'load' | 'streams' | 'delete' | 'subscribe';

/** The options each `SessionStore` method reads. */
const SESSION_METHOD_OPTIONS = {
  save: ['namespace', 'expectedRevision'],
  branch: ['namespace', 'expectedRevision'],
  load: ['namespace'],
  exists: ['namespace'],
  delete: ['namespace'],
  search: ['namespace', 'limit'],
} as const satisfies Record<SessionMethod, readonly string[]>;

/** The options each `EventStore` method reads (`subscribe`: the Redis store's). */
const EVENT_METHOD_OPTIONS = {
  append: ['namespace', 'expectedVersion', 'config'],
  read: ['namespace', 'fromVersion', 'toVersion'],
  load: ['namespace', 'atVersion'],
  streams: ['namespace'],
  delete: ['namespace'],
  subscribe: ['namespace', 'onError'],
} as const satisfies Record<EventMethod, readonly string[]>;

/** Names a caller may use for an option, from other stores' APIs. */
const HINTS: Readonly<Record<string, string>> = {
  ns: 'namespace',
  revision: 'expectedRevision',
  version: 'expectedVersion',
  from: 'fromVersion',
  to: 'toVersion',
  at: 'atVersion',
};

const refuseUnknown = (options: unknown, known: readonly string[], api: string): void => {
  if (typeof options !== 'object' || options === null) return;
  let problem: string | undefined;
  try {
    problem = unknownOption(options, known, 'options', HINTS);
  } catch (error) {
    // A revoked Proxy, an `ownKeys` trap that throws: ours, with the caller's error as `cause`.
    throw unreadable(error, MemoryArgumentError, api, 'options');
  }
  if (problem !== undefined) throw new MemoryArgumentError(api, problem);
};

/**
 * Refuses a `SessionStore` method's options that hold a key the method does not read: a
 * misspelled `{ expectedrevision: 3 }` would save without the revision check, `{ namespce }` into
 * the wrong namespace. Options that are not an object are left to the other checks
 * (`sessionKeyOf` names them). Every store calls it first in each method; a custom store should
 * too.
 *
 * @param options - the options as given
 * @param method - the method called
 * @param api - the calling method, for the error
 * @throws MemoryArgumentError naming the key, with a did-you-mean, or for options whose keys
 *   cannot be listed (a revoked Proxy), with the error as `cause`
 * @example
 * ```ts
 * checkSessionOptions({ namespace: 'u1', expectedRevision: 2 }, 'save', 'MyStore.save'); // ok
 * checkSessionOptions({ expectedrevision: 2 }, 'save', 'MyStore.save');
 * // MemoryArgumentError: MyStore.save: options.expectedrevision is not an option (did you mean expectedRevision?); …
 * ```
 */
export const checkSessionOptions = (options: unknown, method: SessionMethod, api: string): void =>
  refuseUnknown(options, SESSION_METHOD_OPTIONS[method], api);

/**
 * Refuses an `EventStore` method's options that hold a key the method does not read (a
 * misspelled `{ atversion: 3 }` would load the head instead of version 3). Options that are not
 * an object are left to the other checks. Every store calls it first in each method (`append`
 * through `checkAppend`); a custom store should too.
 *
 * @param options - the options as given
 * @param method - the method called
 * @param api - the calling method, for the error
 * @throws MemoryArgumentError naming the key, with a did-you-mean, or for options whose keys
 *   cannot be listed (a revoked Proxy), with the error as `cause`
 * @example
 * ```ts
 * checkEventOptions({ atVersion: 3 }, 'load', 'MyStore.load'); // ok
 * checkEventOptions({ atversion: 3 }, 'load', 'MyStore.load');
 * // MemoryArgumentError: MyStore.load: options.atversion is not an option (did you mean atVersion?); …
 * ```
 */
export const checkEventOptions = (options: unknown, method: EventMethod, api: string): void =>
  refuseUnknown(options, EVENT_METHOD_OPTIONS[method], api);
