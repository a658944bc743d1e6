#!/usr/bin/env node
/**
 * The `conversation-memory` command (Node only): `conversation-memory inspect FILE [--at N
 * [--target T]] [--json | --html OUT]`. Everything but reading and writing files is in `runInspect`.
 */
import {
  closeSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// The version is put in at build time (esbuild keeps only this field of package.json), so the
// installed dist/cli.js needs no file beside it.
import { version } from '../../../package.json';
import { runInspect } from './inspect';

/** The built page, put in by tsup (`define`, see tsup.config.ts); absent when run from source. */
declare const __INSPECTOR_PAGE__: string | undefined;

const pageTemplate = (): string => {
  if (typeof __INSPECTOR_PAGE__ === 'string') return __INSPECTOR_PAGE__;
  // From source (tsx src/inspector/cli/main.ts): the page built by `npm run build:page`.
  const built = fileURLToPath(new URL('../../../build/inspector/index.html', import.meta.url));
  try {
    return readFileSync(built, 'utf8');
  } catch {
    throw new Error(`the inspector page is not built (${built}): run npm run build:page`);
  }
};

/** Whether two names are one file: the same path once resolved, or the same inode (links). */
const sameFile = (a: string, b: string): boolean => {
  if (resolve(a) === resolve(b)) return true;
  try {
    if (realpathSync(a) === realpathSync(b)) return true;
    const [sa, sb] = [statSync(a), statSync(b)];
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false; // one of them does not exist (yet): not the same file
  }
};

/** The first `bytes` bytes of a file, as Latin-1 text (a database's header). */
const readStart = (file: string, bytes: number): string => {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
};

const result = runInspect({
  argv: process.argv.slice(2),
  // Read only: the input file is never opened for writing.
  readText: (file) => readFileSync(file, { encoding: 'utf8', flag: 'r' }),
  isTTY: process.stdout.isTTY === true,
  env: process.env,
  pageTemplate,
  writeText: (file, text) => writeFileSync(file, text, { encoding: 'utf8' }),
  sameFile,
  version,
  readStart,
});
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;
