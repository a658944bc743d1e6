import { expiredSql } from './retentionSql';
import type { SchemaPart } from './schema';

/**
 * The event streams' tables and every statement the event store sends, for a quoted schema `s`.
 * Values are always parameters; only the schema's quoted name is in the text.
 *
 * `event_streams` holds one row per stream: a never-reused `id`, its key, its config, its
 * creation time, its version, `updated_at` (its last append, by the store's clock: the TTL runs
 * from it), `first_version` (1, or `before` of its last prune) and `damaged_at`, the lowest
 * version at or above `first_version` of an action removed or moved by another program (set by a
 * trigger; the store's own deletes remove the stream's row first, and a prune moves
 * `first_version` first, so they set nothing). `event_actions` holds one row per action, primary
 * key `(stream, version)`: a second action at a version is impossible. `event_snapshots` holds
 * every `snapshotEvery` actions' state (and the state at `first_version` of a pruned stream),
 * bound to the stream's key and the version (see the kit's `encodeSnapshotJson`).
 * `event_removals` lists the ids of streams whose row is gone (swept, erased or expired and
 * started afresh) while their actions and snapshots are removed in batches: unreachable at once,
 * since every read goes through the stream's row, and the id is never reused.
 */

/**
 * The event streams' part of the schema (version 2: version 1, the released one, had neither
 * `updated_at` nor `first_version` nor `event_removals`; its streams get the upgrade's time as
 * their last append, so with a TTL they expire counting from the upgrade).
 *
 * @example
 * ```ts
 * await connection.ready(EVENT_SCHEMA, 'PostgresEventStore.load');
 * ```
 */
export const EVENT_SCHEMA: SchemaPart = {
  name: 'events',
  version: 2,
  upgrades: {
    2: (s) => [
      `ALTER TABLE ${s}.event_streams ADD COLUMN IF NOT EXISTS updated_at double precision`,
      `ALTER TABLE ${s}.event_streams ADD COLUMN IF NOT EXISTS first_version bigint NOT NULL DEFAULT 1 CHECK (first_version >= 1)`,
      `UPDATE ${s}.event_streams SET updated_at = extract(epoch from now()) WHERE updated_at IS NULL`,
    ],
  },
  statements: (s) => [
    `CREATE TABLE IF NOT EXISTS ${s}.event_streams (
      id bigserial PRIMARY KEY,
      stream_key text COLLATE "C" NOT NULL UNIQUE,
      namespace text COLLATE "C",
      config_json text NOT NULL,
      created_at double precision NOT NULL,
      version bigint NOT NULL CHECK (version >= 0),
      damaged_at bigint,
      updated_at double precision,
      first_version bigint NOT NULL DEFAULT 1 CHECK (first_version >= 1)
    )`,
    `CREATE TABLE IF NOT EXISTS ${s}.event_removals (stream bigint PRIMARY KEY)`,
    `CREATE INDEX IF NOT EXISTS event_streams_namespace ON ${s}.event_streams (namespace)`,
    `CREATE TABLE IF NOT EXISTS ${s}.event_actions (
      stream bigint NOT NULL,
      version bigint NOT NULL,
      action_json text NOT NULL,
      PRIMARY KEY (stream, version)
    )`,
    `CREATE TABLE IF NOT EXISTS ${s}.event_snapshots (
      stream bigint NOT NULL,
      version bigint NOT NULL,
      snapshot_json text NOT NULL,
      PRIMARY KEY (stream, version)
    )`,
    `CREATE OR REPLACE FUNCTION ${s}.event_action_removed() RETURNS trigger LANGUAGE plpgsql AS $fn$
     BEGIN
       UPDATE ${s}.event_streams SET damaged_at = LEAST(COALESCE(damaged_at, OLD.version), OLD.version)
       WHERE id = OLD.stream AND OLD.version >= first_version;
       RETURN NULL;
     END $fn$`,
    `DO $do$ BEGIN
       IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'event_action_removed'
                      AND tgrelid = '${s}.event_actions'::regclass) THEN
         CREATE TRIGGER event_action_removed AFTER DELETE OR UPDATE OF stream, version
           ON ${s}.event_actions FOR EACH ROW EXECUTE FUNCTION ${s}.event_action_removed();
       END IF;
     END $do$`,
    // Replaced on every start: the body is this version's append.
    `CREATE OR REPLACE FUNCTION ${s}.event_append(text, text, text, float8, bigint, bigint, text[],
       text, bigint, bigint[], text[], text, text, float8)
     RETURNS TABLE (written bigint, notified bigint, id bigint, stream_key text, namespace text,
       config_json text, created_at float8, version bigint, damaged_at bigint, updated_at float8,
       first_version bigint, max_version bigint)
     LANGUAGE plpgsql AS $fn$
     #variable_conflict use_column
     BEGIN
       RETURN QUERY ${APPEND(s)};
     END $fn$`,
  ],
};

