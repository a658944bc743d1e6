/**
 * A worker process of the cache benchmark: measures the conversations it is given (`from`, `count`,
 * `turns`) and sends its reports back over IPC (`cache.bench.ts` splits the conversations over workers).
 */
import { loadTokenizer } from '../../src/library';
import { measureCache } from './cacheScript';

const { from, count, turns } = JSON.parse(process.argv[2] ?? '{}') as {
  from: number;
  count: number;
  turns: number;
};
await loadTokenizer('o200k_base');
const reports = await measureCache({ conversations: count, from, turns });
// Disconnect once the reports are sent (disconnecting at once could drop them).
process.send?.(reports, () => process.disconnect());
