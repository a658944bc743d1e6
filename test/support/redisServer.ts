import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';

/**
 * A real Redis for the tests, on loopback: the one named by `REDIS_URL` when it is set, else a
 * `redis-server` started here on a free port, without persistence, and stopped by `stop()`.
 * There is no mock and no skip: when `redis-server` is not installed, `startRedisServer` throws
 * an error that says how to install it.
 */
export interface RedisTestServer {
  readonly url: string;
  /** The server process when this file started it (`undefined` for `REDIS_URL`). */
  readonly process: ChildProcess | undefined;
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'redis-server is not installed, and the Redis session tests need a real server: install it ' +
  'with `apt-get install redis-server` (Debian/Ubuntu; `brew install redis` on macOS), or set ' +
  'REDIS_URL to a running server (redis://127.0.0.1:6379/15)';

/** A port that was free a moment ago (the OS picks it). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

/**
 * The process id of the Redis that answers on this port (`INFO server`'s `process_id`, a raw
 * RESP exchange, no client library), or `undefined` when none answers. Compared with the child
 * started for a test, it tells that child from another file's server that took the same port
 * first: a PING alone cannot (both answer PONG), and a test that used the other file's server
 * lost its connections when that file stopped it.
 */
const answeringPid = (port: number): Promise<number | undefined> =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (pid: number | undefined) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(500, () => done(undefined));
    socket.on('error', () => done(undefined));
    socket.on('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      const found = /process_id:(\d+)\r\n/.exec(reply);
      if (found !== null) done(Number(found[1]));
      else if (reply.startsWith('-')) done(undefined);
    });
  });

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * Starts a server for one test file (or one test, with `{ own: true }`, which always starts a new
 * process even when `REDIS_URL` is set: for tests that kill or pause the server; `port` to restart
 * one on the port of a stopped one).
 */
export const startRedisServer = async (
  options: { readonly own?: boolean; readonly port?: number } = {},
): Promise<RedisTestServer> => {
  const given = process.env['REDIS_URL'];
  if (given !== undefined && given !== '' && options.own !== true) {
    return { url: given, process: undefined, stop: async () => undefined };
  }
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await startOn(port);
    } catch (error) {
      // Another process took the port between freePort() and the bind: try another one.
      const taken = error instanceof Error && error.message.includes('Address already in use');
      if (!taken || options.port !== undefined || attempt === 5) throw error;
    }
  }
};

/** Starts redis-server on `port` and waits until it answers (itself, by its process id). */
const startOn = async (port: number): Promise<RedisTestServer> => {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' ? new Error(INSTALL_HINT) : error);
    });
    child.once('exit', (code, signal) => {
      reject(new Error(`redis-server exited (${code ?? signal}) before answering:\n${output}`));
    });
  });
  failed.catch(() => undefined);
  const deadline = Date.now() + 10_000;
  const ready = (async () => {
    while (Date.now() < deadline) {
      // Ours, not another file's server that bound the port first (ours then fails to bind).
      if ((await answeringPid(port)) === child.pid) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`redis-server on port ${port} did not answer PING within 10 s:\n${output}`);
  })();
  try {
    await Promise.race([ready, failed]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    process: child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT'); // a test may have paused it; a paused process ignores SIGTERM
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited(child);
      clearTimeout(timer);
    },
  };
};