/** A stream's head: its row and the highest version among its actions. */
const HEAD = (s: string) =>
  `SELECT h.id, h.stream_key, h.namespace, h.config_json, h.created_at, h.version, h.damaged_at,
     h.updated_at, h.first_version,
     (SELECT max(a.version) FROM ${s}.event_actions AS a WHERE a.stream = h.id) AS max_version
   FROM ${s}.event_streams AS h`;

/**
 * The append's one statement (see `eventStatements(s).append` for its parameters and result), as
 * the body of the PL/pgSQL function `event_append`: a function's plan is kept per connection, so
 * the statement is parsed and planned once per connection rather than on every append (1,252
 * appends/s sent as text, about three times that as a function: docs/performance.md).
 */
const APPEND = (s: string) => `WITH
      upserted AS (
        INSERT INTO ${s}.event_streams AS h (stream_key, namespace, config_json, created_at, version, updated_at)
        SELECT $1::text, $2::text, $3::text, $4::float8, $6::bigint, $4::float8 WHERE $5::bigint = 0
        ON CONFLICT (stream_key) DO UPDATE SET version = $6::bigint, updated_at = $4::float8
        WHERE h.version = 0 AND h.damaged_at IS NULL AND NOT ${expiredSql('$4', '$14', 'h')}
          AND ($8::text IS NULL OR h.config_json = $8::text)
          AND NOT EXISTS (SELECT 1 FROM ${s}.event_actions AS a WHERE a.stream = h.id)
        RETURNING h.id, (h.xmax = 0) AS created
      ),
      bumped AS (
        UPDATE ${s}.event_streams AS h SET version = $6::bigint, updated_at = $4::float8
        WHERE h.stream_key = $1::text AND $5::bigint > 0 AND h.version = $5::bigint
          AND NOT ${expiredSql('$4', '$14', 'h')}
          AND h.damaged_at IS NULL AND ($8::text IS NULL OR h.config_json = $8::text)
          AND NOT EXISTS (SELECT 1 FROM ${s}.event_actions AS a WHERE a.stream = h.id AND a.version > h.version)
        RETURNING h.id, false AS created
      ),
      target AS (SELECT id, created FROM upserted UNION ALL SELECT id, created FROM bumped),
      actions AS (
        INSERT INTO ${s}.event_actions (stream, version, action_json)
        SELECT t.id, $5::bigint + a.ord, a.json
        FROM target AS t, unnest($7::text[]) WITH ORDINALITY AS a(json, ord)
      ),
      snapshots AS (
        INSERT INTO ${s}.event_snapshots (stream, version, snapshot_json)
        SELECT t.id, p.version, p.json
        FROM target AS t, unnest($10::bigint[], $11::text[]) AS p(version, json)
        WHERE ($9::bigint IS NULL AND t.created) OR t.id = $9::bigint
        ON CONFLICT (stream, version) DO UPDATE SET snapshot_json = EXCLUDED.snapshot_json
      ),
      notified AS (SELECT pg_notify($12::text, $13::text) FROM target)
    SELECT
      (SELECT $6::bigint FROM target) AS written,
      (SELECT count(*) FROM notified) AS notified,
      head.*
    FROM (SELECT 1) AS one LEFT JOIN (${HEAD(s)} WHERE h.stream_key = $1::text) AS head ON true`;

