import { link, lstat, rename, unlink } from 'node:fs/promises';
import { errorCode } from './errorCode';

/** How file systems without hard links (FAT, some network and FUSE mounts) refuse `link`. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

const isAbsent = async (path: string): Promise<boolean> => {
  try {
    await lstat(path);
    return false;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return true;
    throw error;
  }
};

/**
 * Moves the entry at `from` to `to` only if nothing is at `to`: a hard link (which fails rather
 * than replace anything), then the old name removed. Where the file system has no hard links, a
 * rename once `to` is seen absent (the caller holds the lock that keeps other writers of `to`
 * out). Resolves `false`, having moved nothing, when `to` exists.
 *
 * @example
 * ```ts
 * if (!(await moveWithoutOverwriting('/data/a:b.json', '/data/%a%253ab.json'))) { … } // keep it aside instead
 * ```
 */
export const moveWithoutOverwriting = async (from: string, to: string): Promise<boolean> => {
  try {
    await link(from, to);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code as string)) throw error;
    if (!(await isAbsent(to))) return false;
    await rename(from, to);
    return true;
  }
  try {
    await unlink(from);
  } catch (error) {
    // Removed meanwhile: the move is done all the same.
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  return true;
};
