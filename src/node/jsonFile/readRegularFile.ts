import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { errorCode } from './errorCode';

/**
 * The default largest session file a {@link JsonFileSessionStore} reads or writes: 128 MiB.
 * Several times what one model request can carry (providers cap requests at tens of MB, images
 * included), and a quarter of the longest string Node can make (a 512 MiB file cannot even be
 * decoded to text).
 *
 * @example
 * ```ts
 * DEFAULT_MAX_FILE_BYTES; // 134217728
 * ```
 */
export const DEFAULT_MAX_FILE_BYTES = 128 * 2 ** 20;

/**
 * What {@link readRegularFile} found at a path: nothing, a regular file's text (and when it was
 * last modified), or an entry it would not read, with the reason (`a FIFO (named pipe)`).
 *
 * @example
 * ```ts
 * const read: EntryRead = { kind: 'foreign', what: 'a directory', tooLarge: false };
 * ```
 */
export type EntryRead =
  | { readonly kind: 'absent' }
  | { readonly kind: 'text'; readonly text: string; readonly mtimeMs: number }
  | { readonly kind: 'foreign'; readonly what: string; readonly tooLarge: boolean };

/**
 * Non-blocking (a FIFO opens at once instead of waiting for a writer, holding a thread of libuv's
 * pool), and not following a symlink at the last component (where the platform can say so).
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** What an entry that cannot be opened for reading is, by the error of `open`. */
const OPEN_REFUSALS: Readonly<Record<string, string>> = {
  // O_NOFOLLOW's answer for a symlink (and the answer for a loop of them where links are followed).
  ELOOP: 'a symbolic link (the store does not follow links at session names)',
  EISDIR: 'a directory',
  // A Unix socket, or a device with no driver behind it.
  ENXIO: 'a socket or a device',
  EOPNOTSUPP: 'a socket',
};

/** What a stat of an opened entry says it is, when it is not a regular file. */
const kindOf = (stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string => {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
};

/** A file over the limit (one that grew past it while being read counts `maxBytes + 1`). */
const tooLarge = (bytes: number, maxBytes: number): EntryRead => ({
  kind: 'foreign',
  what: `${bytes} bytes, over the limit of ${maxBytes}`,
  tooLarge: true,
});

/** Reads at most `limit` bytes from the start of an opened file (it may grow or shrink meanwhile). */
const readUpTo = async (handle: FileHandle, size: number, limit: number): Promise<Buffer> => {
  let buffer = Buffer.allocUnsafe(Math.min(size + 1, limit));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length >= limit) break;
      const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(2 * length, 64 * 1024)));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
};

/**
 * Reads a directory entry as UTF-8 text only if it is a regular file of at most `maxBytes` bytes,
 * checked on the opened handle and read through it (no gap between the check and the read). A
 * FIFO, socket, device or directory, a symlink (not followed where `O_NOFOLLOW` exists, so a link
 * loop is one too), or a larger file is `foreign`, with what it is; nothing is read from it and no
 * thread waits on it. Other I/O errors (permissions) reject.
 *
 * @param path - the entry
 * @param maxBytes - the largest file read, in bytes
 * @example
 * ```ts
 * const read = await readRegularFile('/data/s1.json', DEFAULT_MAX_FILE_BYTES);
 * if (read.kind === 'text') JSON.parse(read.text);
 * ```
 */
export const readRegularFile = async (path: string, maxBytes: number): Promise<EntryRead> => {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return { kind: 'absent' };
    const what = typeof code === 'string' ? OPEN_REFUSALS[code] : undefined;
    if (what !== undefined) return { kind: 'foreign', what, tooLarge: false };
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'foreign', what: kindOf(stats), tooLarge: false };
    if (stats.size > maxBytes) return tooLarge(stats.size, maxBytes);
    const bytes = await readUpTo(handle, stats.size, maxBytes + 1);
    if (bytes.length > maxBytes) return tooLarge(bytes.length, maxBytes);
    return { kind: 'text', text: bytes.toString('utf8'), mtimeMs: stats.mtimeMs };
  } catch (error) {
    // EISDIR from a read: a directory the stat did not call one (some file systems).
    if (errorCode(error) === 'EISDIR')
      return { kind: 'foreign', what: 'a directory', tooLarge: false };
    throw error;
  } finally {
    await handle.close();
  }
};
