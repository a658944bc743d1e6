/**
 * `conversation-memory/node`: every Node-only store. The session stores on JSON files, SQLite,
 * Redis and PostgreSQL implement the root entry's `SessionStore` and pass one conformance suite;
 * the event stores on SQLite, Redis and PostgreSQL implement `EventStore` and pass another, and
 * the knowledge stores on SQLite, Redis and PostgreSQL implement `KnowledgeStore`. They are built
 * on `conversation-memory/store-kit`. (`conversation-memory/sessions/node` is this entry's former
 * name, an alias until 1.0.)
 *
 * @packageDocumentation
 * @module conversation-memory/node
 */
export {
  JsonFileSessionStore,
  type JsonFileSessionStoreOptions,
} from '../../node/jsonFile/sessionStore';
export {
  RedisSessionStore,
  type RedisClusterClient,
  type RedisClusterOptions,
  type RedisSessionClient,
  type RedisSessionStoreOptions,
} from '../../node/redis/sessionStore';
export { SqliteSessionStore, type SqliteSessionStoreOptions } from '../../node/sqlite/sessionStore';
export { SqliteEventStore, type SqliteEventStoreOptions } from '../../node/sqlite/eventStore';
export {
  RedisEventStore,
  type RedisEventClient,
  type RedisEventStoreOptions,
  type StreamListener,
  type SubscribeOptions,
  type Unsubscribe,
} from '../../node/redis/eventStore';
export {
  SqliteKnowledgeStore,
  type SqliteKnowledgeStoreOptions,
} from '../../node/sqlite/knowledgeStore';
export {
  RedisKnowledgeStore,
  DEFAULT_REDIS_KNOWLEDGE_PREFIX,
  type RedisKnowledgeStoreOptions,
} from '../../node/redis/knowledgeStore';
export {
  PostgresSessionStore,
  DEFAULT_POSTGRES_SCHEMA,
  type PostgresConnectionOptions,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQuery,
  type PostgresResult,
  type PostgresSessionStoreOptions,
} from '../../node/postgres/sessionStore';
export {
  PostgresEventStore,
  type PostgresEventStoreOptions,
  type PostgresStreamListener,
  type PostgresSubscribeOptions,
} from '../../node/postgres/eventStore';
export {
  PostgresKnowledgeStore,
  type PostgresKnowledgeStoreOptions,
} from '../../node/postgres/knowledgeStore';
export {
  RedisUIMessageStreamStore,
  type RedisUIMessageStreamStoreOptions,
} from '../../node/redis/uiMessageStreamStore';
