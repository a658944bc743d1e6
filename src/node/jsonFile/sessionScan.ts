import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type MemoryState, SessionCorruptError } from 'conversation-memory';
import type { SessionFolder } from './connection';
import { referenceFileName, SESSION_FILE_SUFFIX, sessionFileName } from './fileNames';
import { readRegularFile } from './readRegularFile';
import { readSessionRecord, type SessionRecord } from './sessionRecord';

/**
 * A live session found by {@link scanSessions}: its record and its memory (decoded cheaply).
 *
 * @example
 * ```ts
 * for await (const { record, state }: LiveSession of scanSessions(folder, 'MyStore.list')) {}
 * ```
 */
export interface LiveSession {
  readonly record: SessionRecord;
  readonly state: MemoryState;
}

/**
 * Every live, readable session file of the folder: each named as the store names its key (or as
 * the reference did, when the key has no file of ours), not expired (an expired one is collected),
 * and decodable; anything else is passed over.
 *
 * @param folder - the store's folder
 * @param api - the calling method, for errors
 * @example
 * ```ts
 * for await (const { record } of scanSessions(folder, 'JsonFileSessionStore.list')) console.log(record.where.key);
 * ```
 */
export async function* scanSessions(
  folder: SessionFolder,
  api: string,
): AsyncGenerator<LiveSession> {
  const names = new Set(await readdir(folder.directory));
  for (const name of names) {
    if (!name.endsWith(SESSION_FILE_SUFFIX)) continue;
    let entry;
    try {
      entry = await readRegularFile(join(folder.directory, name), folder.maxFileBytes);
    } catch {
      continue; // a file we may not read: not a session here
    }
    // Deleted since readdir, or not a session file (a FIFO, a symlink, a directory, too large).
    if (entry.kind !== 'text') continue;
    const read = readSessionRecord(entry.text);
    if (!read.ok) continue;
    const { record } = read;
    const own = sessionFileName(record.where.key);
    const isReferenceCopy = name !== own && referenceFileName(record.where) === name;
    if (name !== own && (!isReferenceCopy || names.has(own))) continue;
    if (folder.expired(record)) {
      await folder.collect(record.where, own);
      continue;
    }
    try {
      yield { record, state: folder.decode(api, join(folder.directory, name), record, false) };
    } catch (error) {
      if (!(error instanceof SessionCorruptError)) throw error;
    }
  }
}
