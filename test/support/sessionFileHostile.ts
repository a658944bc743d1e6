/**
 * Hostile directory entries for the JSON file store's tests: FIFOs, sockets, symlink loops,
 * directories, huge sparse files, deeply nested JSON. And a guard that turns a hang into a test
 * failure (releasing any reader blocked on a FIFO, so the worker's thread pool is freed).
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** Kinds of entries that are not a session file, made at a session's (or a lock's) name. */
export const HOSTILE_KINDS = [
  'fifo',
  'socket',
  'symlinkLoop',
  'symlinkChainLoop',
  'danglingSymlink',
  'symlinkToFifo',
  'symlinkToSession',
  'directory',
  'directoryWithFile',
  'hugeSparseFile',
  'deepArray',
  'unclosedArray',
  'deepTimestamp',
] as const;

export type HostileKind = (typeof HOSTILE_KINDS)[number];

/** Nesting depth of the deep JSON made here: far beyond any recursive walker's stack. */
export const DEEP = 100_000;

/** `[[[…]]]`, `depth` levels, as text (never built as a value: printing it would overflow). */
export const deepArrayText = (depth = DEEP): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** `{"a":{"a":…{}}}`, `depth` levels, as text. */
export const deepObjectText = (depth = DEEP): string =>
  `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;

/** Makes a FIFO (Node has no mkfifo). */
export const makeFifo = (path: string): void => {
  execFileSync('mkfifo', [path]);
};

/** Makes a Unix socket file at `path` (listened on elsewhere, hard-linked here, then closed). */
export const makeSocket = async (path: string): Promise<void> => {
  const scratch = mkdtempSync(join(tmpdir(), 'cm-sock-'));
  const listening = join(scratch, 's');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(listening, resolve));
  linkSync(listening, path);
  await new Promise<void>((resolve) => server.close(() => resolve()));
};

/** A sparse file of `bytes` bytes (costs no disk and no memory to make). */
export const makeSparseFile = (path: string, bytes: number): void => {
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
};

/**
 * Makes a hostile entry of `kind` at `path`. `sessionText` is a valid session file's text (for a
 * symlink to a real session outside the directory); `hugeBytes` the size of the sparse file.
 */
export const makeHostileEntry = async (
  kind: HostileKind,
  path: string,
  options: { readonly sessionText: string; readonly hugeBytes: number },
): Promise<void> => {
  const name = basename(path);
  switch (kind) {
    case 'fifo':
      return makeFifo(path);
    case 'socket':
      return makeSocket(path);
    case 'symlinkLoop':
      return symlinkSync(name, path);
    case 'symlinkChainLoop':
      symlinkSync(`${name}.loop`, path);
      return symlinkSync(name, `${path}.loop`);
    case 'danglingSymlink':
      return symlinkSync(`${name}.nowhere`, path);
    case 'symlinkToFifo':
      makeFifo(`${path}.fifo`);
      return symlinkSync(`${name}.fifo`, path);
    case 'symlinkToSession': {
      const outside = join(mkdtempSync(join(tmpdir(), 'cm-outside-')), 'session.json');
      writeFileSync(outside, options.sessionText);
      return symlinkSync(outside, path);
    }
    case 'directory':
      mkdirSync(path);
      return;
    case 'directoryWithFile':
      mkdirSync(path);
      writeFileSync(join(path, 'inside.json'), options.sessionText);
      return;
    case 'hugeSparseFile':
      return makeSparseFile(path, options.hugeBytes);
    case 'deepArray':
      return writeFileSync(path, deepArrayText());
    case 'unclosedArray':
      return writeFileSync(path, '['.repeat(200_000));
    case 'deepTimestamp':
      return writeFileSync(
        path,
        options.sessionText.replace(/"created_at":[^,]*,/u, `"created_at":${deepArrayText()},`),
      );
  }
};

/** Opens and closes the write end of every FIFO in `directory`, waking readers blocked on them. */
const releaseFifos = (directory: string): void => {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    try {
      if (!lstatSync(path).isFIFO()) continue;
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody reads it (any more).
    }
  }
};

/**
 * `promise`, or a rejection `hung for more than <ms> ms: <label>` when it has not settled by then.
 * On a hang, readers blocked on FIFOs in `directory` are released (so that the hang fails the
 * test instead of leaving threads of the pool blocked for the rest of the run).
 */
export const settleWithin = async <T>(
  promise: Promise<T>,
  label: string,
  directory: string,
  ms = 5_000,
): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      promise.catch(() => undefined);
      // A few rounds: readers may reach their FIFO one after another.
      releaseFifos(directory);
      const release = setInterval(() => releaseFifos(directory), 20);
      void promise.finally(() => clearInterval(release)).catch(() => undefined);
      setTimeout(() => clearInterval(release), 5_000).unref();
      reject(new Error(`hung for more than ${ms} ms: ${label}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
};
