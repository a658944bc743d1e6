import { lstat, opendir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionConflictError } from 'conversation-memory';
import {
  type NamespaceKeys,
  parseSessionKey,
  type SessionKey,
  sessionKeyOf,
  SWEEP_BATCH,
} from 'conversation-memory/store-kit';
import { syncDirectory } from './atomicWrite';
import type { SessionFolder } from './connection';
import { errorCode } from './errorCode';
import {
  ASIDE_MARK,
  referenceFileName,
  SESSION_FILE_SUFFIX,
  sessionFileName,
  sessionKeyOfFileName,
} from './fileNames';
import { readRegularFile } from './readRegularFile';
import { readSessionRecord, type SessionRecord } from './sessionRecord';

// The JSON-file store's sweep and deleteNamespace: one pass over the directory, one file (under
// its session's lock) at a time, so no session is held for long, and the names are read in pages
// of SWEEP_BATCH rather than all at once.

const escapeDots = (text: string): string => text.replaceAll('.', '\\.');

/** `<name>.json.corrupt-<ms>-<6 hex>`: a file kept aside, and the name it was kept aside from. */
const ASIDE = new RegExp(
  `^(.+${escapeDots(SESSION_FILE_SUFFIX)})${escapeDots(ASIDE_MARK)}\\d+-[0-9a-f]{6}$`,
  'u',
);

/** The directory's entry names, a page of at most {@link SWEEP_BATCH} at a time. */
async function* namePages(directory: string): AsyncGenerator<string[]> {
  let page: string[] = [];
  for await (const entry of await opendir(directory)) {
    page.push(entry.name);
    if (page.length < SWEEP_BATCH) continue;
    yield page;
    page = [];
  }
  if (page.length > 0) yield page;
}

/** The record a file holds, when it reads as one; `undefined` for anything else. */
const recordIn = async (
  folder: SessionFolder,
  path: string,
): Promise<SessionRecord | undefined> => {
  try {
    const read = await readRegularFile(path, folder.maxFileBytes);
    if (read.kind !== 'text') return undefined;
    const parsed = readSessionRecord(read.text);
    return parsed.ok ? parsed.record : undefined;
  } catch {
    return undefined; // gone since the listing, or not ours to read
  }
};

/** Whether a record's file is named as the store names it, or as the reference did. */
const isNamedFor = (record: SessionRecord, name: string): boolean =>
  sessionFileName(record.where.key) === name || referenceFileName(record.where) === name;

/**
 * The session key a file (or a file kept aside from `name`) belongs to: the key its record names
 * when the file is named for it; else the key its name stands for (a damaged file's content says
 * nothing); `undefined` when neither tells (a hashed name whose file does not read).
 */
const keyOfFile = async (
  folder: SessionFolder,
  path: string,
  name: string,
): Promise<string | undefined> => {
  const record = await recordIn(folder, path);
  return record !== undefined && isNamedFor(record, name)
    ? record.where.key
    : sessionKeyOfFileName(name);
};

/** The session a key stands for; `undefined` for a key no session has (`a:`, from `a:.json`). */
const sessionWhere = (key: string): SessionKey | undefined => {
  const { id, namespace } = parseSessionKey(key);
  try {
    return sessionKeyOf(id, { namespace });
  } catch {
    return undefined;
  }
};

/** Removes a file; `false` when it was gone already or is a directory (never removed). */
const removeFile = async (path: string): Promise<boolean> => {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    const isDirectory = await lstat(path).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    if (isDirectory) return false;
    throw error;
  }
};

/**
 * Removes every expired session file (collected as a read collects it: under its lock, if still
 * expired and not damaged); resolves to how many. A file whose lock is held is being written and
 * is left.
 *
 * @param folder - the store's folder
 * @param stillOpen - throws once the store is closed (checked before each page)
 * @example
 * ```ts
 * const removed = await sweepFolder(folder, stillOpen);
 * ```
 */
export const sweepFolder = async (
  folder: SessionFolder,
  stillOpen: () => void,
): Promise<number> => {
  let removed = 0;
  for await (const names of namePages(folder.directory)) {
    stillOpen();
    for (const name of names) {
      if (!name.endsWith(SESSION_FILE_SUFFIX)) continue;
      const record = await recordIn(folder, join(folder.directory, name));
      if (record === undefined || !isNamedFor(record, name) || !folder.expired(record)) continue;
      if (await folder.collect(record.where, sessionFileName(record.where.key))) removed++;
    }
  }
  return removed;
};

/**
 * Removes one session's files (ours and the reference's copy, damaged or not, expired or not)
 * under its lock; `true` when there was one.
 *
 * @throws SessionConflictError when another writer holds the lock for more than `lockWaitMs`
 */
const deleteSessionFiles = async (
  folder: SessionFolder,
  api: string,
  where: SessionKey,
): Promise<boolean> => {
  const name = sessionFileName(where.key);
  return folder.serial(name, async () => {
    const lock = await folder.lock(name, Date.now() + folder.lockWaitMs);
    if (lock === undefined) {
      const actual = await folder.revisionNow(where, name);
      throw new SessionConflictError(
        api,
        where.key,
        actual,
        actual,
        `another writer held the session's lock for more than ${folder.lockWaitMs} ms; the namespace is partly deleted (call again)`,
      );
    }
    try {
      let had = false;
      const found = await folder.find(where, name);
      // Our name may hold another session's reference record (an occupant): that is not ours.
      if (found.kind !== 'absent') had = (await removeFile(found.path)) || had;
      const copy = await folder.findReferenceCopy(where);
      if (copy.kind !== 'absent') had = (await removeFile(copy.path)) || had;
      return had;
    } finally {
      await lock.release();
    }
  });
};

/**
 * Removes every session of a namespace and every file kept aside from one of its sessions;
 * resolves to how many sessions it removed. Each session is removed under its lock, so a save
 * racing the deletion either lands before it (and is deleted) or after it (a new session).
 *
 * @param folder - the store's folder
 * @param api - the calling method, for errors
 * @param keys - the namespace's keys (`namespaceKeys(namespace)`)
 * @param stillOpen - throws once the store is closed (checked before each page)
 * @example
 * ```ts
 * const removed = await deleteFolderNamespace(folder, api, namespaceKeys('tenant-42'), stillOpen);
 * ```
 */
export const deleteFolderNamespace = async (
  folder: SessionFolder,
  api: string,
  keys: NamespaceKeys,
  stillOpen: () => void,
): Promise<number> => {
  let removed = 0;
  for await (const names of namePages(folder.directory)) {
    stillOpen();
    for (const name of names) {
      const aside = ASIDE.exec(name)?.[1];
      if (aside === undefined && !name.endsWith(SESSION_FILE_SUFFIX)) continue;
      const path = join(folder.directory, name);
      const key = await keyOfFile(folder, path, aside ?? name);
      if (key === undefined || !keys.includes(key)) continue;
      if (aside !== undefined) {
        await removeFile(path);
        continue;
      }
      // A file seen again (listed before its deletion) finds nothing left: it is not counted.
      const where = sessionWhere(key);
      if (where !== undefined && (await deleteSessionFiles(folder, api, where))) removed++;
    }
  }
  await syncDirectory(folder.directory);
  return removed;
};
