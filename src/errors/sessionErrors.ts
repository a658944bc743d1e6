import { escapeText, quoteText } from '../util/escapeText';
import { brandError, formatMessage } from './errorBrand';

/** The longest id, location or problem shown in a message (the error's fields keep them whole). */
const MAX_SHOWN = 600;

/** An id as a quoted, escaped literal: no newline, control, separator or bidi character raw. */
const quoteId = (id: string): string => quoteText(id, MAX_SHOWN);

/**
 * A save lost a race: the stored revision is not the one the caller expected (`expectedRevision`),
 * so nothing was written. Reload, apply the change again, and save with the new revision.
 *
 * @example
 * ```ts
 * try {
 *   await store.save('s1', state, { expectedRevision: 3 });
 * } catch (e) {
 *   if (e instanceof SessionConflictError) console.log(e.expectedRevision, e.actualRevision); // 3, 4
 * }
 * ```
 */
export class SessionConflictError extends Error {
  declare readonly code: 'CM_SESSION_CONFLICT';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The session's storage key (`ns:id` when namespaced; see `sessionKeyOf`). */
  readonly sessionId: string;
  /** The revision the save expected (`0`: that the session did not exist). */
  readonly expectedRevision: number;
  /** The revision found (`0`: no session, or an expired one). */
  readonly actualRevision: number;
  /**
   * @param reason - why, when it is not a stale revision (another writer held the session for
   *   longer than the store waits)
   * @param options - `cause`: the backend's error (a lock timeout)
   */
  constructor(
    api: string,
    sessionId: string,
    expectedRevision: number,
    actualRevision: number,
    reason?: string,
    options?: { cause?: unknown },
  ) {
    const what =
      reason !== undefined
        ? `session ${quoteId(sessionId)} (revision ${actualRevision}): ${reason}; nothing was written`
        : `session ${quoteId(sessionId)} is at revision ${actualRevision}` +
          (actualRevision === 0 ? ' (absent)' : '') +
          `, the save expected ${expectedRevision}` +
          (expectedRevision === 0 ? ' (absent)' : '') +
          '; nothing was written (reload, reapply, save again)';
    super(formatMessage(api, what), options);
    brandError(this, 'CM_SESSION_CONFLICT', 'SessionConflictError', what);
    this.sessionId = sessionId;
    this.expectedRevision = expectedRevision;
    this.actualRevision = actualRevision;
  }
}

/**
 * A stored session could not be read back: a truncated or foreign file, a row whose JSON does
 * not decode, a record with a bad field. Nothing is deleted: `list` and `search` skip it, `exists`
 * reports it, and a save over it first moves it aside (`movedTo`, when the store keeps one).
 *
 * @example
 * ```ts
 * try { await store.load('s1'); } catch (e) {
 *   if (e instanceof SessionCorruptError) console.error(e.location, e.problems);
 * }
 * ```
 */
export class SessionCorruptError extends Error {
  declare readonly code: 'CM_SESSION_CORRUPT';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The session's storage key (`ns:id` when namespaced; see `sessionKeyOf`). */
  readonly sessionId: string;
  /** Where the record lives: a file path, `sqlite:sessions/ns:id`, a Redis key. */
  readonly location: string;
  /** What is wrong, each naming the path inside the record (`memory.messages[3].role: …`). */
  readonly problems: readonly string[];
  constructor(
    api: string,
    sessionId: string,
    location: string,
    problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    const shown = problems.slice(0, 20);
    const what =
      `session ${quoteId(sessionId)} at ${escapeText(location, MAX_SHOWN)} is corrupt:\n  ${shown.map((problem) => escapeText(problem, MAX_SHOWN)).join('\n  ')}` +
      (problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '');
    super(formatMessage(api, what), options);
    brandError(this, 'CM_SESSION_CORRUPT', 'SessionCorruptError', what);
    this.sessionId = sessionId;
    this.location = location;
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * A session id or namespace that no store accepts: empty, containing a null byte, or longer than
 * 512 characters (the reference's rules, checked by every store, SQLite's included).
 *
 * @example
 * ```ts
 * try { await store.load(''); } catch (e) {
 *   if (e instanceof SessionIdError) console.log(e.field); // 'sessionId'
 * }
 * ```
 */
export class SessionIdError extends RangeError {
  declare readonly code: 'CM_SESSION_ID';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** Which argument was wrong. */
  readonly field: 'sessionId' | 'namespace';
  constructor(api: string, field: 'sessionId' | 'namespace', what: string) {
    super(formatMessage(api, what));
    brandError(this, 'CM_SESSION_ID', 'SessionIdError', what);
    this.field = field;
  }
}
