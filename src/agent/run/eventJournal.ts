import { createMemory } from '../../core/createMemory';
import { isConversationMemoryError } from '../../errors/errorBrand';
import type { RecordedMemory } from '../../facade/RecordedMemory';
import type { MemoryAction } from '../../model/actions';
import type { MemoryConfig } from '../../model/config';
import type { CheckedEventStore } from '../checkAgentOptions';
import type { SessionStart } from './sessionStart';

const isConflict = (error: unknown): boolean =>
  isConversationMemoryError(error) && error.code === 'CM_EVENT_CONFLICT';

/**
 * The agent's link to its event stream for one run (or one `clearMemory`): `load` puts the
 * stream's state into the memory and remembers its version; `commit` makes one change on the
 * memory, records its actions (the memory is a `RecordedMemory`) and appends them, awaited, with
 * the expected version. So after every step the memory equals the stream at the version held.
 *
 * On `EventConflictError` (another writer appended meanwhile) the stream is loaded again and the
 * change is made again on the latest state (the same call, so trims and holds follow the latest
 * window), then appended once more; a second conflict rejects with `EventConflictError` and the
 * memory is left at the latest stored state. An append that succeeded is never repeated: only the
 * change being committed is ever pending. Any other failure of the change or the append puts the
 * memory back as it was before the change and rejects.
 *
 * An absent stream (never created, or deleted) is the empty state of the option's config, else
 * of the config of the agent's {@link SessionStart} (the memory's before the agent's first load):
 * never what the memory held of a stream that is gone. So a stream deleted between runs starts
 * empty, and one deleted during a run fails the next append (a conflict at version 0): the
 * change is made again on the empty state and creates the stream anew. The run's changes
 * appended before the deletion were deleted with it and stay deleted.
 *
 * @internal
 */
export class EventJournal {
  readonly #target: CheckedEventStore;
  readonly #memory: RecordedMemory;
  readonly #start: SessionStart;
  #version = 0;

  constructor(target: CheckedEventStore, memory: RecordedMemory, start: SessionStart) {
    this.#target = target;
    this.#memory = memory;
    this.#start = start;
  }

  /** The stream's version the memory is at. */
  get version(): number {
    return this.#version;
  }

  /** The config a stream is created with: the option's, else the memory's before the first load. */
  #config(): MemoryConfig {
    return this.#target.config ?? this.#start.of(this.#memory).config;
  }

  /**
   * Loads the stream into the memory (an absent stream as its initial state, version 0).
   *
   * @returns whether the stream existed
   */
  async load(): Promise<boolean> {
    const { store, where } = this.#target;
    const config = this.#config(); // before the load: the start is the memory as first found
    const loaded = await store.load(where.id, { namespace: where.namespace });
    this.#memory.restore(loaded?.state ?? createMemory(config));
    this.#version = loaded?.version ?? 0;
    return loaded !== null;
  }

  #capture(change: () => void): MemoryAction[] {
    const actions: MemoryAction[] = [];
    const before = this.#memory.state;
    const stop = this.#memory.onAction((action) => void actions.push(action));
    try {
      change();
    } catch (error) {
      this.#memory.restore(before);
      throw error;
    } finally {
      stop();
    }
    return actions;
  }

  async #append(actions: readonly MemoryAction[]): Promise<void> {
    const { store, where } = this.#target;
    const expectedVersion = this.#version;
    const created = expectedVersion === 0 ? { config: this.#config() } : {};
    const { version } = await store.append(where.id, actions, {
      namespace: where.namespace,
      expectedVersion,
      ...created,
    });
    this.#version = version;
  }

  /**
   * Makes `change` on the memory and appends its actions (nothing when it changed nothing).
   *
   * @param change - calls the memory's methods; it may run twice (again after a conflict)
   */
  async commit(change: () => void): Promise<void> {
    const before = this.#memory.state;
    const actions = this.#capture(change);
    if (actions.length === 0) return;
    try {
      await this.#append(actions);
      return;
    } catch (error) {
      if (!isConflict(error)) {
        this.#memory.restore(before);
        throw error;
      }
    }
    // Another writer appended: the change again, on the latest stored state, once.
    await this.load();
    const latest = this.#memory.state;
    const again = this.#capture(change);
    if (again.length === 0) return;
    try {
      await this.#append(again);
    } catch (error) {
      this.#memory.restore(latest);
      throw error;
    }
  }
}
