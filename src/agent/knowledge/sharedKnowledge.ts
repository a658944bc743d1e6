import { createKnowledge } from '../../knowledge/createKnowledge';
import type { KnowledgeStore, LoadedKnowledge } from '../../stores/knowledge/types';
import { saveOnConflict } from '../run/saveOnConflict';
import type { KnowledgeCursors, KnowledgeState } from '../../model/knowledge';
import type { KnowledgeAction } from '../../model/knowledgeActions';
import type { KnowledgeEffect } from '../../model/knowledgeEffects';
import type { KnowledgeModule } from './moduleTypes';

/**
 * How many times a commit saves before a conflict rejects: each conflict means another writer
 * saved in between, so the commit loads that state and applies its action again.
 *
 * @internal
 */
export const SHARED_SAVE_ATTEMPTS = 5;

/**
 * Where a module's shared facts live: a knowledge store and the record's `id` and `namespace`.
 *
 * @internal
 */
export interface KnowledgeStoreLink {
  readonly store: KnowledgeStore;
  readonly id: string;
  readonly namespace: string | undefined;
}

/** The retry policy of a commit's save (see `saveOnConflict`). */
const RETRY = { conflict: 'CM_KNOWLEDGE_CONFLICT', attempts: SHARED_SAVE_ATTEMPTS } as const;

/** `state`'s facts with other cursors. */
const withCursors = (state: KnowledgeState, cursors: KnowledgeCursors): KnowledgeState =>
  state.cursors === cursors ? state : Object.freeze({ ...state, cursors });

/** Whether two states hold the same facts (by reference: a reducer that changed none keeps them). */
const sameFacts = (a: KnowledgeState, b: KnowledgeState): boolean =>
  a.entities === b.entities &&
  a.relations === b.relations &&
  a.entries === b.entries &&
  a.nextId === b.nextId;

/**
 * One record of a knowledge store as a run sees it, and the modules that show it (entity memory,
 * the knowledge graph and knowledge memory given the same store, `id` and `namespace`). Each
 * module holds the record's facts with its own cursors (the conversation's: which of its messages
 * were read); the record's own cursors are never changed, since positions belong to one
 * conversation and the record to every conversation of the user.
 *
 * - `load` reads the record (nothing stored: no facts) and shows it in every module; the revision
 *   read is the one the next save expects.
 * - `commit` applies an action to a module and saves the result with that revision. When another
 *   writer saved in between (`KnowledgeConflictError`), it loads the latest record and applies the
 *   action again (the reducers are pure, so a fact both told is a mention and a new value retires
 *   the other's old one), up to {@link SHARED_SAVE_ATTEMPTS} saves. It never saves facts this run
 *   did not load: after a failed `load`, a commit loads first, so a record deleted (or expired) by
 *   another program is not written back from what a module held.
 *
 * @internal
 */
export class SharedKnowledge {
  readonly modules: KnowledgeModule[] = [];
  /** The revision loaded or saved last (`0`: nothing stored). */
  revision = 0;
  /** Whether this run has read the record (a failed load leaves it `false`). */
  loaded = false;
  /** The record as loaded or saved last (its own cursors). */
  #stored: KnowledgeState = createKnowledge();

  constructor(readonly link: KnowledgeStoreLink) {}

  get #where(): { namespace?: string } {
    const { namespace } = this.link;
    return namespace === undefined ? {} : { namespace };
  }

  /** Reads the record and shows it in every module (each keeps its cursors). */
  async load(): Promise<void> {
    this.#show(await this.link.store.load(this.link.id, this.#where));
  }

  /** Shows the record as read in every module (each keeps its cursors). */
  #show(loaded: LoadedKnowledge | null): void {
    this.#stored = loaded?.state ?? createKnowledge();
    this.revision = loaded?.revision ?? 0;
    this.loaded = true;
    for (const module of this.modules) {
      module.restore(withCursors(this.#stored, module.state.cursors));
    }
  }

  /**
   * Applies `action` to `module` (one of this record's) and saves the record.
   *
   * @returns the effects of the change that was saved
   * @throws the store's error, or `KnowledgeConflictError` after {@link SHARED_SAVE_ATTEMPTS}
   *   conflicts; the module then shows the record as last read, with its cursors as they were
   */
  async commit(
    module: KnowledgeModule,
    action: KnowledgeAction,
  ): Promise<readonly KnowledgeEffect[]> {
    const before = module.state;
    try {
      if (!this.loaded) await this.load();
      let effects: readonly KnowledgeEffect[] = [];
      let next = before;
      /** The action on the record as last read: the record to save, or none when no fact changed. */
      const apply = (): KnowledgeState | undefined => {
        effects = module.apply(action);
        next = module.state;
        return sameFacts(next, this.#stored) ? undefined : withCursors(next, this.#stored.cursors);
      };
      const first = apply();
      if (first === undefined) return effects;
      const record = { store: this.link.store, id: this.link.id, options: this.#where, ...RETRY };
      const saved = await saveOnConflict(record, first, this.revision, async (load) => {
        module.restore(withCursors(next, before.cursors));
        this.#show(await load());
        return apply();
      });
      if (saved !== undefined) {
        this.#stored = saved.state;
        this.revision = saved.revision;
        for (const other of this.modules) {
          if (other !== module) other.restore(withCursors(saved.state, other.state.cursors));
        }
      }
      return effects;
    } catch (error) {
      module.restore(this.loaded ? withCursors(this.#stored, before.cursors) : before);
      throw error;
    }
  }
}
