/**
 * `conversation-memory/sessions/node`: the Node-only session stores, on JSON files, SQLite and
 * Redis. Each implements the root entry's `SessionStore` and passes the same conformance suite.
 *
 * @packageDocumentation
 */
export {
  JsonFileSessionStore,
  type JsonFileSessionStoreOptions,
} from './jsonFile/JsonFileSessionStore';
export {
  RedisSessionStore,
  type RedisClusterClient,
  type RedisClusterOptions,
  type RedisSessionClient,
  type RedisSessionStoreOptions,
} from './redis/RedisSessionStore';
export { SqliteSessionStore, type SqliteSessionStoreOptions } from './sqlite/SqliteSessionStore';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite/SqliteEventStore';
export {
  RedisEventStore,
  type RedisEventClient,
  type RedisEventStoreOptions,
  type StreamListener,
  type SubscribeOptions,
  type Unsubscribe,
} from './redis/RedisEventStore';
