/**
 * The files and documents a scripted coding agent works on (pruning benchmark): YAML
 * configuration, TypeScript sources with a settings object, Markdown documents; each with a few
 * planted settings among ordinary lines, 150–600 tokens as `read_file` returns it (numbered
 * lines). The ordinary lines are drawn once per file, so reading a file twice gives the same text
 * unless one of its settings was edited in between. Searches return hits from the team's
 * documents, some of which state a fact.
 */
import { factText } from './factCatalog';

/** A file line: ordinary text, or the line that holds one setting (`key`). */
type FileLine = { readonly text: string } | { readonly key: string };

/**
 * One file of the workspace: its path, its format and its lines (settings by key).
 *
 * @example
 * ```ts
 * const file: WorkspaceFile = { path: 'config/app.yaml', format: 'yaml', lines: [{ text: 'service:' }, { key: 'retry_limit' }] };
 * ```
 */
export interface WorkspaceFile {
  readonly path: string;
  readonly format: 'yaml' | 'ts' | 'md';
  readonly lines: readonly FileLine[];
}

/**
 * The paths a workspace's files take, with their formats.
 *
 * @example
 * ```ts
 * FILE_PATHS[0]; // { path: 'config/app.yaml', format: 'yaml' }
 * ```
 */
export const FILE_PATHS: readonly { path: string; format: WorkspaceFile['format'] }[] = [
  { path: 'config/app.yaml', format: 'yaml' },
  { path: 'config/worker.yaml', format: 'yaml' },
  { path: 'deploy/values.yaml', format: 'yaml' },
  { path: 'infra/alerts.yaml', format: 'yaml' },
  { path: 'src/server/limits.ts', format: 'ts' },
  { path: 'src/jobs/scheduler.ts', format: 'ts' },
  { path: 'src/db/pool.ts', format: 'ts' },
  { path: 'docs/architecture.md', format: 'md' },
  { path: 'docs/operations.md', format: 'md' },
  { path: 'README.md', format: 'md' },
];

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

const VERBS = 'load|parse|validate|build|resolve|fetch|store|retry|schedule|flush|render|apply';
const NOUNS = 'Order|Invoice|Upload|Session|Batch|Payment|Refund|Customer|Webhook|Report|Token';
const TYPES = 'OrderInput|UploadRequest|SessionState|BatchJob|PaymentIntent|RefundRequest';
const PROSE = [
  'The service reads its settings once at startup and logs the effective values.',
  'Changes to these values go through a pull request reviewed by the owning team.',
  'Workers pull from the queue in batches and acknowledge each message after it is stored.',
  'Uploads larger than the limit are rejected before they reach the storage layer.',
  'The retry loop backs off exponentially and gives up after the configured number of attempts.',
  'Health checks run on every instance; two failures in a row take it out of rotation.',
  'Database connections are shared through a pool and returned after every request.',
  'Alerts page the on-call engineer only for errors that affect customers.',
  'Staging mirrors production settings except for the storage bucket and the log level.',
  'Every deploy is tagged, and a rollback redeploys the previous tag.',
  'Sessions expire after a period of inactivity and are refreshed on each request.',
  'The nightly job compacts old records and exports a summary for finance.',
  'Rate limiting is applied per client key, not per address.',
  'The cache is invalidated on writes and warmed by the first read after a deploy.',
];
const YAML_BLOCKS = [
  ['  endpoints:', '    - /healthz', '    - /v1/orders', '    - /v1/uploads'],
  ['  labels:', '    app: checkout-api', '    tier: backend'],
  ['  probes:', '    liveness: /healthz', '    readiness: /readyz'],
  ['  env:', '    - NODE_ENV', '    - DATABASE_URL', '    - QUEUE_URL'],
  ['  resources:', '    requests: small', '    limits: medium'],
  ['  tags: [payments, api, internal]'],
];

const verb = (random: () => number): string => pick(random, VERBS.split('|'));
const noun = (random: () => number): string => pick(random, NOUNS.split('|'));

/** A few lines of TypeScript: one small function. */
const tsBlock = (random: () => number): string[] => {
  const name = `${verb(random)}${noun(random)}`;
  const type = pick(random, TYPES.split('|'));
  const local = noun(random).toLowerCase();
  return [
    `export async function ${name}(input: ${type}, ctx: Context): Promise<${type}> {`,
    `  const ${local} = await ctx.repo.${verb(random)}(input.id);`,
    `  if (!${local}) throw new NotFoundError('${noun(random).toLowerCase()}', input.id);`,
    `  ctx.log.debug('${name} done', { id: input.id });`,
    `  return { ...input, updatedAt: ctx.clock.now() };`,
    '}',
    '',
  ];
};

/** Ordinary lines of a file's format, one block at a time. */
const fillerBlock = (random: () => number, format: WorkspaceFile['format']): string[] => {
  if (format === 'ts') return tsBlock(random);
  if (format === 'yaml') return [`# ${pick(random, PROSE)}`, ...pick(random, YAML_BLOCKS)];
  return [pick(random, PROSE), '', `## ${verb(random)} ${noun(random).toLowerCase()}s`, ''];
};

