import { createClient } from 'redis';

/** One command as `MONITOR` showed it: who sent it (`lua` for a script's own calls) and its words. */
export interface MonitoredCommand {
  readonly from: string;
  readonly args: readonly string[];
}

/** `1700000000.123456 [0 127.0.0.1:5555] "EVALSHA" "…"` → its sender and its words. */
const parseLine = (line: string): MonitoredCommand | undefined => {
  const match = /^\d+\.\d+ \[\d+ ([^\]]+)\] (.*)$/s.exec(line);
  if (match === null) return undefined;
  const args = [...(match[2] as string).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    (m[1] as string).replace(/\\(.)/g, '$1'),
  );
  return { from: match[1] as string, args };
};

/**
 * Runs `run` while a `MONITOR` connection records every command the server executes, and while
 * another connection sends `ECHO marker` in a loop (a client that keeps wanting the server): the
 * commands in the order the server ran them, so a test can tell whether other clients' commands
 * ran between the ones `run` caused (the server was never held for the whole of it).
 *
 * @example
 * ```ts
 * const { commands } = await monitored(url, 'tick', () => store.sweep());
 * ```
 */
export const monitored = async <T>(
  url: string,
  marker: string,
  run: () => Promise<T>,
): Promise<{ result: T; commands: MonitoredCommand[] }> => {
  const monitor = createClient({ url });
  const other = createClient({ url });
  monitor.on('error', () => undefined);
  other.on('error', () => undefined);
  await Promise.all([monitor.connect(), other.connect()]);
  const lines: string[] = [];
  await monitor.monitor((line) => lines.push(String(line)));
  let going = true;
  const ticking = (async () => {
    while (going) await other.echo(marker);
  })();
  try {
    const result = await run();
    going = false;
    await ticking;
    // The last commands reach the monitor after their replies: one round trip more.
    await other.echo(`${marker}-end`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const commands = lines.flatMap((line) => parseLine(line) ?? []);
    return { result, commands };
  } finally {
    going = false;
    monitor.destroy();
    other.destroy();
  }
};
