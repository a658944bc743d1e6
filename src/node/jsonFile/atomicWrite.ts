import { open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from './errorCode';

/** File systems and platforms that cannot fsync a directory say so with one of these. */
const NO_DIRECTORY_SYNC = new Set(['EISDIR', 'EINVAL', 'EPERM', 'ENOTSUP', 'EBADF']);

/**
 * Makes a directory's entries (a rename, an unlink) durable: fsync of the directory itself. A
 * no-op on Windows, and where the file system refuses to sync a directory.
 *
 * @example
 * ```ts
 * await syncDirectory('/data/sessions');
 * ```
 */
export const syncDirectory = async (directory: string): Promise<void> => {
  if (process.platform === 'win32') return;
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    if (!NO_DIRECTORY_SYNC.has(errorCode(error) as string)) throw error;
  } finally {
    await handle?.close();
  }
};

/**
 * Replaces `directory/name` with `text`, never leaving a torn file: writes the unique temp file
 * `directory/temp` (created exclusively), fsyncs it, asks `beforeCommit` (the lock check), renames
 * it over the target (atomic), and fsyncs the directory. Resolves `false`, having written nothing
 * and removed its temp file, when `beforeCommit` says no or the temp file was removed meanwhile
 * (a lock breaker judged this writer dead); any other I/O error rejects, the temp file removed.
 *
 * @example
 * ```ts
 * await writeFileAtomic('/data', 's1.json', `s1.json.${process.pid}-1a2b.tmp`, text, async () => true);
 * ```
 */
export const writeFileAtomic = async (
  directory: string,
  name: string,
  temp: string,
  text: string,
  beforeCommit: () => Promise<boolean>,
): Promise<boolean> => {
  const tempPath = join(directory, temp);
  try {
    const handle = await open(tempPath, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!(await beforeCommit())) {
      await unlink(tempPath);
      return false;
    }
    await rename(tempPath, join(directory, name));
  } catch (error) {
    try {
      await unlink(tempPath);
    } catch {
      // Already gone (renamed, or removed by a lock breaker): nothing to clean.
    }
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
  await syncDirectory(directory);
  return true;
};
