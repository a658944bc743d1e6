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
import { version } from '../../package.json';
import { runInspect } from '../inspector/cli/inspect';

/** The built page, put in by tsup (`define`, see tsup.config.ts); absent when run from source. */
declare const __INSPECTOR_PAGE__: string | undefined;

const pageTemplate = (): string => {
  if (typeof __INSPECTOR_PAGE__ === 'string') return __INSPECTOR_PAGE__;
  // From source (tsx src/cli/main.ts): the page built by `npm run build:page`.
  const built = fileURLToPath(new URL('../../build/inspector/index.html', import.meta.url));
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

if (process.argv[2] === 'mcp') {
  // The MCP server (src/mcp/cli): loaded only for this command, with its optional peer.
  // The bin is the top of everything; `mcp` is a command of it, loaded only when asked for.
  const { runMcpCommand } = await import('../mcp/cli/runMcpCommand');
  process.exitCode = await runMcpCommand(
    process.argv.slice(3),
    (text) => process.stderr.write(text),
    {
      // By the package's name, at run time: the bin bundles neither the stores' optional peers
      // nor the MCP SDK, which `inspect` does not need.
      sqliteStore: async (path) => {
        const { SqliteKnowledgeStore } = await import('conversation-memory/node');
        return new SqliteKnowledgeStore({ path });
      },
      redisStore: async (url) => {
        const { RedisKnowledgeStore } = await import('conversation-memory/node');
        return new RedisKnowledgeStore({ url });
      },
      postgresStore: async (connectionString) => {
        const { PostgresKnowledgeStore } = await import('conversation-memory/node');
        return new PostgresKnowledgeStore({ connectionString });
      },
      serveHttp: async (store, namespace, port, host) => {
        const { serveMcpHttp } = await import('conversation-memory/mcp');
        return serveMcpHttp({ store, namespace, port, host });
      },
      stopRequested: () =>
        new Promise((done) => {
          process.once('SIGINT', () => done());
          process.once('SIGTERM', () => done());
        }),
      serveStdio: async (store, namespace) => {
        const { createMemoryMcpServer } = await import('conversation-memory/mcp');
        const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
        const server = createMemoryMcpServer({ store, namespace });
        const closed = new Promise<void>((done) => {
          const before = server.onclose;
          server.onclose = () => {
            before?.();
            done();
          };
        });
        await server.connect(new StdioServerTransport());
        // The client closing its end of stdin ends the session.
        process.stdin.once('end', () => void server.close());
        await closed;
      },
    },
    (text) => process.stdout.write(text),
  );
} else {
  runInspectCommand();
}

function runInspectCommand(): void {
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
}
