import type { SchemaPart } from './schema';

/**
 * The sessions' tables and every statement the session store sends, for a quoted schema `s`.
 * Values are always parameters (`$1`, …); only the schema's quoted name is in the text.
 *
 * `sessions` holds one row per session, keyed by the kit's injective storage key (`ns:id` or the
 * id, escaped), with the `toDict` JSON in `memory_json` and its `md5` in `memory_digest`: a row
 * whose digest does not match was changed by someone else, and is decoded before a save may
 * replace it. `search_document` is the `simple` full-text vector of the searchable messages
 * (`NULL` when too large to index: such a row is always a candidate). Damaged rows are moved to
 * `sessions_corrupt` by the save or the delete that meets them.
 */

/** The columns `load` reads, with whether the memory is as this store wrote it. */
const ROW = `session_key, namespace, session_id, memory_json, message_count, revision, created_at, updated_at, (memory_digest = md5(memory_json)) AS sound`;

/** A row's expiry by the store's clock (`$now`, `$ttl` as parameters), as the kit decides it. */
const expired = (now: string, ttl: string, row: string): string =>
  `(${ttl}::float8 IS NOT NULL AND ${now}::float8 - ${row}.updated_at > ${ttl}::float8)`;

/** The copy of a removed row into `sessions_corrupt` (`$at`: when it was set aside). */
const asideInsert = (s: string, from: string, at: string, where: string): string =>
  `INSERT INTO ${s}.sessions_corrupt (session_key, namespace, session_id, memory_json, message_count, revision, created_at, updated_at, set_aside_at)
   SELECT session_key, namespace, session_id, memory_json, message_count, revision, created_at, updated_at, ${at} FROM ${from} ${where}`;

/**
 * The sessions' part of the schema (version 1).
 *
 * @example
 * ```ts
 * await connection.ready(SESSION_SCHEMA, 'PostgresSessionStore.load');
 * ```
 */
export const SESSION_SCHEMA: SchemaPart = {
  name: 'sessions',
  version: 1,
  statements: (s) => [
    `CREATE TABLE IF NOT EXISTS ${s}.sessions (
      session_key text COLLATE "C" PRIMARY KEY,
      namespace text COLLATE "C",
      session_id text COLLATE "C" NOT NULL,
      memory_json text NOT NULL,
      memory_digest text NOT NULL,
      message_count integer NOT NULL CHECK (message_count >= 0),
      revision bigint NOT NULL CHECK (revision >= 1),
      created_at double precision NOT NULL CHECK (created_at > '-Infinity' AND created_at < 'Infinity'),
      updated_at double precision NOT NULL CHECK (updated_at > '-Infinity' AND updated_at < 'Infinity'),
      search_document tsvector
    )`,
    `CREATE INDEX IF NOT EXISTS sessions_search ON ${s}.sessions USING gin (search_document)`,
    `CREATE INDEX IF NOT EXISTS sessions_namespace ON ${s}.sessions (namespace)`,
    `CREATE TABLE IF NOT EXISTS ${s}.sessions_corrupt (
      aside_id bigserial PRIMARY KEY,
      session_key text NOT NULL,
      namespace text,
      session_id text,
      memory_json text,
      message_count integer,
      revision bigint,
      created_at double precision,
      updated_at double precision,
      set_aside_at double precision NOT NULL
    )`,
  ],
};

/**
 * The statements of the session store in schema `s`, made once per store.
 *
 * @example
 * ```ts
 * const sql = sessionStatements('"conversation_memory"');
 * await connection.query(api, false, sql.selectRow, ['s1']);
 * ```
 */
