import type { ConversationMemory } from '../../facade/ConversationMemory';
import { createMemory } from '../../core/createMemory';
import { getPositions } from '../../core/selectors';
import type { Message } from '../../model/message';
import type { CacheTtl } from '../../model/promptCache';
import type { MemoryState } from '../../model/state';
import { modelView } from '../../view/modelView';
import type {
  MaskToolResults,
  ModelView,
  RecallOptions,
  TranscriptEntry,
  ViewTarget,
} from '../../view/viewTypes';

/** The state of an agent without memory: no summary, no window; the run's transcript only. */
let emptyState: MemoryState | undefined;

/**
 * The run's transcript, as the reference builds what the model sees: the history memory held
 * when the run began, the run's input, then every message of the run (tool calls, results) in
 * order, even those memory has trimmed meanwhile (the model must see the calls it made and their
 * results). Each entry keeps its position, so `modelView` can leave out what a committed summary
 * covers (the reference sent both, 9.3 item 2) and repair what a provider would refuse.
 *
 * @internal
 */
export class RunView {
  readonly #entries: TranscriptEntry[] = [];
  /** Where the run's own messages start in `#entries` (after the history it began with). */
  readonly #start: number;

  constructor(memory: ConversationMemory | undefined) {
    if (memory === undefined) {
      this.#start = 0;
      return;
    }
    const { messages } = memory.state;
    const positions = getPositions(memory.state);
    messages.forEach((message, i) => {
      this.#entries.push({ message, position: positions[i] as number });
    });
    this.#start = this.#entries.length;
  }

  /** The messages of the run itself (its input, replies and tool results), in order. */
  runMessages(): Message[] {
    return this.#entries.slice(this.#start).map((entry) => entry.message);
  }

  /** Appends messages of the run, with their positions (`null` for one memory did not keep). */
  push(messages: readonly Message[], positions?: readonly number[]): void {
    messages.forEach((message, i) => {
      this.#entries.push({ message, position: positions?.[i] ?? null });
    });
  }

  /**
   * The model view of the next call: `modelView` of the memory with the run's transcript, the
   * knowledge blocks (when there are any) first, stale tool output masked (with `mask`), its
   * cache breakpoints marked (with `cache`), and what left the window recalled (with `recall`).
   */
  view(
    memory: ConversationMemory | undefined,
    target: ViewTarget,
    knowledge?: string,
    mask?: MaskToolResults,
    cache?: CacheTtl,
    recall?: RecallOptions,
  ): ModelView {
    const state = memory?.state ?? (emptyState ??= createMemory());
    return modelView(state, {
      target,
      transcript: this.#entries,
      ...(knowledge === undefined ? {} : { knowledge }),
      ...(mask === undefined ? {} : { maskToolResults: mask }),
      ...(cache === undefined ? {} : { cache: { ttl: cache } }),
      ...(recall === undefined ? {} : { recall }),
    });
  }

  /** Every message of the transcript (for the knowledge blocks' query). */
  messages(): Message[] {
    return this.#entries.map((entry) => entry.message);
  }
}
