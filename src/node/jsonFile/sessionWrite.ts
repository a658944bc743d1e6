import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { MemoryArgumentError, type SavedSession, SessionConflictError } from 'conversation-memory';
import {
  checkExpectedRevision,
  describeValue,
  type SessionKey,
} from 'conversation-memory/store-kit';
import { writeFileAtomic } from './atomicWrite';
import type { SessionFolder } from './connection';
import { sessionFileName, tempFileName } from './fileNames';
import type { Found, Occupant } from './findSessionFile';
import { moveWithoutOverwriting } from './moveWithoutOverwriting';
import { readRegularFile } from './readRegularFile';
import { readSessionRecord, type SessionRecord, writeSessionRecord } from './sessionRecord';

/** Refuses to write a session file that this store (or one like it) would not read back. */
const checkSize = (folder: SessionFolder, api: string, text: string): void => {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most texts need no count.
  if (text.length * 3 <= folder.maxFileBytes) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= folder.maxFileBytes) return;
  throw new MemoryArgumentError(
    api,
    `state: the session file would be ${bytes} bytes, over options.maxFileBytes (${folder.maxFileBytes}); nothing was written (trim the memory, or raise maxFileBytes)`,
  );
};

/**
 * Moves another session's reference record out of our name for `where`: to that session's own
 * name when nothing is there (where it still loads), else aside. Under that session's lock, so
 * none of its own saves or deletes runs meanwhile; nothing is done if the file changed since.
 */
const relocate = async (
  folder: SessionFolder,
  api: string,
  where: SessionKey,
  occupant: Occupant,
  deadline: number,
  expected: number,
): Promise<void> => {
  const other = occupant.record.where;
  const otherName = sessionFileName(other.key);
  const lock = await folder.lock(otherName, deadline);
  if (lock === undefined) {
    throw new SessionConflictError(
      api,
      where.key,
      expected,
      0,
      `its file holds the reference's record of session ${describeValue(other.key)}, whose lock another writer held for more than ${folder.lockWaitMs} ms`,
    );
  }
  try {
    const read = await readRegularFile(occupant.path, folder.maxFileBytes);
    const again = read.kind === 'text' ? readSessionRecord(read.text) : undefined;
    if (again?.ok !== true || again.record.where.key !== other.key) return;
    if (!(await moveWithoutOverwriting(occupant.path, join(folder.directory, otherName)))) {
      await folder.moveAside(occupant.path);
    }
  } finally {
    await lock.release();
  }
};

/**
 * Under the session's lock: what is there now, checked against the expected revision, with any
 * other session's reference record moved out of our name first (see {@link relocate}).
 */
const claim = async (
  folder: SessionFolder,
  api: string,
  where: SessionKey,
  name: string,
  expected: number | undefined,
  deadline: number,
): Promise<{ found: Found; damaged: boolean; current: SessionRecord | undefined }> => {
  for (;;) {
    const found = await folder.find(where, name);
    const damaged = folder.damaged(api, found);
    const current =
      found.kind === 'record' && !damaged && !folder.expired(found.record)
        ? found.record
        : undefined;
    const actual = current?.revision ?? 0;
    checkExpectedRevision(where.key, expected, actual, api);
    const occupant = found.kind === 'corrupt' ? undefined : found.occupant;
    if (occupant === undefined) return { found, damaged, current };
    await relocate(folder, api, where, occupant, deadline, expected ?? actual);
  }
};

/**
 * Writes a session's file (call it in the folder's queue for `name`): takes the session's lock
 * (waiting at most `lockWaitMs`, else `SessionConflictError`), checks the revision, writes the
 * record atomically (a damaged file moved aside first), drops the reference's copy of the key,
 * and releases the lock. A lock lost while writing (broken as stale) starts again.
 *
 * @param folder - the store's folder
 * @param api - the calling method, for errors
 * @param where - the session's key
 * @param name - its file name (`sessionFileName(where.key)`)
 * @param expected - the expected revision (`undefined`: no check)
 * @param memoryJson - the memory's `toDict` JSON
 * @returns the new revision
 * @throws SessionConflictError on a stale revision, or a lock held too long; MemoryArgumentError
 *   for a file over `maxFileBytes`
 * @example
 * ```ts
 * const name = sessionFileName(where.key);
 * await folder.serial(name, () => writeSession(folder, 'MyStore.save', where, name, 0, json));
 * ```
 */
export const writeSession = async (
  folder: SessionFolder,
  api: string,
  where: SessionKey,
  name: string,
  expected: number | undefined,
  memoryJson: string,
): Promise<SavedSession> => {
  const deadline = Date.now() + folder.lockWaitMs;
  for (;;) {
    const temp = tempFileName(name, process.pid, randomBytes(6).toString('hex'));
    const lock = await folder.lock(name, deadline, temp);
    if (lock === undefined) {
      const actual = await folder.revisionNow(where, name);
      throw new SessionConflictError(
        api,
        where.key,
        expected ?? actual,
        actual,
        `another writer held the session's lock for more than ${folder.lockWaitMs} ms`,
      );
    }
    try {
      const { found, damaged, current } = await claim(folder, api, where, name, expected, deadline);
      const now = folder.clock();
      const revision = (current?.revision ?? 0) + 1;
      const text = writeSessionRecord(where, current?.createdAt ?? now, now, revision, memoryJson);
      checkSize(folder, api, text);
      if (damaged && found.kind !== 'absent') await folder.moveAside(found.path);
      if (!(await writeFileAtomic(folder.directory, name, temp, text, () => lock.held()))) {
        continue;
      }
      await folder.dropReferenceCopy(api, where);
      return Object.freeze({ revision });
    } finally {
      await lock.release();
    }
  }
};
