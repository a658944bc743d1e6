import type { ConversationMemory } from '../../facade/ConversationMemory';
import { getPositions } from '../../core/selectors';
import type { Message } from '../../model/message';
import { isSummarized } from '../../internal/summarized';
import { summaryMessage } from '../summaryMessage';

/**
 * What the model sees in one run, as the reference builds it: the history memory held when the
 * run began, the run's input, then every message of the run (tool calls, results) in order, even
 * those memory has trimmed meanwhile (the model must see the calls it made and their results).
 *
 * One fix over the reference: a history message that memory has trimmed **and** a committed
 * summary covers is left out, since the summary, injected at index 0 as a system message
 * `[Conversation Summary] …`, stands for it (the reference sent both, 9.3 item 2). Trimmed
 * messages that no summary covers yet (summarizing off, failed, or not done yet) stay, as in the
 * reference.
 *
 * @internal
 */
export class RunView {
  readonly #history: readonly Message[];
  readonly #historyPositions: readonly number[];
  readonly #run: Message[] = [];

  constructor(memory: ConversationMemory | undefined) {
    this.#history = memory === undefined ? [] : memory.state.messages;
    this.#historyPositions = memory === undefined ? [] : getPositions(memory.state);
  }

  /** Appends messages of the run. */
  push(...messages: readonly Message[]): void {
    this.#run.push(...messages);
  }

  /** The messages of the next model call. */
  messages(memory: ConversationMemory | undefined): Message[] {
    if (memory === undefined) return this.#run.slice();
    const { summaryCoverage, summary } = memory.state;
    // Held for summarizing is not summarized yet: those stay, whatever the coverage ranges say.
    const held = new Set(getPositions(memory.state));
    for (const position of memory.state.pendingPositions) held.add(position);
    const summarized = (position: number): boolean =>
      !held.has(position) && isSummarized(summaryCoverage, position);
    const view: Message[] = [];
    const injected = summaryMessage(summary);
    if (injected !== undefined) view.push(injected);
    this.#history.forEach((message, i) => {
      if (!summarized(this.#historyPositions[i] as number)) view.push(message);
    });
    view.push(...this.#run);
    return view;
  }
}
