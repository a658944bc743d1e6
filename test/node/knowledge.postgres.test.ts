/**
 * PostgresKnowledgeStore against a real PostgreSQL that this file starts: the knowledge-store
 * conformance suite, with a second writer on its own pool and records damaged by hand.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { KnowledgeStore } from 'conversation-memory/knowledge';
import { PostgresKnowledgeStore } from 'conversation-memory/node';
import { knowledgeStoreConformance } from 'conversation-memory/store-kit/testing';
import { type PostgresTestServer, startPostgresServer } from '../support/postgresServer';

let server: PostgresTestServer;
let admin: pg.Pool;
let counter = 0;

beforeAll(async () => {
  server = await startPostgresServer();
  admin = new pg.Pool({ connectionString: server.url, max: 4 });
  admin.on('error', () => undefined);
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

const schemaOf = (store: KnowledgeStore): string => (store as PostgresKnowledgeStore).schema;

knowledgeStoreConformance('PostgresKnowledgeStore', {
  make: async (options) =>
    new PostgresKnowledgeStore({ pool: admin, schema: `cm_knowledge_${++counter}`, ...options }),
  sibling: async (store) =>
    new PostgresKnowledgeStore({ connectionString: server.url, schema: schemaOf(store) }),
  corrupt: async (store, key, how) => {
    const json = how === 'json' ? '{not json' : '{"entries": 5}';
    const result = await admin.query(
      `UPDATE "${schemaOf(store)}".knowledge SET state_json = $2 WHERE record_key = $1`,
      [key, json],
    );
    if (result.rowCount !== 1) throw new Error(`no record ${key} to damage`);
  },
  asideCount: async (store) => (store as PostgresKnowledgeStore).asideCount(),
});
