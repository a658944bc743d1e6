import { EventCorruptError } from 'conversation-memory';
import { type RecordPlace } from 'conversation-memory/store-kit';
import { describeColumn } from './describeColumn';
import type { HeadRow, VersionRow } from './eventStatements';

/**
 * What a stream's head says about the shape of its actions: its version, or the first thing
 * wrong with it (the version to report, and the problem).
 *
 * @example
 * ```ts
 * const shape: StreamShape = { version: 12 };
 * const broken: StreamShape = { at: 13, problem: 'stream: holds an action at version 13, beyond its version 12 …' };
 * ```
 */
export type StreamShape =
  { readonly version: number } | { readonly at: number; readonly problem: string };

const isVersion = (value: unknown, least: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= least;

/**
 * Checks a stream's head without reading its actions (three primary-key lookups): the version
 * its appends recorded must be an integer ≥ 0, and its actions must run from version 1 to that
 * version. What each damage is, and the version reported:
 *
 * - an action beyond the version (a row inserted by hand, or the version lowered): the highest
 *   action's version;
 * - actions missing at the end (rows deleted, or the version raised): the first missing version;
 * - an action at version 0 or below: that version; an action whose version is not an integer
 *   (text, a blob): 0;
 * - a recorded version that is not an integer ≥ 0: 0.
 *
 * A gap between the first and the last action is found by the reads that page over it (see
 * {@link checkPage}). Two actions at one version cannot exist: `(stream, version)` is the primary
 * key. A stream written by an earlier version of the store, whose version is `NULL`, is taken to
 * be at its highest action. A pruned stream (its `first_version` set) must hold its lowest action
 * at exactly its first version: the actions below it are gone by design, not missing.
 *
 * @param head - the stream's head row
 * @returns the version, or the problem
 * @example
 * ```ts
 * streamShapeOf({ id: 1, config: '{}', created_at: 0, recorded: 10, min: 1, max: 12 });
 * // { at: 12, problem: 'stream: holds an action at version 12, beyond its version 10 (…)' }
 * ```
 */
export const streamShapeOf = (head: HeadRow): StreamShape => {
  const { recorded, min, max } = head;
  if (recorded !== null && !isVersion(recorded, 0)) {
    return {
      at: 0,
      problem: `stream: its version (event_streams.version) is ${describeColumn(recorded)}, not an integer ≥ 0`,
    };
  }
  if (max !== null && typeof max !== 'number') {
    return {
      at: 0,
      problem: `stream: holds an action at version ${describeColumn(max)}, not an integer`,
    };
  }
  const version = recorded ?? (isVersion(max, 1) ? max : 0);
  if (max === null) {
    return version === 0
      ? { version }
      : {
          at: 1,
          problem: `stream: at version ${version} but holds no action (actions 1 to ${version} are missing)`,
        };
  }
  if (max > version) {
    return {
      at: Math.ceil(max),
      problem: `stream: holds an action at version ${describeColumn(max)}, beyond its version ${version} (a row its appends did not write)`,
    };
  }
  if (max < version) {
    const first = Math.floor(max) + 1;
    return {
      at: first,
      problem: `stream: at version ${version} but its last action is at version ${describeColumn(max)} (actions ${first} to ${version} are missing)`,
    };
  }
  if (!isVersion(min, 1)) {
    return {
      at: typeof min === 'number' ? Math.floor(min) : 0,
      problem: `stream: holds an action at version ${describeColumn(min)}; versions are integers from 1`,
    };
  }
  return prunedShape(head.first_version, min, version);
};

/**
 * The shape of a stream whose head is otherwise sound, by its first version: one never pruned
 * (`NULL`) is whole from 1; a pruned one holds its actions from exactly its first version on (a
 * prune keeps the action at `before`, so its lowest action is there).
 */
const prunedShape = (first: unknown, min: number, version: number): StreamShape => {
  if (first === null) return { version };
  if (!isVersion(first, 1)) {
    return {
      at: 0,
      problem: `stream: its first version (event_streams.first_version) is ${describeColumn(first)}, not an integer ≥ 1`,
    };
  }
  if (min !== first) {
    return {
      at: Math.min(min, first),
      problem:
        min > first
          ? `stream: pruned before version ${first} but its first action is at version ${min} (actions ${first} to ${min - 1} are missing)`
          : `stream: pruned before version ${first} but holds an action at version ${min}, below it (a row its prune did not leave)`,
    };
  }
  return { version };
};

/**
 * The error of a stream whose shape is wrong, at the version {@link streamShapeOf} reports.
 *
 * @example
 * ```ts
 * const shape = streamShapeOf(head);
 * if ('problem' in shape) throw shapeError(shape, { key, version: 0, location, api });
 * ```
 */
export const shapeError = (
  shape: { readonly at: number; readonly problem: string },
  place: RecordPlace,
): EventCorruptError =>
  new EventCorruptError(place.api, place.key, shape.at, place.location, [shape.problem]);

/**
 * Checks one page of actions, read as `version >= from AND version <= to ORDER BY version LIMIT
 * want`: its rows must be the versions `from`, `from + 1`, … without a gap, and there must be
 * `want` of them (the stream's version said so). Call it only when the stream still exists (a
 * page of a stream deleted meanwhile is short too).
 *
 * @param rows - the page
 * @param from - the first version asked for
 * @param want - how many rows the page must hold
 * @param place - the stream, for the error (its version is replaced by the missing one)
 * @returns the rows before the first missing version, and the error for it (none when whole)
 * @example
 * ```ts
 * const { sound, gap } = checkPage(sql.page.all(id, 1, 512, 512), 1, 512, place);
 * for (const row of sound) use(row);
 * if (gap !== undefined) throw gap;
 * ```
 */
export const checkPage = <Row extends Pick<VersionRow, 'version'>>(
  rows: readonly Row[],
  from: number,
  want: number,
  place: RecordPlace,
): { readonly sound: readonly Row[]; readonly gap?: EventCorruptError } => {
  const missing = (version: number, problem: string): EventCorruptError =>
    new EventCorruptError(place.api, place.key, version, place.location, [problem]);
  const bad = rows.findIndex((row, i) => row.version !== from + i);
  if (bad >= 0) {
    const expected = from + bad;
    return {
      sound: rows.slice(0, bad),
      gap: missing(
        expected,
        `stream: the action after version ${expected - 1} is stored at version ${describeColumn((rows[bad] as Row).version)}, not ${expected}`,
      ),
    };
  }
  if (rows.length < want) {
    const expected = from + rows.length;
    return {
      sound: rows,
      gap: missing(
        expected,
        `stream: no action at version ${expected}, below the stream's version`,
      ),
    };
  }
  return { sound: rows };
};