/**
 * The statements of the event store in schema `s`, made once per store.
 *
 * @example
 * ```ts
 * const sql = eventStatements('"conversation_memory"');
 * ```
 */
export const eventStatements = (s: string) =>
  Object.freeze({
    /** `$1` key. */
    head: `${HEAD(s)} WHERE h.stream_key = $1::text`,
    /** Every live stream, or a namespace's (`$1`, `NULL`: all): `$2` now, `$3` TTL. */
    list: `${HEAD(s)} WHERE ($1::text IS NULL OR h.namespace = $1::text)
      AND NOT ${expiredSql('$2', '$3', 'h')}`,
    /** Up to `$4` actions of stream `$1` from `$2` to `$3`, in order. */
    page: `SELECT version, action_json FROM ${s}.event_actions
      WHERE stream = $1::bigint AND version BETWEEN $2::bigint AND $3::bigint ORDER BY version LIMIT $4::int`,
    /** Up to 8 snapshots of stream `$1` at or below `$2`, newest first. */
    snapshots: `SELECT version, snapshot_json FROM ${s}.event_snapshots
      WHERE stream = $1::bigint AND version <= $2::bigint ORDER BY version DESC LIMIT 8`,
    /**
     * The append, one statement (a call of the schema's `event_append`, see {@link EVENT_SCHEMA}): `$1` key, `$2` namespace, `$3` config JSON of a new stream, `$4`
     * now, `$5` expected version, `$6` new version, `$7` the actions' JSON, `$8` the config the
     * stream must have (`NULL`: any), `$9` the stream id the snapshots were computed on (`NULL`:
     * only a stream this statement creates), `$10` and `$11` the snapshots' versions and JSON,
     * `$12` the channel to notify and `$13` its payload, `$14` the TTL. A new stream is created
     * (or an empty live one taken) only at expected version 0; an existing one moves from `$5` to
     * `$6` only when live, sound (nothing removed, nothing past its version) and of config `$8`.
     * Returns `written` (the new version, `NULL` when nothing was written) and the head as this
     * statement found it (an expired one is renewed by `renew` first: see `appendToStream`).
     */
    append: `SELECT * FROM ${s}.event_append($1::text, $2::text, $3::text, $4::float8, $5::bigint, $6::bigint, $7::text[], $8::text, $9::bigint, $10::bigint[], $11::text[], $12::text, $13::text, $14::float8)`,
    /**
     * Deletes stream `$1` with its actions and snapshots; returns how many live streams it deleted
     * (0 or 1; an expired one was not there): `$2` now, `$3` TTL.
     */
    delete: `WITH gone AS (DELETE FROM ${s}.event_streams WHERE stream_key = $1::text RETURNING id, updated_at),
        actions AS (DELETE FROM ${s}.event_actions WHERE stream IN (SELECT id FROM gone)),
        snapshots AS (DELETE FROM ${s}.event_snapshots WHERE stream IN (SELECT id FROM gone))
      SELECT count(*) FILTER (WHERE NOT ${expiredSql('$2', '$3', 'gone')}) AS n FROM gone`,
    /**
     * Takes away the row of stream id `$1` if it has expired (`$2` now, `$3` TTL), and lists the id
     * in `event_removals`, in one statement: its actions and snapshots are unreachable from then
     * on (a new stream under the key gets a new id), and a sweep removes them.
     */
    renew: `WITH gone AS (DELETE FROM ${s}.event_streams AS h WHERE h.id = $1::bigint AND ${expiredSql('$2', '$3', 'h')} RETURNING id)
      INSERT INTO ${s}.event_removals (stream) SELECT id FROM gone ON CONFLICT DO NOTHING`,
  });

/**
 * The statements of one store (see {@link eventStatements}).
 *
 * @example
 * ```ts
 * const sql: EventStatements = eventStatements('"app"');
 * ```
 */
export type EventStatements = ReturnType<typeof eventStatements>;

/** Actions read per query by `read` and `load`. */
export const EVENT_PAGE = 512;
