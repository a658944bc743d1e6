import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redisServer';

/**
 * A real Redis Cluster for the tests, on loopback: three masters and one replica each, started
 * here as `redis-server --cluster-enabled yes` processes in a temporary directory (no
 * persistence), joined by `redis-cli --cluster create … --cluster-replicas 1`, with a short
 * `cluster-node-timeout` (1 s) so that a failover takes a few seconds. There is no mock and no
 * skip: when `redis-server` or `redis-cli` is missing, {@link startRedisCluster} says how to
 * install them. Admin commands go through `redis-cli` (a fresh process each, so a dead node only
 * fails its own command).
 */
export interface RedisTestCluster {
  /** `{ url }` per node, as `createCluster({ rootNodes })` and the stores' `cluster` take them. */
  readonly rootNodes: readonly { readonly url: string }[];
  /** The slot of `key`, as the server computes it (`CLUSTER KEYSLOT`). */
  slotOf(key: string): Promise<number>;
  /** Who serves each slot now, as a live node sees it: slot → the master's port. */
  slotOwners(): Promise<(slot: number) => number>;
  /** The port of the master serving `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** The ports of the masters that serve slots now. */
  masters(): Promise<readonly number[]>;
  /** Kills a node with SIGKILL (it hands nothing over). */
  kill(port: number): Promise<void>;
  /** Starts a killed node again on its port, with its cluster state: it rejoins as a replica. */
  restart(port: number): Promise<void>;
  /**
   * Resolves once every live node says `cluster_state:ok`, every slot's master is alive, and
   * every live replica has synced with its master.
   */
  waitHealthy(ms?: number): Promise<void>;
  /** Runs one command on the node at `port`: its reply as text, `null` if the node is down. */
  command(port: number, args: readonly string[]): Promise<string | null>;
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'redis-server and redis-cli are needed for the Redis Cluster tests: install them with ' +
  '`apt-get install redis-server` (Debian/Ubuntu; redis-cli comes with it in redis-tools)';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const isAlive = (child: ChildProcess): boolean =>
  child.exitCode === null && child.signalCode === null;

const exited = (child: ChildProcess): Promise<void> =>
  isAlive(child)
    ? new Promise((resolve) => child.once('exit', () => resolve()))
    : Promise.resolve();

/** One command through `redis-cli` on `port`: its reply as text, `null` when the node is down. */
const commandOn = async (port: number, args: readonly string[]): Promise<string | null> => {
  try {
    const { stdout } = await run(
      'redis-cli',
      ['-h', '127.0.0.1', '-p', String(port), '--raw', ...args],
      { timeout: 3000 },
    );
    return stdout.replace(/\n$/, '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(INSTALL_HINT, { cause: error });
    }
    return null;
  }
};

/** `CLUSTER NODES` as one node sees it: each node's port, flags and slot ranges. */
const clusterNodes = async (port: number) => {
  const text = await commandOn(port, ['CLUSTER', 'NODES']);
  if (text === null || text === '') return undefined;
  return text.split('\n').map((line) => {
    const [, address, flags, , , , , , ...slots] = line.split(' ');
    return {
      port: Number(/:(\d+)@/.exec(address ?? '')?.[1]),
      flags: (flags ?? '').split(','),
      ranges: slots
        .filter((range) => !range.startsWith('['))
        .map((range) => range.split('-').map(Number) as [number, number?]),
    };
  });
};

/** The arguments of one node: cluster mode, fast failure detection, no persistence. */
const nodeArgs = (dir: string, port: number, bus: number): string[] => [
  ...['--port', String(port), '--cluster-port', String(bus), '--bind', '127.0.0.1'],
  ...['--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${port}.conf`)],
  ...['--cluster-node-timeout', '1000', '--dir', dir, '--save', '', '--appendonly', 'no'],
  // Replicas sync at once (the default waits 5 s for more replicas), and a replica may always
  // take over, however long its link was down.
  ...['--repl-diskless-sync-delay', '0', '--cluster-replica-validity-factor', '0'],
];

/** A node could not bind its port or bus port: another process took it after `freePort()`. */
class PortTaken extends Error {
  constructor(port: number) {
    super(`port ${port} (or its cluster bus port) was taken before redis-server could bind it`);
  }
}

/** Starts 3 masters with a replica each, joins them, and waits until the cluster is healthy. */
export const startRedisCluster = async (): Promise<RedisTestCluster> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-redis-cluster-'));
  const nodes = new Map<number, { child: ChildProcess; args: string[] }>();
  const live = () => [...nodes].filter(([, node]) => isAlive(node.child)).map(([port]) => port);

  const launch = async (port: number, args: string[]): Promise<void> => {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    nodes.set(port, { child, args });
    await new Promise<void>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'ENOENT' ? new Error(INSTALL_HINT, { cause: error }) : error),
      );
      child.once('spawn', () => resolve());
    });
    const deadline = Date.now() + 10_000;
    while ((await commandOn(port, ['PING'])) !== 'PONG') {
      if (Date.now() > deadline || !isAlive(child)) {
        if (!isAlive(child) && log.includes('Address already in use')) {
          // Another process took the port between freePort() and the bind: try other ports.
          nodes.delete(port);
          throw new PortTaken(port);
        }
        throw new Error(`redis-server on ${port} did not start:\n${log}`);
      }
      await sleep(20);
    }
  };

  // A test process that ends without stop() (an interrupted run) leaves no node behind.
  const killAll = () => {
    for (const { child } of nodes.values()) if (isAlive(child)) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const stop = async () => {
    process.off('exit', killAll);
    await Promise.all(
      [...nodes.values()].map(async ({ child }) => {
        if (!isAlive(child)) return;
        child.kill('SIGCONT');
        child.kill('SIGKILL');
        await exited(child);
      }),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const slotOwners = async (): Promise<(slot: number) => number> => {
    for (const port of live()) {
      const view = await clusterNodes(port);
      if (view === undefined) continue;
      const owners = new Array<number>(16_384).fill(0);
      for (const node of view) {
        if (!node.flags.includes('master') || node.flags.includes('fail')) continue;
        for (const [from, to = from] of node.ranges) owners.fill(node.port, from, to + 1);
      }
      return (slot) => owners[slot] as number;
    }
    throw new Error('no live node answers CLUSTER NODES');
  };

  const cluster: RedisTestCluster = {
    rootNodes: [],
    slotOf: async (key) =>
      Number(await commandOn(live()[0] as number, ['CLUSTER', 'KEYSLOT', key])),
    slotOwners,
    masterOf: async (key) => (await slotOwners())(await cluster.slotOf(key)),
    masters: async () => {
      const owners = await slotOwners();
      return [...new Set(Array.from({ length: 16_384 }, (_, slot) => owners(slot)))];
    },
    kill: async (port) => {
      const node = nodes.get(port);
      if (node === undefined) throw new Error(`no node on ${port}`);
      node.child.kill('SIGKILL');
      await exited(node.child);
    },
    restart: async (port) => {
      const node = nodes.get(port);
      if (node === undefined || isAlive(node.child)) throw new Error(`no dead node on ${port}`);
      await launch(port, node.args);
    },
    waitHealthy: async (ms = 20_000) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const ports = live();
        const infos = await Promise.all(
          ports.map(async (port) =>
            [
              await commandOn(port, ['CLUSTER', 'INFO']),
              await commandOn(port, ['INFO', 'replication']),
            ].join('\n'),
          ),
        );
        const views = await Promise.all(ports.map((port) => clusterNodes(port)));
        const healthy =
          infos.every(
            (info) =>
              info.includes('cluster_state:ok') &&
              (info.includes('role:master') || info.includes('master_link_status:up')),
          ) &&
          views.every(
            (view) =>
              view !== undefined &&
              view
                .filter((node) => node.flags.includes('master') && node.ranges.length > 0)
                .every((node) => ports.includes(node.port) && !node.flags.includes('fail')),
          );
        if (healthy) return;
        if (Date.now() > deadline) {
          throw new Error(
            `the cluster did not become healthy within ${ms} ms:\n${infos.join('\n')}`,
          );
        }
        await sleep(100);
      }
    },
    command: commandOn,
    stop,
  };

  try {
    for (let i = 0; i < 6; i++) {
      for (let attempt = 1; ; attempt++) {
        const [port, bus] = [await freePort(), await freePort()];
        try {
          await launch(port, nodeArgs(dir, port, bus));
          break;
        } catch (error) {
          if (!(error instanceof PortTaken) || attempt === 5) throw error;
        }
      }
    }
    const ports = [...nodes.keys()];
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? new Error(INSTALL_HINT, { cause: error }) : error;
    });
    await cluster.waitHealthy();
    return { ...cluster, rootNodes: ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })) };
  } catch (error) {
    await stop();
    throw error;
  }
};
