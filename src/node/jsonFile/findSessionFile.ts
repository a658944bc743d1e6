import { join } from 'node:path';
import { describeValue, type SessionKey } from 'conversation-memory/store-kit';
import { referenceFileName } from './fileNames';
import { type EntryRead, readRegularFile } from './readRegularFile';
import { readSessionRecord, type SessionRecord } from './sessionRecord';

/**
 * Another session's record that the reference wrote under its own name, which is this session's
 * name here: selectools' keys were ambiguous (its bare id `a:b` went to `a:b.json`, our name for
 * namespace `a`, id `b`). It belongs to `record.where`; it is not this session's.
 *
 * @example
 * ```ts
 * const occupant: Occupant = { path: '/data/a:b.json', record }; // record.where.key === 'a%3Ab'
 * ```
 */
export interface Occupant {
  readonly path: string;
  readonly record: SessionRecord;
}

/**
 * A session's file as it is now: absent, corrupt (with the problems, each naming the path inside
 * the file), or a record (ours, or the reference's under its own name). `occupant`: our name for
 * the session holds another session's reference record (see {@link Occupant}), which a save must
 * move first.
 *
 * @example
 * ```ts
 * const found: Found = { kind: 'absent' };
 * ```
 */
export type Found =
  | { readonly kind: 'absent'; readonly occupant?: Occupant }
  | {
      readonly kind: 'corrupt';
      readonly path: string;
      readonly problems: readonly string[];
      readonly cause?: unknown;
    }
  | {
      readonly kind: 'record';
      readonly path: string;
      readonly record: SessionRecord;
      readonly occupant?: Occupant;
    };

const ABSENT: { readonly kind: 'absent' } = Object.freeze({ kind: 'absent' });

/**
 * The problem of an entry that is not read as a session file (`(root): a FIFO (named pipe), not a
 * session file`).
 *
 * @example
 * ```ts
 * foreignProblem({ kind: 'foreign', what: 'a directory', tooLarge: false }); // '(root): a directory, not a session file'
 * ```
 */
export const foreignProblem = (read: EntryRead & { kind: 'foreign' }): string =>
  read.tooLarge
    ? `(root): ${read.what} (options.maxFileBytes), not read`
    : `(root): ${read.what}, not a session file`;

/**
 * The file the reference wrote for the key under its own name, when that name differs from ours;
 * absent when there is none, or when what is there is not that session's record (anything else is
 * not the session's business: a directory, a FIFO, a name too long here, another session's file).
 *
 * @param directory - the store's directory
 * @param where - the session
 * @param maxBytes - the largest file read
 * @example
 * ```ts
 * await findReferenceCopy('/data', sessionKeyOf('Alice', { namespace: 'Team' }), DEFAULT_MAX_FILE_BYTES); // reads Team:Alice.json
 * ```
 */
export const findReferenceCopy = async (
  directory: string,
  where: SessionKey,
  maxBytes: number,
): Promise<Found & { readonly kind: 'absent' | 'record' }> => {
  const name = referenceFileName(where);
  if (name === undefined) return ABSENT;
  const path = join(directory, name);
  let read: EntryRead;
  try {
    read = await readRegularFile(path, maxBytes);
  } catch {
    // A name we cannot open here (too long for this file system, no permission): not ours.
    return ABSENT;
  }
  if (read.kind !== 'text') return ABSENT;
  const parsed = readSessionRecord(read.text);
  // Only a file that names this very key is its copy (on a case-insensitive file system,
  // `Ab.json` may open `aB.json`).
  if (!parsed.ok || parsed.record.where.key !== where.key) {
    return ABSENT;
  }
  return { kind: 'record', path, record: parsed.record };
};

/**
 * Finds a session's file: our name for its key, read without following a link or waiting on a
 * FIFO and only up to `maxBytes`; when that name is free (or holds another session's reference
 * record, then reported as `occupant`), the reference's name for it.
 *
 * @param directory - the store's directory
 * @param where - the session
 * @param name - our file name for it (`sessionFileName(where.key)`)
 * @param maxBytes - the largest file read
 * @example
 * ```ts
 * const found = await findSessionFile('/data', sessionKeyOf('s1'), 's1.json', DEFAULT_MAX_FILE_BYTES);
 * if (found.kind === 'record') found.record.revision;
 * ```
 */
export const findSessionFile = async (
  directory: string,
  where: SessionKey,
  name: string,
  maxBytes: number,
): Promise<Found> => {
  const path = join(directory, name);
  const read = await readRegularFile(path, maxBytes);
  if (read.kind === 'absent') return findReferenceCopy(directory, where, maxBytes);
  if (read.kind === 'foreign') return { kind: 'corrupt', path, problems: [foreignProblem(read)] };
  const parsed = readSessionRecord(read.text);
  if (!parsed.ok) return { kind: 'corrupt', path, problems: parsed.problems, cause: parsed.cause };
  const held = parsed.record.where;
  if (held.key === where.key) return { kind: 'record', path, record: parsed.record };
  if (referenceFileName(held) === name) {
    const copy = await findReferenceCopy(directory, where, maxBytes);
    return { ...copy, occupant: { path, record: parsed.record } };
  }
  return {
    kind: 'corrupt',
    path,
    problems: [
      `session_id: the file holds session ${describeValue(held.key)}, not ${describeValue(where.key)} (a renamed or foreign file)`,
    ],
  };
};
