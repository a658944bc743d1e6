import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The observations {@link writeLogConcurrently} adds: `entry 0` to `entry n-1`, sorted. */
export const logEntries = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `entry ${i}`).sort();

/**
 * Creates the entity `Log` through the first client, then adds `n` observations (`entry i`) at
 * once, the i-th through client `i % clients.length`: writers racing on one graph, for the tests
 * that no update is lost.
 */
export const writeLogConcurrently = async (clients: readonly Client[], n: number) => {
  await clients[0]?.callTool({
    name: 'create_entities',
    arguments: { entities: [{ name: 'Log', entityType: 'list', observations: [] }] },
  });
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      clients[i % clients.length]?.callTool({
        name: 'add_observations',
        arguments: { observations: [{ entityName: 'Log', contents: [`entry ${i}`] }] },
      }),
    ),
  );
};