export const sessionStatements = (s: string) =>
  Object.freeze({
    /** `$1` key. */
    selectRow: `SELECT ${ROW} FROM ${s}.sessions WHERE session_key = $1`,
    /** `$1` key. */
    selectUpdatedAt: `SELECT updated_at FROM ${s}.sessions WHERE session_key = $1`,
    /**
     * Insert, or replace a sound row whose revision is `$8` (`NULL`: any; `0`: only an absent or
     * expired one). `$1` key, `$2` namespace, `$3` id, `$4` memory, `$5` message count, `$6` now,
     * `$7` search text (`NULL`: not indexed), `$8` expected, `$9` TTL. Returns the new revision;
     * nothing when the revision or the row's soundness stood in the way.
     */
    upsert: `INSERT INTO ${s}.sessions AS t (session_key, namespace, session_id, memory_json, memory_digest, message_count, revision, created_at, updated_at, search_document)
      SELECT $1::text, $2::text, $3::text, $4::text, md5($4::text), $5::integer, 1, $6::float8, $6::float8, to_tsvector('simple', $7::text)
      WHERE $8::bigint IS NULL OR $8::bigint = 0
      ON CONFLICT (session_key) DO UPDATE SET
        namespace = EXCLUDED.namespace, session_id = EXCLUDED.session_id,
        memory_json = EXCLUDED.memory_json, memory_digest = EXCLUDED.memory_digest,
        message_count = EXCLUDED.message_count,
        revision = CASE WHEN ${expired('$6', '$9', 't')} THEN 1 ELSE t.revision + 1 END,
        created_at = CASE WHEN ${expired('$6', '$9', 't')} THEN EXCLUDED.created_at ELSE t.created_at END,
        updated_at = EXCLUDED.updated_at, search_document = EXCLUDED.search_document
      WHERE t.memory_digest = md5(t.memory_json)
        AND ($8::bigint IS NULL OR $8::bigint = CASE WHEN ${expired('$6', '$9', 't')} THEN 0 ELSE t.revision END)
      RETURNING revision`,
    /** Replace a live, sound row of revision `$8` (≥ 1); the parameters of `upsert`. */
    update: `UPDATE ${s}.sessions AS t SET
        namespace = $2::text, session_id = $3::text, memory_json = $4::text,
        memory_digest = md5($4::text), message_count = $5::integer, revision = t.revision + 1,
        updated_at = $6::float8, search_document = to_tsvector('simple', $7::text)
      WHERE t.session_key = $1::text AND t.memory_digest = md5(t.memory_json)
        AND NOT ${expired('$6', '$9', 't')} AND t.revision = $8::bigint
      RETURNING revision`,
    /** Marks a row that decoded as sound: `$1` key, `$2` the memory that decoded. */
    adopt: `UPDATE ${s}.sessions SET memory_digest = md5(memory_json) WHERE session_key = $1::text AND memory_json = $2::text`,
    /** Moves a damaged row aside: `$1` key, `$2` the memory that failed to decode, `$3` now. */
    setAside: `WITH moved AS (DELETE FROM ${s}.sessions WHERE session_key = $1::text AND memory_json = $2::text RETURNING *)
      ${asideInsert(s, 'moved', '$3::float8', '')}`,
    /** Deletes a row, copying it aside unless sound: `$1` key, `$2` now. Returns `updated_at`. */
    delete: `WITH gone AS (DELETE FROM ${s}.sessions WHERE session_key = $1 RETURNING *),
        aside AS (${asideInsert(s, 'gone', '$2::float8', 'WHERE memory_digest IS DISTINCT FROM md5(memory_json)')})
      SELECT updated_at FROM gone`,
    /** Every live row's metadata, and the memory of those not sound: `$1` now, `$2` TTL. */
    selectLive: `SELECT session_key, namespace, session_id, message_count, revision, created_at, updated_at,
        CASE WHEN memory_digest = md5(memory_json) THEN NULL ELSE memory_json END AS unverified
      FROM ${s}.sessions AS t WHERE NOT ${expired('$1', '$2', 't')}`,
    /**
     * The live rows that may match: `$1` the search terms (each a `plainto_tsquery`, OR-ed; a
     * term of no words matches nothing), `$2` now, `$3` TTL, `$4` namespace (`NULL`: all).
     */
    searchCandidates: `SELECT session_key, namespace, session_id, memory_json
      FROM ${s}.sessions AS t
      WHERE NOT ${expired('$2', '$3', 't')}
        AND ($4::text IS NULL OR t.namespace = $4::text)
        AND (t.search_document IS NULL OR t.search_document @@ (
          SELECT string_agg('(' || q::text || ')', ' | ')::tsquery
          FROM (SELECT plainto_tsquery('simple', term) AS q FROM unnest($1::text[]) AS term) AS terms
          WHERE numnode(q) > 0))`,
    /** How many damaged rows were set aside. */
    countAside: `SELECT count(*) AS n FROM ${s}.sessions_corrupt`,
  });

/**
 * The statements of one store (see {@link sessionStatements}).
 *
 * @example
 * ```ts
 * const sql: SessionStatements = sessionStatements('"app"');
 * ```
 */
export type SessionStatements = ReturnType<typeof sessionStatements>;
