/**
 * The pruning benchmark's driver: feeds recorded agent conversations (`agentConversations.ts`)
 * message by message into memories under each configuration, and at every turn's end scores the
 * model view (what the next call sends) and the retained memory against the conversation's facts.
 */
import type * as Library from '../../src/library';
import type { MemoryState, Message, PrunePolicy } from '../../src/library';
import { type AgentConversation, scriptAgentConversation } from './agentConversations';
import type { FactCatalog } from './factCatalog';

/**
 * What the driver needs of the library (the source or the built `dist/`).
 *
 * @example
 * ```ts
 * const lib: PruningLibrary = await import('../../src/library');
 * ```
 */
export type PruningLibrary = Pick<
  typeof Library,
  'createMemory' | 'addMessage' | 'modelView' | 'countMessageTokens'
>;

/**
 * One configuration under test: the memory's pruning policy, and whether the view masks tool
 * results (`keepLast`, and with `untilFits` only as far as the budget needs). A masking
 * configuration keeps `memoryFactor` × the budget in memory and sends the budget (see the
 * benchmark's header); the others keep and send the budget.
 *
 * @example
 * ```ts
 * const config: DistinctConfig = { name: 'redundant + masking', prune: 'redundant', mask: true };
 * ```
 */
export interface DistinctConfig {
  readonly name: string;
  readonly prune: PrunePolicy;
  readonly mask: boolean;
  readonly untilFits?: boolean;
}

/**
 * The four configurations of the issue, (a) oldest, (b) redundant, (c) oldest + masking and
 * (d) redundant + masking (by count: `keepLast`), then (c) and (d) masking to fit
 * (`untilFits`).
 *
 * @example
 * ```ts
 * DISTINCT_CONFIGS.map((c) => c.name); // ['oldest', 'redundant', 'oldest + masking', 'redundant + masking', 'oldest + masking to fit', 'redundant + masking to fit']
 * ```
 */
export const DISTINCT_CONFIGS: readonly DistinctConfig[] = [
  { name: 'oldest', prune: 'oldest', mask: false },
  { name: 'redundant', prune: 'redundant', mask: false },
  { name: 'oldest + masking', prune: 'oldest', mask: true },
  { name: 'redundant + masking', prune: 'redundant', mask: true },
  { name: 'oldest + masking to fit', prune: 'oldest', mask: true, untilFits: true },
  { name: 'redundant + masking to fit', prune: 'redundant', mask: true, untilFits: true },
];

/**
 * The scores of one configuration over a set of conversations, summed over every turn's end:
 *
 * - `distinct`: distinct facts (`key: value`, old values included) in the view's messages sent
 *   verbatim (a masked result counts for nothing);
 * - `latest`: keys whose latest value (the last one the conversation stated) is in the view;
 * - `staleOnly`: keys in the view with old values only;
 * - `lostInMemory`: keys whose latest value the baseline's memory holds and this memory does not
 *   (the baseline: the configuration with the same masking and `prune: 'oldest'`);
 * - `lostInView`: keys whose latest value the view of `oldest` (no masking) sends and this view
 *   does not;
 * - `stated`: keys stated so far; `statedFacts`: distinct facts stated so far (every value, the
 *   most any view could show);
 * - `removedRedundant`: messages the memory removed by the rule `'redundant'`;
 * - `tokensSent`: the view's tokens at each turn's end; `overBudget`: views over the budget;
 * - `bound`: an upper bound on the distinct facts any view of `budget` tokens could send (the
 *   same for every configuration; see `factBound`).
 *
 * @example
 * ```ts
 * const [oldest, redundant] = measureDistinctFacts({ lib, conversations: 5, budget: 3000 });
 * redundant.distinct / oldest.distinct; // > 1
 * ```
 */
export interface DistinctReport {
  readonly config: DistinctConfig;
  readonly budget: number;
  readonly memoryTokens: number;
  readonly conversations: number;
  readonly turnEnds: number;
  readonly distinct: number;
  readonly latest: number;
  readonly staleOnly: number;
  readonly lostInMemory: number;
  readonly lostInView: number;
  readonly stated: number;
  readonly removedRedundant: number;
  readonly tokensSent: readonly number[];
  readonly overBudget: number;
  readonly bound: number;
  readonly statedFacts: number;
}

