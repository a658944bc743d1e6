/**
 * Knowledge merge benchmark (run by `npm run bench`; built `dist/`, NODE_ENV=production): what
 * resolving and merging one extraction costs against a conversation that already holds 1,000 or
 * 10,000 facts (half entities, each with an attribute, half relations).
 *
 * One extraction is one entity and one triple in a `knowledge/factsExtracted` action, applied with
 * `memoryTransition` as the agent applies it, in a cycle of four: a known entity and a known triple
 * (mentions); a new entity and a new triple; a known entity with a new attribute value and a new
 * employer for a known subject (both retire the old value); a near-duplicate spelling of a known
 * name (resolved by the MinHash candidates) and a known triple. Each extraction's output state is
 * the next one's input, as in a live conversation, so the cached index is used.
 *
 * Two cases: limits at ten times the counts (nothing is evicted), and limits at the counts (every
 * new entity or relation evicts one, by keep score). Outside the timings the benchmark checks that
 * the first case evicts nothing and the second evicts.
 *
 * Method: per sample, a fresh state of N facts (built outside the timing, its index cached), then a
 * chain of 200 extractions (40 when evicting) timed as a whole; 11 samples per series, interleaved;
 * median [min–max] per extraction (2 shared, noisy cores). Also one extraction on a state with no
 * cached index (a time-travel jump or a decoded file: the index is built once), 11 single calls.
 * Goal: sub-linear, the 10,000 / 1,000 ratio well below 10×. Prints the table and writes it to
 * `bench/results/knowledge-merge.md`.
 */
import { performance } from 'node:perf_hooks';
import type * as Library from '../src/library';
import type { ExtractedEntity, ExtractedTriple, MemoryState } from '../src/library';
import { createRandom } from './fixtures';
import { writeResult } from './knowledge/writeResult';
import { medianOf } from './stats';

const DIST: string = new URL('../dist/library.js', import.meta.url).href;
const lib = (
  process.env['BENCH_DIST'] === '1' ? await import(DIST) : await import('../src/library')
) as typeof Library;

const STEPS = 200;
/** Evicting chains are shorter: an eviction scans the facts (see the results). */
const STEPS_AT_LIMIT = 40;
const SAMPLES = 11;
const CHUNK = 500;
const SYLLABLES = 'ka lo mir te san vu ri gel do pa zen ob tri wal hu ne sol qi far bek'.split(' ');

/**
 * `count` distinct two-word names of 3–4 syllables a word (at least 13 characters, so that doubling
 * the last letter makes a near duplicate; two random names are almost never near duplicates).
 */
