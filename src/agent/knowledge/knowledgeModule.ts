import { knowledgeTransition } from '../../knowledge/knowledgeTransition';
import { createKnowledge } from '../../knowledge/createKnowledge';
import type { KnowledgeState } from '../../model/knowledge';
import type { KnowledgeAction } from '../../model/knowledgeActions';
import type { KnowledgeEffect } from '../../model/knowledgeEffects';
import type { KnowledgeListener, KnowledgeModule } from './moduleTypes';

/**
 * The state container the three modules share: a knowledge state changed only by
 * `knowledgeTransition`, listeners told of every change.
 *
 * @internal
 */
export class KnowledgeHolder implements KnowledgeModule {
  #state: KnowledgeState = createKnowledge();
  readonly #listeners = new Set<KnowledgeListener>();

  get state(): KnowledgeState {
    return this.#state;
  }

  apply(action: KnowledgeAction): readonly KnowledgeEffect[] {
    const { state, effects } = knowledgeTransition(this.#state, action);
    if (state === this.#state) return effects;
    this.#state = state;
    this.#tell(effects);
    return effects;
  }

  restore(state: KnowledgeState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#tell([]);
  }

  subscribe(listener: KnowledgeListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #tell(effects: readonly KnowledgeEffect[]): void {
    for (const listener of [...this.#listeners]) listener(effects, this.#state);
  }
}
