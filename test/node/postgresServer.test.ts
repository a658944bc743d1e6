/**
 * The test PostgreSQL (test/support/postgresServer.ts) itself: it starts from nothing, as an
 * unprivileged user when the tests run as root, survives a SIGKILL and a restart on the same
 * folder and port with its committed rows, and leaves nothing behind.
 */
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresTestServer,
  findPostgresBin,
  startPostgresServer,
} from '../support/postgresServer.js';

const query = async (url: string, text: string): Promise<unknown[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
};

/** The real uid of a process, from /proc (the server's, not the setpriv that started it). */
const uidOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith('Uid:'));
  return Number(line?.split(/\s+/)[1]);
};

describe('the test PostgreSQL server', () => {
  let server: PostgresTestServer;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 60_000);
  afterAll(async () => server?.stop());

  it('finds the binaries on PATH or under /usr/lib/postgresql', () => {
    expect(existsSync(`${findPostgresBin()}/postgres`)).toBe(true);
  });

  it('answers on loopback only, as nobody when the tests run as root', async () => {
    expect(server.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(await query(server.url, "SELECT current_setting('listen_addresses') AS a")).toEqual([
      { a: '127.0.0.1' },
    ]);
    const pid = server.pid();
    expect(pid).toBeGreaterThan(0);
    expect(uidOf(pid ?? 0)).toBe(process.getuid?.() === 0 ? 65534 : process.getuid?.());
  });

  it('keeps committed rows through a SIGKILL and a restart on the same port', async () => {
    await query(server.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    const port = server.port;
    await server.kill();
    expect(server.pid()).toBeUndefined();
    await expect(query(server.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await server.restart();
    expect(server.port).toBe(port);
    expect(await query(server.url, 'SELECT n FROM kept')).toEqual([{ n: 7 }]);
  }, 60_000);

  it('refuses connections after halt, and answers again after restart', async () => {
    await server.halt();
    await expect(query(server.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await server.restart();
    expect(await query(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  }, 60_000);

  it('removes its folder on stop', async () => {
    const other = await startPostgresServer();
    expect(existsSync(other.dataDir)).toBe(true);
    await other.stop();
    expect(existsSync(other.dataDir)).toBe(false);
    expect(other.pid()).toBeUndefined();
  }, 60_000);
});
