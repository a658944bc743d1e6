import { memoryActions } from '../actions/memoryActions';
import type { HeldTrim } from '../core/holdForSummary';
import { isConversationMemoryError } from '../errors/errorBrand';
import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { ConversationMemory } from './ConversationMemory';
import type { MemoryAction } from '../model/actions';
import type { MemoryEffect, TrimmedEffect } from '../model/effects';
import type { MemoryOptions } from '../model/config';
import type { MessageInput } from '../model/messageInput';
import type { KnowledgeAction } from '../model/knowledgeActions';
import { recordAction } from '../log/recordAction';

/**
 * Called with the action of every change a {@link RecordedMemory} makes, after the change.
 *
 * @example
 * ```ts
 * const listener: ActionListener = (action) => console.log(action.type);
 * ```
 */
export type ActionListener = (action: MemoryAction) => void;

/**
 * A {@link ConversationMemory} that tells its listeners every change it makes as the matching
 * memory action, so the changes can be kept as an event log (`appendAction`) or appended to an
 * event store (the agent's `eventStore` option does this). Each method maps to one action:
 *
 * | method           | action                                   |
 * | ---------------- | ---------------------------------------- |
 * | `add`            | `memoryActions.messageAdded(message)`    |
 * | `addMany`        | `memoryActions.messagesAdded(messages)`  |
 * | `applySummary`   | `memoryActions.summaryApplied(text)`     |
 * | `holdForSummary` | `memoryActions.trimHeld(trimmed)`        |
 * | `commitSummary`  | `memoryActions.summaryCommitted(t, n)`   |
 * | `clear`          | `memoryActions.cleared()`                |
 * | `reconfigure`    | `memoryActions.reconfigured(config)`     |
 *
 * A call that changes nothing (the state is the same object) records nothing; a call that throws
 * records nothing, except when the change was made and only a subscriber threw (`ListenerError`).
 * `restore` replaces the state without an action: it is how a loaded state comes in, not a
 * change to record. Replaying the recorded actions from `createMemory(config)` gives `state`.
 *
 * @example
 * ```ts
 * const memory = new RecordedMemory({ maxMessages: 20 });
 * let log = createEventLog({ maxMessages: 20 });
 * memory.onAction((action) => (log = appendAction(log, action)));
 * memory.add(userMessage('hi'));
 * replay(log) === memory.state; // false, but deep-equal: the same messages and positions
 * ```
 */
export class RecordedMemory extends ConversationMemory {
  readonly #listeners = new Set<ActionListener>();

  /**
   * The name this class's errors use (`new RecordedMemory: …`), whatever a bundler calls it.
   *
   * @returns `'RecordedMemory'`
   * @example
   * ```ts
   * new RecordedMemory({ max_tokens: 5 }); // MemoryConfigError: new RecordedMemory: …
   * ```
   */
  protected static override apiName(): string {
    return 'RecordedMemory';
  }

  /**
   * Registers a listener of the memory's actions.
   *
   * @param listener - called after every change with its action
   * @returns a function that removes it
   * @throws MemoryArgumentError when `listener` is not a function
   * @example
   * ```ts
   * const stop = memory.onAction((action) => actions.push(action));
   * stop();
   * ```
   */
  onAction(listener: ActionListener): () => void {
    if (typeof listener !== 'function') {
      throw new MemoryArgumentError(
        'RecordedMemory.onAction',
        `listener must be a function, received ${describeValue(listener)}`,
      );
    }
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #record(
    action: () => MemoryAction,
    change: () => readonly MemoryEffect[],
  ): readonly MemoryEffect[] {
    // The action first: an input its creator refuses is refused before the memory changes.
    const recorded = action();
    const before = this.state;
    try {
      const effects = change();
      this.#emit(recorded, before);
      return effects;
    } catch (error) {
      // A subscriber threw after the change was made: the change is real, so it is recorded.
      if (isConversationMemoryError(error) && error.code === 'CM_LISTENER') {
        this.#emit(recorded, before);
      }
      throw error;
    }
  }

  #emit(action: MemoryAction, before: unknown): void {
    if (this.state === before) return;
    for (const listener of [...this.#listeners]) listener(action);
  }

  override add(message: MessageInput): readonly MemoryEffect[] {
    return this.#record(
      () => memoryActions.messageAdded(message),
      () => super.add(message),
    );
  }

  override addMany(messages: readonly MessageInput[]): readonly MemoryEffect[] {
    return this.#record(
      () => memoryActions.messagesAdded(messages),
      () => super.addMany(messages),
    );
  }

  override applySummary(text: string): readonly MemoryEffect[] {
    return this.#record(
      () => memoryActions.summaryApplied(text),
      () => super.applySummary(text),
    );
  }

  override holdForSummary(trimmed: HeldTrim): readonly MemoryEffect[] {
    return this.#record(
      () => memoryActions.trimHeld(trimmed as TrimmedEffect),
      () => super.holdForSummary(trimmed),
    );
  }

  override commitSummary(text: string, through: number): readonly MemoryEffect[] {
    return this.#record(
      () => memoryActions.summaryCommitted(text, through),
      () => super.commitSummary(text, through),
    );
  }

  override reconfigure(config: MemoryOptions): readonly MemoryEffect[] {
    return this.#record(
      () => memoryActions.reconfigured(config),
      () => super.reconfigure(config),
    );
  }

  override applyKnowledge(action: KnowledgeAction): readonly MemoryEffect[] {
    return this.#record(
      () => recordAction(action, 'RecordedMemory.applyKnowledge') as MemoryAction,
      () => super.applyKnowledge(action),
    );
  }

  override clear(): readonly MemoryEffect[] {
    return this.#record(
      () => memoryActions.cleared(),
      () => super.clear(),
    );
  }
}
