import { expiredSql } from './retentionSql';
import type { SchemaPart } from './schema';

/**
 * The knowledge tables and every statement the knowledge store sends, for a quoted schema `s`.
 * One row per record in `knowledge`, keyed by the kit's storage key, with the state's JSON and its
 * `md5` in `state_digest` (a row whose digest does not match was changed by someone else, and is
 * decoded before a save may replace it); damaged rows are moved to `knowledge_corrupt` by the save
 * or delete that meets them. With a TTL (`$ttl`, by the store's clock `$now`), a row more than
 * `ttl` seconds after its `updated_at` is absent to every statement here, and a save replaces it
 * as a new record (revision 1).
 */

/**
 * The knowledge part of the schema (version 1).
 *
 * @example
 * ```ts
 * await connection.ready(KNOWLEDGE_SCHEMA, 'PostgresKnowledgeStore.load');
 * ```
 */
export const KNOWLEDGE_SCHEMA: SchemaPart = {
  name: 'knowledge',
  version: 1,
  statements: (s) => [
    `CREATE TABLE IF NOT EXISTS ${s}.knowledge (
      record_key text COLLATE "C" PRIMARY KEY,
      namespace text COLLATE "C",
      record_id text COLLATE "C" NOT NULL,
      state_json text NOT NULL,
      state_digest text NOT NULL,
      revision bigint NOT NULL CHECK (revision >= 1),
      updated_at double precision NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS knowledge_namespace ON ${s}.knowledge (namespace)`,
    `CREATE TABLE IF NOT EXISTS ${s}.knowledge_corrupt (
      aside_id bigserial PRIMARY KEY,
      record_key text NOT NULL,
      namespace text,
      record_id text,
      state_json text,
      revision bigint,
      updated_at double precision,
      set_aside_at double precision NOT NULL
    )`,
  ],
};

const aside = (s: string, from: string, at: string, where: string): string =>
  `INSERT INTO ${s}.knowledge_corrupt (record_key, namespace, record_id, state_json, revision, updated_at, set_aside_at)
   SELECT record_key, namespace, record_id, state_json, revision, updated_at, ${at} FROM ${from} ${where}`;

/**
 * The statements of the knowledge store in schema `s`.
 *
 * @example
 * ```ts
 * const sql = knowledgeStatements('"conversation_memory"');
 * ```
 */
export const knowledgeStatements = (s: string) =>
  Object.freeze({
    /** `$1` key: the revision and `updated_at` only. */
    selectStamp: `SELECT revision, updated_at FROM ${s}.knowledge WHERE record_key = $1::text`,
    /** `$1` key. */
    selectRow: `SELECT record_key, namespace, record_id, state_json, revision, updated_at,
        (state_digest = md5(state_json)) AS sound FROM ${s}.knowledge WHERE record_key = $1::text`,
    /**
     * Insert, or replace a sound row (any revision for `$6` `NULL`; only an expired one for `0`):
     * `$1` key, `$2` namespace, `$3` id, `$4` state JSON, `$5` now, `$6` expected, `$7` TTL.
     * Returns the new revision (1 over an expired row).
     */
    upsert: `INSERT INTO ${s}.knowledge AS t (record_key, namespace, record_id, state_json, state_digest, revision, updated_at)
      SELECT $1::text, $2::text, $3::text, $4::text, md5($4::text), 1, $5::float8
      WHERE $6::bigint IS NULL OR $6::bigint = 0
      ON CONFLICT (record_key) DO UPDATE SET
        namespace = EXCLUDED.namespace, record_id = EXCLUDED.record_id,
        state_json = EXCLUDED.state_json, state_digest = EXCLUDED.state_digest,
        revision = CASE WHEN ${expiredSql('$5', '$7', 't')} THEN 1 ELSE t.revision + 1 END,
        updated_at = EXCLUDED.updated_at
      WHERE t.state_digest = md5(t.state_json)
        AND ($6::bigint IS NULL OR ${expiredSql('$5', '$7', 't')})
      RETURNING revision`,
    /** Replace a live, sound row of revision `$6` (≥ 1); the parameters of `upsert`. */
    update: `UPDATE ${s}.knowledge AS t SET namespace = $2::text, record_id = $3::text,
        state_json = $4::text, state_digest = md5($4::text), revision = t.revision + 1, updated_at = $5::float8
      WHERE t.record_key = $1::text AND t.state_digest = md5(t.state_json) AND t.revision = $6::bigint
        AND NOT ${expiredSql('$5', '$7', 't')}
      RETURNING revision`,
    /** Marks a row that decoded as sound: `$1` key, `$2` the state that decoded. */
    adopt: `UPDATE ${s}.knowledge SET state_digest = md5(state_json) WHERE record_key = $1::text AND state_json = $2::text`,
    /** Moves a damaged row aside: `$1` key, `$2` the state that failed to decode, `$3` now. */
    setAside: `WITH moved AS (DELETE FROM ${s}.knowledge WHERE record_key = $1::text AND state_json = $2::text RETURNING *)
      ${aside(s, 'moved', '$3::float8', '')}`,
    /**
     * Deletes a row, copying it aside unless sound: `$1` key, `$2` now, `$3` TTL. Returns how many
     * live rows it deleted (an expired one was not there).
     */
    delete: `WITH gone AS (DELETE FROM ${s}.knowledge WHERE record_key = $1::text RETURNING *),
        kept AS (${aside(s, 'gone', '$2::float8', 'WHERE state_digest IS DISTINCT FROM md5(state_json)')})
      SELECT count(*) FILTER (WHERE NOT ${expiredSql('$2', '$3', 'gone')}) AS n FROM gone`,
    /**
     * Every live row of a namespace (`$1`; `NULL`: all), with the state of those not sound: `$2`
     * now, `$3` TTL.
     */
    list: `SELECT record_key, namespace, record_id, revision,
        CASE WHEN state_digest = md5(state_json) THEN NULL ELSE state_json END AS unverified
      FROM ${s}.knowledge AS t WHERE ($1::text IS NULL OR namespace = $1::text)
        AND NOT ${expiredSql('$2', '$3', 't')}`,
    /** How many damaged rows were set aside. */
    countAside: `SELECT count(*) AS n FROM ${s}.knowledge_corrupt`,
  });

/**
 * The statements of one store (see {@link knowledgeStatements}).
 *
 * @example
 * ```ts
 * const sql: KnowledgeStatements = knowledgeStatements('"app"');
 * ```
 */
export type KnowledgeStatements = ReturnType<typeof knowledgeStatements>;