/**
 * A file with `keys` as its settings, its ordinary lines drawn from `random` until the file is
 * about `targetChars` characters long (the settings spread through it).
 *
 * @example
 * ```ts
 * const file = makeFile(createRandom(1), FILE_PATHS[0], ['retry_limit', 'region'], 1200);
 * ```
 */
export const makeFile = (
  random: () => number,
  place: { path: string; format: WorkspaceFile['format'] },
  keys: readonly string[],
  targetChars: number,
): WorkspaceFile => {
  const { path, format } = place;
  const head: FileLine[] =
    format === 'ts'
      ? [{ text: "import type { Context } from '../context';" }, { text: '' }]
      : format === 'yaml'
        ? [{ text: `# ${path}: owned by the platform team` }, { text: 'service:' }]
        : [{ text: `# ${path.replace(/\.md$/, '')}` }, { text: '' }];
  const blocks: FileLine[][] = [];
  let chars = head.reduce((sum, line) => sum + ('text' in line ? line.text.length : 0), 0);
  chars += keys.length * 24;
  while (chars < targetChars) {
    const block = fillerBlock(random, format);
    chars += block.reduce((sum, line) => sum + line.length + 6, 0);
    blocks.push(block.map((text) => ({ text })));
  }
  // The settings: in TypeScript one object, elsewhere spread among the blocks.
  const settings: FileLine[] = keys.map((key) => ({ key }));
  if (format === 'ts') {
    const object = [{ text: 'export const SETTINGS = {' }, ...settings, { text: '} as const;' }];
    const at = Math.floor(random() * (blocks.length + 1));
    blocks.splice(at, 0, [...object, { text: '' }]);
  } else {
    for (const setting of settings) {
      const block = blocks[Math.floor(random() * blocks.length)];
      // After a block's first line (a comment, a paragraph), before its structure.
      if (block === undefined) blocks.push([setting]);
      else block.splice(1, 0, setting);
    }
  }
  return { path, format, lines: [...head, ...blocks.flat()] };
};

/**
 * What `read_file` returns for `file` with the settings' current `values`: numbered lines.
 *
 * @example
 * ```ts
 * renderFile(file, new Map([['retry_limit', '3']])); // '   1| # config/app.yaml: …\n   2| service:\n   3|   retry_limit: 3'
 * ```
 */
export const renderFile = (file: WorkspaceFile, values: ReadonlyMap<string, string>): string =>
  file.lines
    .map((line, i) => {
      let text: string;
      if ('text' in line) text = line.text;
      else {
        const fact = factText({ key: line.key, value: values.get(line.key) ?? '' });
        text =
          file.format === 'ts' ? `  ${fact},` : file.format === 'yaml' ? `  ${fact}` : `- ${fact}`;
      }
      return `${String(i + 1).padStart(4)}| ${text}`;
    })
    .join('\n');

/**
 * A search of the team's documents: its query and the result text (hits that state facts among
 * others). The documents do not change, so the same search gives the same text.
 *
 * @example
 * ```ts
 * const search = makeSearch(createRandom(1), 'escalation policy', [{ key: 'sla_p1_minutes', value: '30' }]);
 * ```
 */
export interface DocumentSearch {
  readonly query: string;
  readonly result: string;
}

const DOCS =
  'docs/oncall.md|docs/runbooks/payments.md|docs/slo.md|docs/vendors.md|docs/adr/0012.md';

/**
 * A search whose hits state `facts` (one hit each) among two to four ordinary hits.
 *
 * @example
 * ```ts
 * makeSearch(createRandom(1), 'escalation policy', [{ key: 'sla_p1_minutes', value: '30' }]).result;
 * ```
 */
export const makeSearch = (
  random: () => number,
  query: string,
  facts: readonly { key: string; value: string }[],
): DocumentSearch => {
  const hit = (text: string): string =>
    `${pick(random, DOCS.split('|'))}:${1 + Math.floor(random() * 180)}: ${text}`;
  const hits = facts.map((fact) => hit(`- ${factText(fact)}`));
  const others = 2 + Math.floor(random() * 3);
  for (let i = 0; i < others; i++) {
    hits.splice(Math.floor(random() * (hits.length + 1)), 0, hit(pick(random, PROSE)));
  }
  return { query, result: `${hits.length} matches for "${query}":\n${hits.join('\n')}` };
};

/**
 * The queries an agent searches the documents with.
 *
 * @example
 * ```ts
 * SEARCH_QUERIES.includes('escalation policy'); // true
 * ```
 */
export const SEARCH_QUERIES: readonly string[] = [
  'escalation policy',
  'incident response',
  'latency objective',
  'backup and restore',
  'vendor contacts',
  'api deprecation',
  'on-call handbook',
  'data ownership',
];
