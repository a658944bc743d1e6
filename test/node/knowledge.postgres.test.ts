/**
 * PostgresKnowledgeStore against a real PostgreSQL that this file starts: the knowledge-store
 * conformance suite, with a second writer on its own pool and records damaged by hand.
 */
import type { KnowledgeStore } from 'conversation-memory/knowledge';
import { PostgresKnowledgeStore } from 'conversation-memory/node';
import { knowledgeStoreConformance } from 'conversation-memory/store-kit/testing';
import { usePostgres } from '../support/usePostgres';

const db = usePostgres('cm_knowledge_');

const schemaOf = (store: KnowledgeStore): string => (store as PostgresKnowledgeStore).schema;

knowledgeStoreConformance('PostgresKnowledgeStore', {
  make: async (options) =>
    new PostgresKnowledgeStore({ pool: db.admin, schema: db.freshSchema(), ...options }),
  sibling: async (store) =>
    new PostgresKnowledgeStore({ connectionString: db.server.url, schema: schemaOf(store) }),
  corrupt: async (store, key, how) => {
    const json = how === 'json' ? '{not json' : '{"entries": 5}';
    const result = await db.admin.query(
      `UPDATE "${schemaOf(store)}".knowledge SET state_json = $2 WHERE record_key = $1`,
      [key, json],
    );
    if (result.rowCount !== 1) throw new Error(`no record ${key} to damage`);
  },
  asideCount: async (store) => (store as PostgresKnowledgeStore).asideCount(),
});
