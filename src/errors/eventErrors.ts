import { escapeText, quoteText } from '../util/escapeText';
import { brandError, formatMessage } from './errorBrand';

/** The longest id, location or problem shown in a message (the error's fields keep them whole). */
const MAX_SHOWN = 600;

/** An id as a quoted, escaped literal: no newline, control, separator or bidi character raw. */
const quoteId = (id: string): string => quoteText(id, MAX_SHOWN);

/**
 * An append lost a race: the stream does not hold exactly `expectedVersion` actions (another writer
 * appended first, or the stream was created or deleted meanwhile), so nothing was written. Load the
 * stream again, decide again, and append with the new version.
 *
 * @example
 * ```ts
 * try {
 *   await store.append('s1', [action], { expectedVersion: 3 });
 * } catch (e) {
 *   if (e instanceof EventConflictError) console.log(e.expectedVersion, e.actualVersion); // 3, 4
 * }
 * ```
 */
export class EventConflictError extends Error {
  declare readonly code: 'CM_EVENT_CONFLICT';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The stream's storage key (`ns:id` when namespaced; see `sessionKeyOf`). */
  readonly streamId: string;
  /** The version the append expected (`0`: an absent or empty stream). */
  readonly expectedVersion: number;
  /** The version found (the number of actions in the stream; `0` when absent). */
  readonly actualVersion: number;
  /**
   * @param reason - why, when it is not a stale version (a lock held for longer than the store
   *   waits)
   * @param options - `cause`: the backend's error
   */
  constructor(
    api: string,
    streamId: string,
    expectedVersion: number,
    actualVersion: number,
    reason?: string,
    options?: { cause?: unknown },
  ) {
    const what =
      reason !== undefined
        ? `stream ${quoteId(streamId)} (version ${actualVersion}): ${reason}; nothing was written`
        : `stream ${quoteId(streamId)} is at version ${actualVersion}` +
          `, the append expected ${expectedVersion}; nothing was written (load, decide again, append with the new version)`;
    super(formatMessage(api, what), options);
    brandError(this, 'CM_EVENT_CONFLICT', 'EventConflictError', what);
    this.streamId = streamId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}

/**
 * A stored record of a stream could not be read back: an action or the stream's config whose JSON
 * does not parse or decode, an action the reducers cannot apply, or a stream whose versions do not
 * run 1, 2, 3, … (a gap, a row past the stream's end, a duplicate). `load` never returns a partly
 * applied state: it rejects with this error instead. Nothing is deleted.
 *
 * @example
 * ```ts
 * try { await store.load('s1'); } catch (e) {
 *   if (e instanceof EventCorruptError) console.error(e.streamId, e.version, e.problems);
 * }
 * ```
 */
export class EventCorruptError extends Error {
  declare readonly code: 'CM_EVENT_CORRUPT';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The stream's storage key (`ns:id` when namespaced; see `sessionKeyOf`). */
  readonly streamId: string;
  /**
   * The version of the bad record: the action's version, where the versions break for a gap, or
   * `0` for the stream's config or its head (its recorded version).
   */
  readonly version: number;
  /** Where the record lives (`memory`, `sqlite:<file>`). */
  readonly location: string;
  /** What is wrong, each starting with the path inside the record (`action.payload.role: …`). */
  readonly problems: readonly string[];
  constructor(
    api: string,
    streamId: string,
    version: number,
    location: string,
    problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    const shown = problems.slice(0, 20);
    const what =
      `stream ${quoteId(streamId)} at ${escapeText(location, MAX_SHOWN)}, version ${version}, is corrupt:\n  ${shown.map((problem) => escapeText(problem, MAX_SHOWN)).join('\n  ')}` +
      (problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '');
    super(formatMessage(api, what), options);
    brandError(this, 'CM_EVENT_CORRUPT', 'EventCorruptError', what);
    this.streamId = streamId;
    this.version = version;
    this.location = location;
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * A read or load asked for versions that `prune` removed: the stream keeps its actions from
 * `firstVersion` on (the state at `firstVersion` is kept as a snapshot), and those before are gone.
 * Nothing is returned rather than a shorter history: read from `firstVersion` on, or load at
 * `firstVersion` or later.
 *
 * @example
 * ```ts
 * try { for await (const stored of store.read('s1')) use(stored); } catch (e) {
 *   if (e instanceof EventPrunedError) console.log(e.firstVersion); // 1000: read from there on
 * }
 * ```
 */
export class EventPrunedError extends Error {
  declare readonly code: 'CM_EVENT_PRUNED';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The stream's storage key (`ns:id` when namespaced; see `sessionKeyOf`). */
  readonly streamId: string;
  /** The version asked for (`fromVersion` of a read, `atVersion` of a load). */
  readonly requestedVersion: number;
  /** The first version the stream still has (its actions before it were pruned). */
  readonly firstVersion: number;
  constructor(api: string, streamId: string, requestedVersion: number, firstVersion: number) {
    const what =
      `stream ${quoteId(streamId)} was pruned before version ${firstVersion}: version ${requestedVersion} is gone` +
      ` (read from version ${firstVersion} on, or load at version ${firstVersion} or later)`;
    super(formatMessage(api, what));
    brandError(this, 'CM_EVENT_PRUNED', 'EventPrunedError', what);
    this.streamId = streamId;
    this.requestedVersion = requestedVersion;
    this.firstVersion = firstVersion;
  }
}
