import { escapeText, quoteText } from '../util/escapeText';
import { brandError, formatMessage } from './errorBrand';

/** The longest id, location or problem shown in a message (the error's fields keep them whole). */
const MAX_SHOWN = 600;

/**
 * A knowledge-store save lost a race: the stored revision is not the one the caller expected
 * (`expectedRevision`), so nothing was written. Reload the knowledge state, apply the change
 * again, and save with the new revision.
 *
 * @example
 * ```ts
 * try {
 *   await store.save('user-42', knowledge, { expectedRevision: 3 });
 * } catch (e) {
 *   if (e instanceof KnowledgeConflictError) console.log(e.expectedRevision, e.actualRevision); // 3, 4
 * }
 * ```
 */
export class KnowledgeConflictError extends Error {
  declare readonly code: 'CM_KNOWLEDGE_CONFLICT';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The storage key (`ns:id` when namespaced, as `sessionKeyOf` makes it). */
  readonly key: string;
  /** The revision the save expected (`0`: that nothing was stored). */
  readonly expectedRevision: number;
  /** The revision found (`0`: nothing stored, or a damaged record). */
  readonly actualRevision: number;
  /**
   * @param reason - why, when it is not a stale revision (a lock held for too long)
   * @param options - `cause`: the backend's error
   */
  constructor(
    api: string,
    key: string,
    expectedRevision: number,
    actualRevision: number,
    reason?: string,
    options?: { cause?: unknown },
  ) {
    const id = quoteText(key, MAX_SHOWN);
    const what =
      reason !== undefined
        ? `knowledge ${id} (revision ${actualRevision}): ${reason}; nothing was written`
        : `knowledge ${id} is at revision ${actualRevision}` +
          (actualRevision === 0 ? ' (absent)' : '') +
          `, the save expected ${expectedRevision}` +
          (expectedRevision === 0 ? ' (absent)' : '') +
          '; nothing was written (reload, reapply, save again)';
    super(formatMessage(api, what), options);
    brandError(this, 'CM_KNOWLEDGE_CONFLICT', 'KnowledgeConflictError', what);
    this.key = key;
    this.expectedRevision = expectedRevision;
    this.actualRevision = actualRevision;
  }
}

/**
 * A stored knowledge state could not be read back: a row or hash whose JSON does not decode as a
 * `KnowledgeState`, or whose revision is not a number. Nothing is deleted: `load` rejects with
 * this error, `list` skips the record, and a save or a delete over it first keeps a copy aside.
 *
 * @example
 * ```ts
 * try { await store.load('user-42'); } catch (e) {
 *   if (e instanceof KnowledgeCorruptError) console.error(e.key, e.location, e.problems);
 * }
 * ```
 */
export class KnowledgeCorruptError extends Error {
  declare readonly code: 'CM_KNOWLEDGE_CORRUPT';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The storage key (`ns:id` when namespaced). */
  readonly key: string;
  /** Where the record lives: `sqlite:<path>#<key>`, a Redis key. */
  readonly location: string;
  /** What is wrong, each naming the path inside the record (`state.entities[0].mentions …`). */
  readonly problems: readonly string[];
  constructor(
    api: string,
    key: string,
    location: string,
    problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    const shown = problems.slice(0, 20);
    const what =
      `knowledge ${quoteText(key, MAX_SHOWN)} at ${escapeText(location, MAX_SHOWN)} is corrupt:\n  ${shown.map((problem) => escapeText(problem, MAX_SHOWN)).join('\n  ')}` +
      (problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '');
    super(formatMessage(api, what), options);
    brandError(this, 'CM_KNOWLEDGE_CORRUPT', 'KnowledgeCorruptError', what);
    this.key = key;
    this.location = location;
    this.problems = Object.freeze([...problems]);
  }
}
