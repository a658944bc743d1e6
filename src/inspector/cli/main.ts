#!/usr/bin/env node
/**
 * The `conversation-memory` command (Node only): `conversation-memory inspect FILE [--at N]
 * [--json]`. Everything but reading the file and writing the output is in `runInspect`.
 */
import { readFileSync } from 'node:fs';
import { runInspect } from './inspect';

const result = runInspect({
  argv: process.argv.slice(2),
  // Read only: the input file is never opened for writing.
  readText: (file) => readFileSync(file, { encoding: 'utf8', flag: 'r' }),
  isTTY: process.stdout.isTTY === true,
  env: process.env,
});
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;
