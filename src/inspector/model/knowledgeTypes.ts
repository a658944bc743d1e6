import type { KnowledgeBlocksResult } from '../../knowledge/retrieval/types';
import type { ExtractionSource } from '../../model/knowledgeActions';
import type {
  Entity,
  KnowledgeCursors,
  KnowledgeEntry,
  Relation,
  RetireReason,
} from '../../model/knowledge';
import type { FactKind, MergeRule } from '../../model/knowledgeEffects';

/**
 * A fact as the inspector names it in a change: its kind, its id, and one line of text
 * (`Alice --[works_at]--> Acme`, `Alice [person]`, `Alice role: engineer`,
 * `[preference] Likes tea`). The text is the file's own: escape it to print it.
 *
 * @example
 * ```ts
 * const fact: FactRef = { kind: 'relation', id: 'r4', text: 'Alice --[works_at]--> Acme' };
 * ```
 */
export interface FactRef {
  readonly kind: FactKind;
  readonly id: string;
  readonly text: string;
}

/**
 * What one step did to the facts, from its effects, in their order:
 *
 * - `'read'`: an extractor's cursor moved past the messages `from` to `to` (positions);
 * - `'added'`: a fact the memory learned;
 * - `'merged'`: a reported fact that was already known (`rule`: how it was matched; `name`: the
 *   name as reported, for an entity; `similarity`: the estimate, for a near duplicate);
 * - `'retired'`: a fact the memory stopped believing, with the reason and, when superseded, the
 *   fact that replaced it (`by`); `score`: the keep score an eviction used;
 * - `'expired'`: an entry whose TTL ran out between the previous step's time and this one's (no
 *   reducer ran: it simply stops being in force);
 * - `'dropped'`: a fact removed from the state for good (a retired fact past its kind's limit, or
 *   every fact on a clear).
 *
 * @example
 * ```ts
 * const change: KnowledgeChange = {
 *   change: 'retired', fact: { kind: 'relation', id: 'r4', text: 'Alice --[works_at]--> Acme' },
 *   reason: 'superseded', by: { kind: 'relation', id: 'r6', text: 'Alice --[works_at]--> Globex' }, score: null,
 * };
 * ```
 */
export type KnowledgeChange =
  | {
      readonly change: 'read';
      readonly source: ExtractionSource;
      readonly from: number;
      readonly to: number;
    }
  | { readonly change: 'added'; readonly fact: FactRef }
  | {
      readonly change: 'merged';
      readonly fact: FactRef;
      readonly rule: MergeRule;
      readonly name: string | null;
      readonly similarity: number | null;
    }
  | {
      readonly change: 'retired';
      readonly fact: FactRef;
      readonly reason: RetireReason;
      readonly by: FactRef | null;
      readonly score: number | null;
    }
  | { readonly change: 'expired'; readonly fact: FactRef }
  | { readonly change: 'dropped'; readonly fact: FactRef };

/**
 * The facts in force at a step, in the order the blocks use: entities most recently mentioned
 * first (each with only its attributes in force), relations oldest first, entries not retired nor
 * expired, most important first.
 *
 * @example
 * ```ts
 * const none: FactsInForce = { entities: [], relations: [], entries: [] };
 * ```
 */
export interface FactsInForce {
  readonly entities: readonly Entity[];
  readonly relations: readonly Relation[];
  readonly entries: readonly KnowledgeEntry[];
}

/**
 * The knowledge at one step, as plain JSON data: the facts in force, what the step changed, and
 * the blocks the model receives (`knowledgeBlocks` with the reference's limits, scoped to
 * `query`, at `now`).
 *
 * - `now`: the step's time, the latest `at` of the knowledge actions up to the step (or the
 *   latest time the initial knowledge records), so a replay shows the same;
 * - `query`: the text of the latest user message in the window (`''` when none).
 *
 * @example
 * ```ts
 * const knowledge: StepKnowledge | null = stepKnowledge(log, 7);
 * knowledge?.blocks.text; // '[Known Relationships]\n- Alice --[works_at]--> Globex…'
 * ```
 */
export interface StepKnowledge {
  readonly now: number;
  readonly query: string;
  readonly inForce: FactsInForce;
  readonly changes: readonly KnowledgeChange[];
  readonly blocks: KnowledgeBlocksResult;
  readonly cursors: KnowledgeCursors;
}