const namesOf = (count: number, seed: number): string[] => {
  const random = createRandom(seed);
  const word = (): string => {
    let text = '';
    const length = 3 + Math.floor(random() * 2);
    for (let i = 0; i < length; i++) text += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
  const names = new Set<string>();
  while (names.size < count) names.add(`${word()} ${word()}`);
  return [...names];
};

interface Base {
  readonly state: MemoryState;
  readonly names: readonly string[];
  /** How many of `names` the state holds (the rest are new names for the chain). */
  readonly people: number;
  readonly entities: number;
  readonly relations: number;
  /** The next free message position and time. */
  readonly position: number;
  readonly at: number;
}

const HIGH = { maxEntities: 1_000_000, maxRelations: 1_000_000, maxEntries: 50 };

/** Message positions the benchmark's extractions may name. */
const POSITIONS = 1_000_000_000;

/** An empty conversation whose next message position is `next` (as after that many messages). */
const conversationAt = (next: number): MemoryState => {
  const dict = lib.toDict(lib.createMemory({ tokenizer: 'heuristic' })) as unknown as Record<
    string,
    unknown
  >;
  const extension = (dict[lib.EXTENSION_KEY] ?? {}) as Record<string, unknown>;
  const loaded = lib.fromDict({
    ...dict,
    [lib.EXTENSION_KEY]: { ...extension, next_position: next },
  });
  if (loaded._tag === 'Left') throw loaded.left;
  return loaded.right;
};

/** A conversation holding `facts` facts: facts / 2 entities, facts / 2 relations between them. */
const buildBase = (facts: number): Base => {
  const names = namesOf(facts / 2 + STEPS, facts);
  const people = names.slice(0, facts / 2);
  // A conversation far into its positions (extractions read messages it has had).
  let state = conversationAt(POSITIONS);
  let position = 0;
  let at = Date.UTC(2026, 0, 1);
  const apply = (payload: { entities?: ExtractedEntity[]; triples?: ExtractedTriple[] }): void => {
    state = lib.memoryTransition(state, {
      type: 'knowledge/factsExtracted',
      payload: {
        source: 'relations',
        at,
        from: position,
        to: position + 1,
        limits: HIGH,
        ...payload,
      },
    }).state;
    position += 2;
    at += 1000;
  };
  for (let i = 0; i < people.length; i += CHUNK) {
    apply({
      entities: people.slice(i, i + CHUNK).map((name, j) => ({
        name,
        type: 'person',
        attributes: { role: `role ${(i + j) % 7}` },
      })),
    });
  }
  for (let i = 0; i < people.length; i += CHUNK) {
    apply({
      triples: people.slice(i, i + CHUNK).map((name, j) => ({
        subject: name,
        relation: (i + j) % 2 === 0 ? 'works_at' : 'knows',
        object: people[(i + j + 1) % people.length] as string,
        confidence: 1,
      })),
    });
  }
  const knowledge = state.knowledge ?? lib.createKnowledge();
  return {
    state,
    names,
    people: people.length,
    entities: knowledge.entities.filter((e) => e.retiredAt === null).length,
    relations: knowledge.relations.filter((r) => r.retiredAt === null).length,
    position,
    at,
  };
};

/** The extraction of step `k` of a chain (a cycle of four; see the file's comment). */
const extraction = (
  base: Base,
  k: number,
): { entities: ExtractedEntity[]; triples: ExtractedTriple[] } => {
  const people = base.people;
  const i = (k * 7919) % people;
  const known = base.names[i] as string;
  // A relation of the base that nothing supersedes: `knows` holds several objects.
  const j = ((k * 104_729) % people) | 1;
  const knownTriple: ExtractedTriple = {
    subject: base.names[j] as string,
    relation: 'knows',
    object: base.names[(j + 1) % people] as string,
    confidence: 1,
  };
  switch (k % 4) {
    case 0:
      return {
        entities: [{ name: known, type: 'person', attributes: {} }],
        triples: [knownTriple],
      };
    case 1: {
      const fresh = base.names[people + k] as string;
      return {
        entities: [{ name: fresh, type: 'person', attributes: { role: 'new' } }],
        triples: [{ subject: fresh, relation: 'knows', object: known, confidence: 1 }],
      };
    }
    case 2:
      return {
        entities: [{ name: known, type: 'person', attributes: { role: `role at step ${k}` } }],
        triples: [{ subject: known, relation: 'works_at', object: `Company ${k}`, confidence: 1 }],
      };
    default:
      return {
        // A near duplicate: the last letter doubled (`Kalo Mirte` → `Kalo Mirtee`).
        entities: [{ name: `${known}${known.slice(-1)}`, type: 'other', attributes: {} }],
        triples: [knownTriple],
      };
  }
};

interface ChainResult {
  readonly microseconds: number;
  readonly evicted: number;
  readonly nearDuplicates: number;
  readonly knownTriples: number;
}

/** Times a chain of `steps` extractions from `base` under `limits`; µs per extraction. */
const runChain = (
  base: Base,
  limits: { maxEntities: number; maxRelations: number; maxEntries: number },
  steps: number,
): ChainResult => {
  const payloads = Array.from({ length: steps }, (_, k) => ({
    type: 'knowledge/factsExtracted' as const,
    payload: {
      source: 'relations' as const,
      at: base.at + k * 1000,
      from: base.position + 2 * k,
      to: base.position + 2 * k + 1,
      limits,
      ...extraction(base, k),
    },
  }));
  let state = base.state;
  type Seen = readonly { type: string; kind?: string; reason?: string; rule?: string }[];
  const effects: Seen[] = [];
  const t0 = performance.now();
  for (const action of payloads) {
    const next = lib.memoryTransition(state, action);
    effects.push(next.effects as Seen);
    state = next.state;
  }
  const elapsed = performance.now() - t0;
  const all = effects.flat();
  const evicted = all.filter(
    (effect) => effect.type === 'knowledge/retired' && effect.reason === 'evicted',
  ).length;
  const nearDuplicates = all.filter(
    (effect) => effect.type === 'knowledge/merged' && effect.rule === 'nearDuplicate',
  ).length;
  const knownTriples = all.filter(
    (effect) =>
      effect.type === 'knowledge/merged' &&
      effect.kind === 'relation' &&
      effect.rule === 'identical',
  ).length;
  return { microseconds: (elapsed * 1000) / steps, evicted, nearDuplicates, knownTriples };
};

const fmt = (us: number): string =>
  us < 10 ? us.toFixed(2) : us < 1000 ? us.toFixed(1) : Math.round(us).toString();

const SIZES = [1_000, 10_000] as const;
type Series = 'above' | 'atLimit' | 'cold';
const samples = new Map<string, number[]>();
const push = (size: number, series: Series, us: number): void => {
  const key = `${size}:${series}`;
  samples.set(key, [...(samples.get(key) ?? []), us]);
};

// Warm up every code path once per size.
for (const size of SIZES) {
  runChain(buildBase(size), HIGH, STEPS);
  const full = buildBase(size);
  runChain(full, { maxEntities: full.entities, maxRelations: full.relations, maxEntries: 50 }, 8);
}

const counts = new Map<number, { entities: number; relations: number }>();
for (let round = 0; round < SAMPLES; round++) {
  for (const size of SIZES) {
    const above = buildBase(size);
    counts.set(size, { entities: above.entities, relations: above.relations });
    const high = {
      maxEntities: 10 * above.entities,
      maxRelations: 10 * above.relations,
      maxEntries: 50,
    };
    const a = runChain(above, high, STEPS);
    if (a.evicted !== 0) throw new Error(`${size}: limits above the counts evicted ${a.evicted}`);
    // MinHash finds a pair at similarity 0.8 with probability 0.98: nearly all, not all.
    if (a.nearDuplicates < 0.9 * (STEPS / 4))
      throw new Error(`${size}: only ${a.nearDuplicates} near duplicates of ${STEPS / 4} resolved`);
    if (a.knownTriples !== STEPS / 2)
      throw new Error(`${size}: ${a.knownTriples} known triples merged, expected ${STEPS / 2}`);
    push(size, 'above', a.microseconds);

    // No cached index: the chain took it from this state (a time-travel jump, a decoded file).
    push(size, 'cold', runChain(above, high, 1).microseconds);

    const full = buildBase(size);
    const atLimit = {
      maxEntities: full.entities,
      maxRelations: full.relations,
      maxEntries: 50,
    };
    const b = runChain(full, atLimit, STEPS_AT_LIMIT);
    if (b.evicted === 0) throw new Error(`${size}: limits at the counts evicted nothing`);
    push(size, 'atLimit', b.microseconds);
  }
}

const cell = (size: number, series: Series): string => {
  const s = medianOf(samples.get(`${size}:${series}`) as number[]);
  return `${fmt(s.median)} [${fmt(s.min)}–${fmt(s.max)}]`;
};
const median = (size: number, series: Series): number =>
  medianOf(samples.get(`${size}:${series}`) as number[]).median;

const ratio = (series: Series): string =>
  `${(median(10_000, series) / median(1_000, series)).toFixed(1)}×`;
const lines = [
  '| stored facts | entities + relations in force | limits above (nothing evicted) | limits at the counts (evicts) | one extraction, no cached index |',
  '|---|---|---|---|---|',
  ...SIZES.map((size) => {
    const c = counts.get(size) as { entities: number; relations: number };
    return `| ${size.toLocaleString('en')} | ${c.entities.toLocaleString('en')} + ${c.relations.toLocaleString('en')} | ${cell(size, 'above')} | ${cell(size, 'atLimit')} | ${cell(size, 'cold')} |`;
  }),
  `| 10,000 / 1,000 | | ${ratio('above')} | ${ratio('atLimit')} | ${ratio('cold')} |`,
];
const title =
  'knowledge: one extraction (one entity + one triple) merged, per extraction, median [min–max] µs';
console.log(`\n${title}\n\n${lines.join('\n')}`);
await writeResult(
  'knowledge-merge.md',
  `# Knowledge merge benchmark\n\nGenerated by \`bench/knowledge.bench.ts\` (${process.env['BENCH_DIST'] === '1' ? 'built dist/' : 'src/'}, NODE_ENV=${process.env['NODE_ENV'] ?? 'unset'}, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}); see its header for the method.\n\n${title}\n\n${lines.join('\n')}\n`,
);
