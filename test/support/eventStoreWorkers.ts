import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';

/**
 * How a worker process ended, with everything it printed.
 *
 * @example
 * ```ts
 * const { code, out } = await run.done;
 * ```
 */
export interface WorkerExit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly out: string;
  readonly err: string;
}

/**
 * A running worker: `ready` resolves once it printed `ready` (and rejects if it exited first),
 * `go()` sends the line a `writers` worker waits for, `done` resolves when it has exited.
 *
 * @example
 * ```ts
 * const run = workers.start(['postgres', url, schema, 'batches', '0']);
 * await run.ready;
 * run.child.kill('SIGKILL');
 * ```
 */
export interface EventStoreWorker {
  readonly child: ChildProcessWithoutNullStreams;
  readonly ready: Promise<void>;
  readonly done: Promise<WorkerExit>;
  go(): void;
}

/**
 * The writer processes of the event store tests (test/support/eventStoreWorker.ts; its usage
 * says what the arguments are): the worker is bundled once per test file with esbuild, in
 * `beforeAll`, and started with plain node (under tsx a process costs about a second, which 50
 * SIGKILL rounds cannot afford, and a SIGKILL of the tsx CLI would leave its grandchild running).
 * The bundle is written inside the project (node_modules/.cache), so that it finds the optional
 * peers better-sqlite3 and pg in the project's node_modules; it is removed in `afterAll`.
 *
 * @example
 * ```ts
 * const workers = useEventStoreWorkers();
 * it('…', async () => {
 *   const run = workers.start(['sqlite', file, '-', 'writers', 'w0', '25']);
 *   await run.ready;
 *   run.go();
 *   expect((await run.done).code).toBe(0);
 * });
 * ```
 */
export const useEventStoreWorkers = (): { start(args: readonly string[]): EventStoreWorker } => {
  fs.mkdirSync('node_modules/.cache', { recursive: true });
  const dir = fs.mkdtempSync(path.join('node_modules/.cache', 'cm-worker-'));
  const file = path.resolve(dir, 'eventStoreWorker.mjs');
  beforeAll(async () => {
    await build({
      entryPoints: ['test/support/eventStoreWorker.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: file,
      external: ['better-sqlite3', 'pg'],
      logLevel: 'silent',
      banner: {
        js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      },
    });
  }, 30_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    start: (args) => {
      const child = spawn(process.execPath, [file, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      // A worker killed before it read its line must not fail the test with EPIPE.
      child.stdin.on('error', () => undefined);
      const done = new Promise<WorkerExit>((resolve) =>
        child.on('close', (code, signal) => resolve({ code, signal, out, err })),
      );
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('ready')) resolve();
        });
        void done.then((result) =>
          reject(new Error(`worker exited first: ${JSON.stringify(result)}`)),
        );
      });
      ready.catch(() => undefined);
      return { child, ready, done, go: () => child.stdin.write('go\n') };
    },
  };
};
