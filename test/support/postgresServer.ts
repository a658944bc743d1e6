import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './redisServer.js';

/**
 * A real PostgreSQL for the tests, on loopback: `initdb` into a fresh folder under the system's
 * temporary folder, and `postgres` on a free port of 127.0.0.1 (its socket inside the data folder,
 * `fsync` off: a test server needs no durability against power loss, while a commit is still
 * written before it is acknowledged, so it survives a SIGKILL of the server). PostgreSQL refuses to run as
 * root, so when the tests do, the server runs as the user nobody (`setpriv`), and its folder is
 * under `os.tmpdir()` owned by that user (a clone in a 0700 folder is not reachable by nobody).
 * There is no mock and no skip: without the binaries `startPostgresServer` throws an error that
 * says how to install them.
 *
 * @example
 * ```ts
 * const server = await startPostgresServer();
 * const pool = new pg.Pool({ connectionString: server.url });
 * // ... the tests ...
 * await pool.end();
 * await server.stop();
 * ```
 */
export interface PostgresTestServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  readonly url: string;
  readonly port: number;
  /** The data folder (kept by `kill`, removed by `stop`). */
  readonly dataDir: string;
  /** The postmaster's process id while it runs. */
  pid(): number | undefined;
  /**
   * A crash: SIGKILL of the postmaster and every backend at once, as when a container or the
   * machine goes down (no shutdown at all: queries in flight are cut, what had committed is kept,
   * and the next start recovers from the WAL).
   */
  kill(): Promise<void>;
  /** Starts the server again on the same folder and port, after `kill` or `halt`. */
  restart(): Promise<void>;
  /** A fast shutdown (SIGINT), keeping the folder: connections are refused until `restart`. */
  halt(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'PostgreSQL is not installed, and the Postgres store tests need a real server: install it ' +
  'with `apt-get install postgresql` (Debian/Ubuntu: the binaries go to ' +
  '/usr/lib/postgresql/<version>/bin, found there without PATH; `brew install postgresql` on ' +
  'macOS)';

/** The number in `/usr/lib/postgresql/<version>`, for picking the newest. */
const versionOf = (name: string): number => Number.parseFloat(name) || 0;

/** The folder of `initdb` and `postgres`: on PATH first, else the newest Debian version. */
export const findPostgresBin = (): string => {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (
      dir !== '' &&
      existsSync(path.join(dir, 'initdb')) &&
      existsSync(path.join(dir, 'postgres'))
    )
      return dir;
  }
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((name) => existsSync(path.join(debian, name, 'bin', 'initdb')))
        .sort((a, b) => versionOf(b) - versionOf(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) throw new Error(INSTALL_HINT);
  return path.join(debian, newest, 'bin');
};

/** nobody's ids when the tests run as root (PostgreSQL refuses root), else none. */
const NOBODY = 65534;
const asRoot = (): boolean => process.getuid?.() === 0;

/** A command as the server's user: through `setpriv` (which execs, so the pid is the server's). */
const asServerUser = (command: string, args: readonly string[]): [string, string[]] =>
  asRoot()
    ? [
        'setpriv',
        [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', command, ...args],
      ]
    : [command, [...args]];

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/** Whether the server answers a query (a real client, so "starting up" is not "ready"). */
const answers = async (url: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
};

/**
 * The processes whose parent is `pid` (Linux's /proc; `pgrep -P` elsewhere), or none when it has
 * exited.
 */
const childrenOf = (pid: number): number[] => {
  if (existsSync('/proc')) {
    const children: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/u.test(entry)) continue;
      try {
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so after the last ')'.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === pid) children.push(Number(entry));
      } catch {
        // exited meanwhile
      }
    }
    return children;
  }
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line !== '')
      .map(Number);
  } catch {
    return [];
  }
};

/**
 * SIGKILLs the postmaster `child` and its backends together: the postmaster is stopped first
 * (SIGSTOP), so that it starts no backend and its backends keep it as their parent while they are
 * listed, then every one of them is killed.
 */
const crash = async (child: ChildProcess): Promise<void> => {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGSTOP');
  for (const backend of childrenOf(pid)) {
    try {
      process.kill(backend, 'SIGKILL');
    } catch {
      // exited meanwhile
    }
  }
  child.kill('SIGKILL');
  await exited(child);
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Makes the data folder with `initdb`, as the server's user. */
const initialize = (bin: string, root: string, dataDir: string): void => {
  if (asRoot()) chownSync(root, NOBODY, NOBODY);
  chmodSync(root, 0o700);
  const [command, args] = asServerUser(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  try {
    execFileSync(command, args, { cwd: root, stdio: 'pipe' });
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`initdb failed in ${dataDir}:\n${output}`, { cause: error });
  }
};

/** One `postgres` process on the folder; resolves when it answers a query. */
const launch = async (bin: string, dataDir: string, port: number): Promise<ChildProcess> => {
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const [command, args] = asServerUser(path.join(bin, 'postgres'), [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    dataDir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=60',
  ]);
  const child = spawn(command, args, { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(INSTALL_HINT) : error),
    );
    child.once('exit', (code, signal) =>
      reject(new Error(`postgres exited (${code ?? signal}) before answering:\n${output}`)),
    );
  });
  failed.catch(() => undefined);
  const ready = (async () => {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (await answers(url)) return;
      await sleep(50);
    }
    throw new Error(`postgres on port ${port} did not answer within 20 s:\n${output}`);
  })();
  try {
    await Promise.race([ready, failed]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
};

/**
 * Starts a server for one test file; `stop()` in `afterAll` removes everything. `kill` and
 * `restart` are for the tests of a server that dies mid-call.
 */
export const startPostgresServer = async (): Promise<PostgresTestServer> => {
  const bin = findPostgresBin();
  const root = mkdtempSync(path.join(tmpdir(), 'cm-pg-'));
  const dataDir = path.join(root, 'data');
  let child: ChildProcess | undefined;
  try {
    initialize(bin, root, dataDir);
    const port = await freePort();
    child = await launch(bin, dataDir, port);
    const server: PostgresTestServer = {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dataDir,
      pid: () => (child?.exitCode === null && child.signalCode === null ? child.pid : undefined),
      kill: async () => {
        if (child !== undefined) await crash(child);
      },
      halt: async () => {
        if (child === undefined) return;
        child.kill('SIGINT');
        const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
        await exited(child);
        clearTimeout(timer);
      },
      restart: async () => {
        if (child !== undefined) await server.kill();
        // Until the old backends have exited, the shared memory is still attached and a new
        // postmaster refuses to start: try again for a while.
        const deadline = Date.now() + 20_000;
        for (;;) {
          try {
            child = await launch(bin, dataDir, port);
            return;
          } catch (error) {
            if (Date.now() > deadline) throw error;
            await sleep(200);
          }
        }
      },
      stop: async () => {
        await server.halt();
        rmSync(root, { recursive: true, force: true });
      },
    };
    return server;
  } catch (error) {
    child?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
};
