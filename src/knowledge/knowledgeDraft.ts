import { deepFreeze, freezeWindow } from '../model/freeze';
import { NO_EFFECTS } from '../internal/window';
import type {
  Entity,
  KnowledgeCursors,
  KnowledgeEntry,
  KnowledgeState,
  Relation,
} from '../model/knowledge';
import type { FactKind, KnowledgeEffect } from '../model/knowledgeEffects';
import { buildIndex, keepIndex, noteWrite, takeIndex, type KnowledgeIndex } from './knowledgeIndex';

/**
 * What a knowledge reducer returns: the new state and what changed, as effects.
 *
 * @example
 * ```ts
 * const { state, effects }: KnowledgeTransition = knowledgeTransition(createKnowledge(), action);
 * ```
 */
export interface KnowledgeTransition {
  readonly state: KnowledgeState;
  readonly effects: readonly KnowledgeEffect[];
}

/**
 * One reducer call's working copy of a knowledge state: arrays copied on their first write, the
 * index taken from the input state and updated in place, the effects in order, and the ids of the
 * facts the call stated (not evicted by it).
 *
 * @internal
 */
export class KnowledgeDraft {
  readonly base: KnowledgeState;
  readonly index: KnowledgeIndex;
  readonly effects: KnowledgeEffect[] = [];
  readonly touched = new Set<string>();
  entities: readonly Entity[];
  relations: readonly Relation[];
  entries: readonly KnowledgeEntry[];
  cursors: KnowledgeCursors;
  nextId: number;
  /** Set when facts were dropped: positions moved, so the index is rebuilt at the end. */
  reindex = false;
  #copied = { entities: false, relations: false, entries: false };

  constructor(state: KnowledgeState) {
    this.base = state;
    this.index = takeIndex(state);
    this.entities = state.entities;
    this.relations = state.relations;
    this.entries = state.entries;
    this.cursors = state.cursors;
    this.nextId = state.nextId;
  }

  /** A new fact id: the kind's letter and the next number (`e4`, `a5`, `r6`, `k7`). */
  newId(kind: FactKind): string {
    const letter =
      kind === 'entity' ? 'e' : kind === 'attribute' ? 'a' : kind === 'relation' ? 'r' : 'k';
    const id = `${letter}${this.nextId}`;
    this.nextId += 1;
    return id;
  }

  #writable<K extends 'entities' | 'relations' | 'entries'>(key: K): unknown[] {
    if (!this.#copied[key]) {
      this[key] = this[key].slice() as never;
      this.#copied[key] = true;
    }
    return this[key] as unknown as unknown[];
  }

  setEntity(i: number, entity: Entity): void {
    this.#writable('entities')[i] = deepFreeze(entity);
    noteWrite(this.index, 'entities', this.entities, i);
  }

  pushEntity(entity: Entity): number {
    const i = this.#writable('entities').push(deepFreeze(entity)) - 1;
    noteWrite(this.index, 'entities', this.entities, i);
    return i;
  }

  setRelation(i: number, relation: Relation): void {
    this.#writable('relations')[i] = deepFreeze(relation);
    noteWrite(this.index, 'relations', this.relations, i);
  }

  pushRelation(relation: Relation): number {
    const i = this.#writable('relations').push(deepFreeze(relation)) - 1;
    noteWrite(this.index, 'relations', this.relations, i);
    return i;
  }

  setEntry(i: number, entry: KnowledgeEntry): void {
    this.#writable('entries')[i] = deepFreeze(entry);
    noteWrite(this.index, 'entries', this.entries, i);
  }

  pushEntry(entry: KnowledgeEntry): number {
    const i = this.#writable('entries').push(deepFreeze(entry)) - 1;
    noteWrite(this.index, 'entries', this.entries, i);
    return i;
  }

  /** Replaces a whole list (dropping facts): positions move, so the index is rebuilt. */
  replaceList<K extends 'entities' | 'relations' | 'entries'>(
    key: K,
    list: KnowledgeState[K],
  ): void {
    this[key] = list as never;
    this.#copied[key] = true;
    this.reindex = true;
  }

  effect(effect: KnowledgeEffect): void {
    this.effects.push(effect);
  }

  /**
   * The new state (deeply frozen) and the effects; the input state itself, with no effects, when
   * nothing changed. The index is left cached for the state returned.
   */
  finish(): KnowledgeTransition {
    const changed =
      this.entities !== this.base.entities ||
      this.relations !== this.base.relations ||
      this.entries !== this.base.entries ||
      this.cursors !== this.base.cursors ||
      this.nextId !== this.base.nextId;
    if (!changed) {
      keepIndex(this.base, this.index);
      return { state: this.base, effects: NO_EFFECTS };
    }
    const state: KnowledgeState = Object.freeze({
      entities: freezeList(this.entities),
      relations: freezeList(this.relations),
      entries: freezeList(this.entries),
      cursors: Object.freeze(this.cursors),
      nextId: this.nextId,
    });
    keepIndex(state, this.reindex ? buildIndex(state) : this.index);
    return { state, effects: Object.freeze(this.effects.map((effect) => deepFreeze(effect))) };
  }
}

/**
 * Freezes a list built by the draft (in development and tests; every fact in it is frozen already,
 * when it was written), as the memory's windows are.
 */
const freezeList = <T>(list: readonly T[]): readonly T[] =>
  Object.isFrozen(list) ? list : freezeWindow(list as T[]);
