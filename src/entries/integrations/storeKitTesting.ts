/**
 * `conversation-memory/store-kit/testing`: the conformance suites every store of this package
 * passes, for authors of their own stores (on MongoDB, DynamoDB, PostgreSQL, …). Each suite is a
 * function that registers Vitest tests for one store family under a `describe` named after the
 * store: call it at the top level of a test file with a factory of the store under test, and,
 * for a store that persists records, ways to damage one (each given adds the tests that use it).
 *
 * The suites are test code: they import `vitest` and `fast-check`, optional peer dependencies of
 * the package that only this entry needs (`npm install -D vitest fast-check`). No other entry
 * loads them. The suites live in the repository's `test/stores/`, where the package's own stores
 * run them.
 *
 * @example
 * ```ts
 * import { sessionStoreConformance } from 'conversation-memory/store-kit/testing';
 * import { MongoSessionStore } from '../src/MongoSessionStore';
 *
 * sessionStoreConformance('MongoSessionStore', {
 *   make: async (options) => new MongoSessionStore({ ...options, db: await freshDatabase() }),
 * });
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/store-kit/testing
 */
export {
  sessionStoreConformance,
  type SessionStoreConformanceHooks,
} from '../../../test/stores/sessionStoreConformance';
export {
  eventStoreConformance,
  type EventStoreConformanceHooks,
} from '../../../test/stores/eventStoreConformance';
export type { EventStoreMakeOptions } from '../../../test/stores/eventRetentionCases';
export {
  knowledgeStoreConformance,
  type KnowledgeStoreConformanceHooks,
} from '../../../test/stores/knowledgeStoreConformance';
export type { KnowledgeStoreMakeOptions } from '../../../test/stores/knowledgeRetentionCases';