/**
 * The seed of the first conversation; conversation `i` uses `FIRST_SEED + i`.
 *
 * @example
 * ```ts
 * scriptAgentConversation(PRUNING_FIRST_SEED); // the first conversation of every run
 * ```
 */
export const PRUNING_FIRST_SEED = 20_261_900;

type Tally = { -readonly [K in keyof DistinctReport]: DistinctReport[K] } & {
  tokensSent: number[];
};

/** The fact ids (`key: value`) of messages, each message's text scanned once per conversation. */
const factScanner = (catalog: FactCatalog) => {
  const cache = new Map<string, readonly string[]>();
  return (messages: readonly Message[]): Set<string> => {
    const ids = new Set<string>();
    for (const message of messages) {
      const text = message.content ?? '';
      let facts = cache.get(text);
      if (facts === undefined) {
        facts = catalog.factsIn(text).map((fact) => `${fact.key}\u0000${fact.value}`);
        cache.set(text, facts);
      }
      for (const id of facts) ids.add(id);
    }
    return ids;
  };
};

/** The keys whose latest value is among `ids`. */
const latestIn = (ids: ReadonlySet<string>, latest: ReadonlyMap<string, string>): Set<string> => {
  const keys = new Set<string>();
  for (const [key, value] of latest) if (ids.has(`${key}\u0000${value}`)) keys.add(key);
  return keys;
};

const countMissing = (wanted: ReadonlySet<string>, have: ReadonlySet<string>): number => {
  let missing = 0;
  for (const key of wanted) if (!have.has(key)) missing++;
  return missing;
};

/**
 * An upper bound on the distinct facts a view of `budget` tokens can send, from what was stated
 * so far: each fact costs at least its cheapest message's tokens shared by that message's facts
 * (a message of t tokens stating n facts: t / n each), and the cheapest facts are taken while
 * their costs fit the budget. Any view holds its facts in messages whose tokens add up to at most
 * the budget, and charging each fact to one message that holds it costs at most that message's
 * tokens, so no view holds more. It ignores everything else a view must send (the calls, the
 * answers, the current turn), so it is loose; it is an upper bound, not a target.
 */
const factBound = (costs: ReadonlyMap<string, number>, budget: number): number => {
  const sorted = [...costs.values()].sort((a, b) => a - b);
  let left = budget;
  let facts = 0;
  for (const cost of sorted) {
    if (cost > left) break;
    left -= cost;
    facts++;
  }
  return facts;
};

