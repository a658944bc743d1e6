import type { KnowledgeState } from '../../model/knowledge';
import { quarterCodePoints } from '../../tokens/heuristic';
import { codePointLength } from '../../util/codePoints';
import { checkBlockOptions, checkedCounter } from './checkBlockOptions';
import { fieldText } from './factLines';
import { BLOCK_SEPARATOR, TRUNCATED_SUFFIX } from './headers';
import {
  entityUnits,
  entryUnits,
  graphUnits,
  type ModuleUnits,
  type UnitContext,
} from './moduleUnits';
import { type BlockUnit, lineEnds, packUnits, renderUnits } from './packBlock';
import { pythonHead } from './pythonText';
import type {
  KnowledgeBlock,
  KnowledgeBlocksOptions,
  KnowledgeBlocksResult,
  KnowledgeBlockModule,
} from './types';

const API = 'knowledgeBlocks';
const DEFAULT_MAX_CONTEXT_TRIPLES = 15;
const DEFAULT_MAX_CONTEXT_CHARS = 5000;

const UNITS: Readonly<Record<KnowledgeBlockModule, (context: UnitContext) => ModuleUnits>> = {
  graph: graphUnits,
  entities: entityUnits,
  knowledge: entryUnits,
};

/** A block with no budget, as the reference builds it; the knowledge text cut to `maxChars`. */
const referenceBlock = (
  units: ModuleUnits,
  maxUnits: number | undefined,
  maxChars: number | undefined,
): { text: string; shown: BlockUnit[]; section: number } => {
  const picked = (
    maxUnits === undefined ? [...units.ranked] : units.ranked.slice(0, maxUnits)
  ).sort((a, b) => a.order - b.order);
  const text = renderUnits(units.headers, picked);
  const section = picked[0]?.section ?? 0;
  if (maxChars === undefined || codePointLength(text) <= maxChars)
    return { text, shown: picked, section };
  const kept = pythonHead(text, maxChars - TRUNCATED_SUFFIX.length);
  // A fact is shown when its whole line survives the cut.
  const keptLength = codePointLength(kept);
  const ends = lineEnds(units.headers, picked);
  const shown = picked.filter((_, i) => (ends[i] as number) <= keptLength);
  return { text: kept + TRUNCATED_SUFFIX, shown, section };
};

/**
 * Builds the blocks of facts a model receives, in the reference's formats and order: the
 * knowledge graph (`[Known Relationships]`), then entities (`[Known Entities]`), then long-term
 * knowledge (`[Important Knowledge]` / `[General Knowledge]`), joined by a blank line. A module
 * left out of `options` gives no block, nor does a module with nothing to show. Only facts in
 * force are shown (not retired; entries not expired at `now`).
 *
 * Scoping to `query` (the current user message), with `scoreFacts` (BM25 plus the entity boost,
 * or `options.score`):
 * - knowledge graph: without a query, the newest `maxContextTriples` (the reference's last 15);
 *   with one, the relations scoring above 0, best first; when none does, the reference's own
 *   match (words of 3+ characters found inside `subject relation object`, any case); when nothing
 *   matches, no block (as in the reference). The reference keeps the first 15 matches in store
 *   order; we keep the best 15, shown in store order.
 * - entities and knowledge: every fact in force is a candidate (the reference shows them all);
 *   the query only decides which go first when a budget is short.
 *
 * Packing: without a budget the reference's limits apply (15 triples, every entity, the knowledge
 * text cut at 5000 characters with `"\n... (truncated)"`, mid-fact as the reference cuts). With a
 * `budget`, the best-scored facts go in first, each whole or not at all, then the block is shown
 * in the reference's order; the budget counts everything the block adds, its headers, newlines
 * and the blank line before it included, with `countTokens`; a block where not even one fact fits
 * beside its header is left out.
 *
 * Fact text passes {@link sanitizeKnowledgeText} unless `sanitize: false`.
 *
 * @param state - the knowledge state
 * @param options - the query, `now`, the tokenizer and the modules to show (see
 *   {@link KnowledgeBlocksOptions})
 * @returns the blocks and their joined text
 * @throws MemoryArgumentError for a bad option (named, with the value received), or when
 *   `countTokens` or `score` returns a bad value
 * @example
 * ```ts
 * const { text } = knowledgeBlocks(memory.state.knowledge, {
 *   query: 'where does Alice work?', now: Date.now(),
 *   graph: { budget: 200 }, entities: { budget: 200 }, knowledge: { budget: 300 },
 * });
 * // '[Known Relationships]\n- Alice --[works_at]--> Acme\n\n[Known Entities]\n- Alice [person]…'
 * ```
 */
export const knowledgeBlocks = (
  state: KnowledgeState,
  options: KnowledgeBlocksOptions,
): KnowledgeBlocksResult => {
  // Read once: the work below sees the checked copy.
  options = checkBlockOptions(state, options);
  const count = checkedCounter(options.countTokens ?? quarterCodePoints);
  const context: UnitContext = {
    api: API,
    state,
    query: options.query ?? '',
    now: options.now,
    field: fieldText(options.sanitize ?? true),
    score: options.score,
  };
  const blocks: KnowledgeBlock[] = [];
  for (const module of ['graph', 'entities', 'knowledge'] as const) {
    const moduleOptions = options[module];
    if (moduleOptions === undefined) continue;
    const units = UNITS[module](context);
    const budget = moduleOptions.budget;
    const maxUnits =
      'maxContextTriples' in moduleOptions ? moduleOptions.maxContextTriples : undefined;
    const maxChars = 'maxContextChars' in moduleOptions ? moduleOptions.maxContextChars : undefined;
    const prefix = blocks.length === 0 ? '' : BLOCK_SEPARATOR;
    let text: string;
    let shown: BlockUnit[];
    let section: number;
    if (budget === undefined) {
      ({ text, shown, section } = referenceBlock(
        units,
        module === 'graph' ? (maxUnits ?? DEFAULT_MAX_CONTEXT_TRIPLES) : undefined,
        module === 'knowledge' ? (maxChars ?? DEFAULT_MAX_CONTEXT_CHARS) : undefined,
      ));
    } else {
      shown = packUnits(units.ranked, units.headers, { budget, prefix, count, maxChars, maxUnits });
      text = renderUnits(units.headers, shown);
      section = Math.min(...shown.map((unit) => unit.section));
    }
    if (text === '') continue;
    blocks.push({
      module,
      header: units.headers[section] as string,
      text,
      factIds: [...shown].sort((a, b) => a.order - b.order).flatMap((unit) => unit.ids),
      tokens: count(prefix + text),
    });
  }
  return { text: blocks.map((block) => block.text).join(BLOCK_SEPARATOR), blocks };
};
