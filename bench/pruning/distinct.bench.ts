/**
 * Distinct-content benchmark for pruning and masking (issue #19, part 3; offline, deterministic).
 *
 * Recorded coding-agent conversations (`agentConversations.ts`: 30 user turns; file reads
 * re-read, mostly unchanged and sometimes edited so that one value differs; searches repeated with
 * the same hits; test reports repeated; the user setting and updating values such as
 * `deadline: Friday 14:00`) are fed message by message (`addMessage`) into memories with
 * `toolPairs: 'strict'`, o200k_base and no message limit. At every turn's end the model view
 * (`modelView`, target `'openai'`) is computed under six configurations:
 *
 * - (a) `oldest` and (b) `redundant`: the memory keeps `maxTokens` B, the view sends at most B;
 * - (c) `oldest` and (d) `redundant`, each with `maskToolResults: { keepLast: 2 }` (masking by
 *   count), and the same two with `{ keepLast: 2, untilFits: true }` (masking to fit: only as far
 *   as the budget needs): the memory keeps 3 × B and the view is given `budget: B`.
 *
 * Fairness: the budget is what is SENT to the model per turn, and every view is built with
 * `budget: B`, so every configuration sends at most B tokens (the table shows the tokens sent; no
 * view went over). Masking changes the view, not the memory: under `maxTokens` B it could only
 * send less than B. Its memory keeps 3 × B so that the placeholders let the view reach further
 * back within the same B; what the memory keeps costs nothing per call. (With 10 × B the masked
 * views are the same or smaller: at keepLast 2 a masked conversation fits well within B.)
 *
 * Scores, per turn's end: a fact (`key: value`) is present when its text appears in a message the
 * view sends verbatim (a masked result's placeholder counts for nothing); distinct facts count
 * every value (old ones too); latest values: keys whose last stated value is present; stale-only:
 * keys present with old values only. "Latest lost" counts keys whose latest value the `oldest`
 * memory (same masking) or the `oldest` view (no masking) holds and this one does not.
 *
 * The upper bound: no view of B tokens can send more distinct facts than `factBound` (each fact
 * charged its cheapest message's tokens per fact), whatever its policy; a goal above it cannot
 * be met at that budget.
 *
 * Goals (the issue): `redundant + masking` ≥ 1.5× the distinct facts of `oldest` at the same
 * budget, and no updated value lost (every latest value the `oldest` memory holds, the
 * `redundant` memory holds too).
 *
 * Run: `npm run bench:pruning [conversations] [keepLast] [memoryFactor] [budgets]` (defaults 50,
 * 2, 3, `2000,4000`; the published table uses 200 conversations), from `src/`, or from the built
 * `dist/` with
 * `BENCH_DIST=1` (after `npm run build`). Prints the table and writes it to
 * `bench/results/pruning-distinct.md`.
 */
import type * as Library from '../../src/library';
import { describeValue } from '../../src/util/describeValue';
import { writeResult } from '../knowledge/writeResult';
import { AGENT_TURNS, scriptAgentConversation } from './agentConversations';
import { measureDistinctFacts, PRUNING_FIRST_SEED, type PruningLibrary } from './distinctScript';
import { distinctTable, goalLines } from './distinctTable';

const DIST: string = new URL('../../dist/library.js', import.meta.url).href;
const fromDist = process.env['BENCH_DIST'] === '1';
const lib = (fromDist ? await import(DIST) : await import('../../src/library')) as typeof Library;
await lib.loadTokenizer('o200k_base');

const budgetList = process.argv[5] ?? '2000,4000';
if (!/^[1-9][0-9]{0,6}(,[1-9][0-9]{0,6})*$/.test(budgetList)) {
  throw new Error(
    `bench:pruning: argument 4 must be budgets such as 2000,4000, received ${describeValue(budgetList)}`,
  );
}
const budgets = budgetList.split(',').map(Number);
const [conversations, keepLast, memoryFactor] = [50, 2, 3].map((fallback, i) => {
  const value = Number(process.argv[2 + i] ?? fallback);
  if (!Number.isSafeInteger(value) || value < (i === 1 ? 0 : 1)) {
    throw new Error(
      `bench:pruning: argument ${i + 1} must be an integer, received ${describeValue(process.argv[2 + i])}`,
    );
  }
  return value;
}) as [number, number, number];
const started = performance.now();
const reports = budgets.flatMap((budget) =>
  measureDistinctFacts({
    lib: lib satisfies PruningLibrary,
    conversations,
    budget,
    keepLast,
    memoryFactor,
  }),
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);

// How much of the file reads repeat an earlier read exactly (bytes; one agent's logs: 46%).
let readBytes = 0;
let repeatedBytes = 0;
for (let i = 0; i < conversations; i++) {
  const seen = new Set<string>();
  for (const turn of scriptAgentConversation(PRUNING_FIRST_SEED + i).turns) {
    for (const message of turn.messages) {
      if (message.toolName !== 'read_file') continue;
      const content = message.content ?? '';
      readBytes += content.length;
      if (seen.has(content)) repeatedBytes += content.length;
      seen.add(content);
    }
  }
}
const repeatShare = readBytes === 0 ? 0 : Math.round((100 * repeatedBytes) / readBytes);

const text = `# Distinct-content benchmark: pruning and masking

Generated by \`npm run bench:pruning ${conversations} ${keepLast} ${memoryFactor} ${budgets.join(',')}\` (${fromDist ? 'built dist/' : 'src/'}, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${seconds} s).

${conversations} recorded coding-agent conversations of ${AGENT_TURNS} user turns (\`bench/pruning/\`): files read and
re-read (the same text, or an edited version where one value changed), searches repeated with the
same hits, test reports, the user setting and updating values. Fed message by message into
memories (\`toolPairs: 'strict'\`, o200k_base); at each turn's end, the model view (\`'openai'\`)
with \`budget\` B, the tokens sent per call. Without masking the memory keeps B tokens; with
masking it keeps ${memoryFactor} × B and the view sends at most B: "masking" is \`maskToolResults: { keepLast: ${keepLast} }\`
(every older result masked), "masking to fit" is \`{ keepLast: ${keepLast}, untilFits: true }\` (masked only as far
as B needs). A fact (\`key: value\`) counts when a message sent verbatim contains it; masked
results count for nothing. The upper bound is the most distinct facts any view of B tokens could
send, whatever its policy (each fact charged its cheapest message's tokens per fact; see
\`factBound\` in \`distinctScript.ts\`). Columns with "(sum)" add up keys over all turn ends; the
others are means per turn end. Of the bytes of \`read_file\` results, ${repeatShare}% repeat an earlier read
exactly (one coding agent's logs, as published: 46%).

${distinctTable(reports)}

Goals:

${goalLines(reports).join('\n')}
`;
console.log(`\n${text}`);
await writeResult('pruning-distinct.md', text);