/** Runs one conversation through every configuration, adding to the tallies. */
const runConversation = (
  lib: PruningLibrary,
  conversation: AgentConversation,
  configs: readonly DistinctConfig[],
  options: { budget: number; memoryFactor: number; keepLast: number },
  tallies: readonly Tally[],
): void => {
  const scan = factScanner(conversation.catalog);
  const states: MemoryState[] = configs.map((config) =>
    lib.createMemory({
      maxMessages: 100_000,
      maxTokens: config.mask ? options.budget * options.memoryFactor : options.budget,
      tokenizer: 'o200k_base',
      toolPairs: 'strict',
      prune: config.prune,
    }),
  );
  const latest = new Map<string, string>();
  const baselineOf = configs.map((config) =>
    configs.findIndex((other) => other.mask === config.mask && other.prune === 'oldest'),
  );
  const plain = configs.findIndex((config) => config.prune === 'oldest' && !config.mask);
  /** The cheapest cost of each fact stated so far (see `factBound`). */
  const costs = new Map<string, number>();
  for (const turn of conversation.turns) {
    for (const message of turn.messages) {
      const ids = scan([message]);
      for (const id of ids) {
        const [key, value] = id.split('\u0000') as [string, string];
        latest.set(key, value);
      }
      if (ids.size > 0) {
        const cost = lib.countMessageTokens('o200k_base', message) / ids.size;
        for (const id of ids) costs.set(id, Math.min(costs.get(id) ?? Infinity, cost));
      }
      states.forEach((state, c) => {
        const { state: next, effects } = lib.addMessage(state, message);
        states[c] = next;
        for (const effect of effects) {
          if (effect.type === 'memory/trimmed' && effect.reason === 'enforce_limits') {
            (tallies[c] as Tally).removedRedundant += effect.rules.filter(
              (rule) => rule === 'redundant',
            ).length;
          }
        }
      });
    }
    const bound = factBound(costs, options.budget);
    const inMemory = states.map((state) => latestIn(scan(state.messages), latest));
    const views = states.map((state, c) => {
      const config = configs[c] as DistinctConfig;
      return lib.modelView(state, {
        target: 'openai',
        budget: options.budget,
        ...(config.mask
          ? {
              maskToolResults: {
                keepLast: options.keepLast,
                ...(config.untilFits === true ? { untilFits: true } : {}),
              },
            }
          : {}),
      });
    });
    const shown = views.map((view) => scan(view.messages));
    const shownLatest = shown.map((ids) => latestIn(ids, latest));
    configs.forEach((_, c) => {
      const tally = tallies[c] as Tally;
      const ids = shown[c] as Set<string>;
      const view = views[c] as ReturnType<PruningLibrary['modelView']>;
      tally.turnEnds++;
      tally.bound += bound;
      tally.statedFacts += costs.size;
      tally.stated += latest.size;
      tally.distinct += ids.size;
      tally.latest += (shownLatest[c] as Set<string>).size;
      const keysShown = new Set([...ids].map((id) => id.slice(0, id.indexOf('\u0000'))));
      tally.staleOnly += countMissing(keysShown, shownLatest[c] as Set<string>);
      const baseline = baselineOf[c] ?? -1;
      if (baseline >= 0) {
        tally.lostInMemory += countMissing(
          inMemory[baseline] as Set<string>,
          inMemory[c] as Set<string>,
        );
      }
      if (plain >= 0) {
        tally.lostInView += countMissing(
          shownLatest[plain] as Set<string>,
          shownLatest[c] as Set<string>,
        );
      }
      tally.tokensSent.push(view.tokens ?? 0);
      tally.overBudget += view.overBudget === true ? 1 : 0;
    });
  }
};

/**
 * Runs `conversations` recorded agent conversations (seeds from `firstSeed`, by default
 * {@link PRUNING_FIRST_SEED}) through each configuration with fresh memories, at the token budget
 * `budget` (o200k_base) sent per turn.
 *
 * @param options - the library, how many conversations, the budget, the memory a masking
 * configuration keeps (`memoryFactor` × budget, default 3), masking's `keepLast` (default 2),
 * the configurations (default {@link DISTINCT_CONFIGS}), the first seed
 * @returns one report per configuration, in order
 * @example
 * ```ts
 * const reports = measureDistinctFacts({ lib: await import('../../src/library'), conversations: 20, budget: 3000 });
 * ```
 */
export const measureDistinctFacts = (options: {
  readonly lib: PruningLibrary;
  readonly conversations: number;
  readonly budget: number;
  readonly memoryFactor?: number;
  readonly keepLast?: number;
  readonly configs?: readonly DistinctConfig[];
  readonly firstSeed?: number;
}): DistinctReport[] => {
  const configs = options.configs ?? DISTINCT_CONFIGS;
  const memoryFactor = options.memoryFactor ?? 3;
  const keepLast = options.keepLast ?? 2;
  const { budget } = options;
  const tallies: Tally[] = configs.map((config) => ({
    config,
    budget,
    memoryTokens: config.mask ? budget * memoryFactor : budget,
    conversations: options.conversations,
    turnEnds: 0,
    distinct: 0,
    latest: 0,
    staleOnly: 0,
    lostInMemory: 0,
    lostInView: 0,
    stated: 0,
    removedRedundant: 0,
    tokensSent: [],
    overBudget: 0,
    bound: 0,
    statedFacts: 0,
  }));
  const firstSeed = options.firstSeed ?? PRUNING_FIRST_SEED;
  for (let i = 0; i < options.conversations; i++) {
    const conversation = scriptAgentConversation(firstSeed + i);
    runConversation(
      options.lib,
      conversation,
      configs,
      { budget, memoryFactor, keepLast },
      tallies,
    );
  }
  return tallies;
};
