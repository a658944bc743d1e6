import { either as E } from 'fp-ts';
import { type FromDictOptions, loadDict } from '../codec/fromDict';
import { addMessageWith } from '../core/addMessage';
import { addMessagesWith } from '../core/addMessages';
import { applySummary } from '../core/applySummary';
import { clearMemory } from '../core/clearMemory';
import { createMemoryFor } from '../core/createMemory';
import { getPendingSummary, getPositions, getRecent } from '../core/selectors';
import { holdForSummary, type HeldTrim } from '../core/holdForSummary';
import { commitSummary } from '../core/commitSummary';
import { reconfigureWith } from '../core/reconfigure';
import { setSummary } from '../core/setSummary';
import { ListenerError, MemoryArgumentError } from '../errors/memoryErrors';
import { readState } from '../internal/readState';
import { NO_EFFECTS } from '../internal/window';
import { describeValue } from '../util/describeValue';
import type { MemoryOptions } from '../model/config';
import type { MemoryEffect, Transition } from '../model/effects';
import type { Message } from '../model/message';
import type { MessageInput } from '../model/messageInput';
import type { MemoryState } from '../model/state';
import type { KnowledgeAction } from '../model/knowledgeActions';
import { memoryTransition } from '../core/memoryTransition';
import { toDict } from '../serialization/toDict';
import type { MemoryDict } from '../serialization/types';

/**
 * Called after every change of a {@link ConversationMemory}, with the effects of that change
 * (empty for a plain add that trimmed nothing) and the new state.
 *
 * @example
 * ```ts
 * const log: MemoryListener = (effects) => effects.forEach((e) => console.log(e.type));
 * ```
 */
export type MemoryListener = (effects: readonly MemoryEffect[], state: MemoryState) => void;

const NOTHING_TRIMMED: readonly Message[] = /* @__PURE__ */ Object.freeze([]);

/** Set for the duration of `fromState`, so the constructor adopts a state instead of creating one. */
let adopting: { readonly state: MemoryState } | undefined;

const KNOWLEDGE_TYPES: ReadonlySet<unknown> = new Set([
  'knowledge/factsExtracted',
  'knowledge/remembered',
  'knowledge/forgotten',
  'knowledge/cleared',
]);

/** `action`, when it is a knowledge action; else a `MemoryArgumentError` naming its type. */
const checkKnowledgeAction = (action: KnowledgeAction): KnowledgeAction => {
  const type =
    typeof action === 'object' && action !== null ? (action as { type?: unknown }).type : undefined;
  if (!KNOWLEDGE_TYPES.has(type)) {
    throw new MemoryArgumentError(
      'ConversationMemory.applyKnowledge',
      `action must be a knowledge action (${[...KNOWLEDGE_TYPES].join(', ')}), received ${describeValue(action)}`,
    );
  }
  return action;
};

/**
 * The seed's object API, as a thin runtime over the pure reducers: it holds the current immutable
 * state, runs a reducer per call, and tells subscribers what happened. Everything it knows is in
 * `state` (plus `lastTrimmed`, which the reference keeps outside its persisted data too).
 *
 * @example
 * ```ts
 * const memory = new ConversationMemory({ maxMessages: 3 });
 * for (let i = 0; i < 5; i++) memory.add(userMessage(`Message ${i}`));
 * memory.getHistory().map((m) => m.content); // ['Message 2', 'Message 3', 'Message 4']
 * ```
 */
export class ConversationMemory {
  #state: MemoryState;
  #lastTrimmed: readonly Message[] = NOTHING_TRIMMED;
  readonly #listeners = new Set<MemoryListener>();

  /**
   * @param options - `maxMessages` (default 20), `maxTokens` (default `null`), `tokenizer`
   *   (default `'o200k_base'`), `toolPairs` (default `'reference'`), `startOn` (default `null`),
   *   `pinSystem` (default `false`), `prune` (default `'oldest'`), `pruneThreshold` (default
   *   `0.9`), `embedder` (default `'lexical'`), `trimTo` (default `1`)
   * @throws MemoryConfigError for invalid options
   * @example
   * ```ts
   * const memory = new ConversationMemory({ maxMessages: 20, maxTokens: 4000 });
   * ```
   */
  constructor(options?: MemoryOptions) {
    this.#state =
      adopting === undefined
        ? // The error names the class called: `new RecordedMemory` for the subclass. By a name
          // given in the source, since bundlers rename classes (`_ConversationMemory`).
          createMemoryFor(`new ${(new.target as typeof ConversationMemory).apiName()}`, options)
        : adopting.state;
  }
  /**
   * The name this class's errors use (`new ConversationMemory: …`). A subclass returns its own
   * (`RecordedMemory`): bundlers rename classes, so `new.target.name` cannot be trusted.
   *
   * @returns the class's public name
   * @example
   * ```ts
   * class Mine extends ConversationMemory {
   *   protected static override apiName(): string { return 'Mine'; }
   * }
   * ```
   */
  protected static apiName(): string {
    return 'ConversationMemory';
  }

  /**
   * Wraps an existing state (from a store, an event log, or a reducer loop).
   *
   * @param state - a state made by this library
   * @returns a memory whose `state` is that very object
   * @example
   * ```ts
   * const memory = ConversationMemory.fromState(addMessage(createMemory(), userMessage('hi')).state);
   * memory.length; // 1
   * ```
   */
  static fromState(state: MemoryState): ConversationMemory {
    state = readState(state, 'ConversationMemory.fromState');
    adopting = { state };
    try {
      return new ConversationMemory();
    } finally {
      adopting = undefined;
    }
  }

  /**
   * Loads a memory from the reference's JSON (see `fromDict`), throwing on invalid input.
   *
   * @param input - parsed JSON
   * @param options - `tokenizer` to count with
   * @returns a new memory
   * @throws MemoryDecodeError listing every problem with its path
   * @example
   * ```ts
   * const memory = ConversationMemory.fromDict(JSON.parse(text));
   * ```
   */
  static fromDict(input: unknown, options?: FromDictOptions): ConversationMemory {
    const decoded = loadDict('ConversationMemory.fromDict', input, options);
    if (E.isLeft(decoded)) throw decoded.left;
    return ConversationMemory.fromState(decoded.right.state);
  }

  /**
   * The current immutable state; a new object after every change, the same one otherwise.
   *
   * @example
   * ```ts
   * store.dispatch({ type: 'memory/replaced', payload: memory.state });
   * ```
   */
  get state(): MemoryState {
    return this.#state;
  }

  /**
   * The message limit.
   *
   * @example
   * ```ts
   * new ConversationMemory().maxMessages; // 20
   * ```
   */
  get maxMessages(): number {
    return this.#state.config.maxMessages;
  }

  /**
   * The token limit, or `null`.
   *
   * @example
   * ```ts
   * new ConversationMemory({ maxTokens: 500 }).maxTokens; // 500
   * ```
   */
  get maxTokens(): number | null {
    return this.#state.config.maxTokens;
  }

  /**
   * How many messages the window holds.
   *
   * @example
   * ```ts
   * memory.add(userMessage('hi'));
   * memory.length; // 1
   * ```
   */
  get length(): number {
    return this.#state.messages.length;
  }

  /**
   * The messages removed by the most recent `add`/`addMany` (empty if it removed none), as the
   * reference's `_last_trimmed`. `clear()` resets it; subscribe to see every removal instead.
   *
   * @example
   * ```ts
   * const memory = new ConversationMemory({ maxMessages: 1 });
   * memory.addMany([userMessage('a'), userMessage('b')]);
   * memory.lastTrimmed; // [userMessage('a')]
   * ```
   */
  get lastTrimmed(): readonly Message[] {
    return this.#lastTrimmed;
  }

  /**
   * The summarize-on-trim text, or `null`. Setting it replaces it (no joining, no cap), as the
   * reference's setter; use {@link ConversationMemory.applySummary} to append a chunk with the
   * reference's join and cap.
   *
   * @example
   * ```ts
   * memory.summary = 'The user is Alice.';
   * memory.summary; // 'The user is Alice.'
   * ```
   */
  get summary(): string | null {
    return this.#state.summary;
  }

  set summary(text: string | null) {
    this.#commit(setSummary(this.#state, text));
  }

  /**
   * Appends a summary chunk, as the `applySummary` reducer (and the reference's
   * `_append_summary`): joined to the existing summary with one space, cut to the newest 4,000
   * characters; an empty text changes nothing. Subscribers are told, as for every change.
   *
   * @param text - the new summary chunk
   * @returns the effects of this change (a `memory/summaryChanged` effect, or none)
   * @throws MemoryArgumentError when `text` is not a string
   * @example
   * ```ts
   * memory.subscribe((effects) => effects.forEach((e) => e.type === 'memory/trimmed' && summarize(e.removed)));
   * memory.applySummary('The user asked about Paris.'); // [{ type: 'memory/summaryChanged', … }]
   * ```
   */
  applySummary(text: string): readonly MemoryEffect[] {
    return this.#commit(applySummary(this.#state, text));
  }

  /**
   * Phase one of summarize-on-trim: holds the messages a trim removed until a summary covers them
   * (see the `holdForSummary` reducer). The agent does this for you when `summarizeOnTrim` is on.
   *
   * @param trimmed - a `memory/trimmed` effect this memory emitted
   * @returns the effects of this change
   * @example
   * ```ts
   * for (const effect of memory.add(message)) {
   *   if (effect.type === 'memory/trimmed') memory.holdForSummary(effect);
   * }
   * ```
   */
  holdForSummary(trimmed: HeldTrim): readonly MemoryEffect[] {
    return this.#commit(holdForSummary(this.#state, trimmed));
  }

  /**
   * Phase two of summarize-on-trim: commits a summary of the held messages up to position
   * `through` (see the `commitSummary` reducer). An empty text commits nothing.
   *
   * @param text - the summary
   * @param through - the position of the newest held message it covers
   * @returns the effects of this change
   * @example
   * ```ts
   * const { positions } = memory.pendingSummary;
   * memory.commitSummary('The user asked about Paris.', positions[positions.length - 1]);
   * ```
   */
  commitSummary(text: string, through: number): readonly MemoryEffect[] {
    return this.#commit(commitSummary(this.#state, text, through));
  }

  /**
   * The trimmed messages held for summarizing, with their positions (see `getPendingSummary`).
   *
   * @example
   * ```ts
   * memory.pendingSummary.messages.length; // 0 until something is held
   * ```
   */
  get pendingSummary(): {
    readonly messages: readonly Message[];
    readonly positions: readonly number[];
  } {
    return getPendingSummary(this.#state);
  }

  /**
   * The absolute positions of the window's messages, parallel to `getHistory()`, as a new array.
   *
   * @example
   * ```ts
   * memory.getPositions(); // [4, 5, 6]
   * ```
   */
  getPositions(): number[] {
    return getPositions(this.#state).slice();
  }

  /**
   * Adds one message and enforces the limits.
   *
   * @param message - the message
   * @returns the effects of this change
   * @example
   * ```ts
   * memory.add({ role: 'tool', content: '42', toolCallId: 'c1', toolName: 'calc' });
   * ```
   */
  add(message: MessageInput): readonly MemoryEffect[] {
    return this.#commitAdd(addMessageWith(this.#state, message, true, 'ConversationMemory.add'));
  }

  /**
   * Adds several messages and enforces the limits once.
   *
   * @param messages - oldest first
   * @returns the effects of this change
   * @example
   * ```ts
   * memory.addMany([userMessage('hi'), assistantMessage('hello')]);
   * ```
   */
  addMany(messages: readonly MessageInput[]): readonly MemoryEffect[] {
    return this.#commitAdd(
      addMessagesWith(this.#state, messages, true, 'ConversationMemory.addMany'),
    );
  }

  /**
   * The whole window, oldest first, as a new array (the reference's `get_history` contract:
   * changing the returned list does not change the memory). For a referentially stable view,
   * read `memory.state.messages` or use the `getHistory` selector.
   *
   * @example
   * ```ts
   * memory.getHistory().length === memory.length; // true
   * ```
   */
  getHistory(): Message[] {
    return this.#state.messages.slice();
  }

  /**
   * The last `n` messages (all of them when there are fewer), as a new array.
   *
   * @param n - an integer ≥ 1
   * @throws MemoryArgumentError: `n must be at least 1, received 0`
   * @example
   * ```ts
   * memory.getRecent(5);
   * ```
   */
  getRecent(n: number): Message[] {
    // The selector's arrays are frozen; the reference's get_recent gives a list the caller owns.
    return getRecent(this.#state, n).slice();
  }

  /**
   * Empties the window and the summary; resets `lastTrimmed`.
   *
   * @returns the effects (a `memory/trimmed` effect with `reason: 'clear'` when anything left)
   * @example
   * ```ts
   * memory.clear();
   * memory.length; // 0
   * ```
   */
  clear(): readonly MemoryEffect[] {
    this.#lastTrimmed = NOTHING_TRIMMED;
    return this.#commit(clearMemory(this.#state));
  }

  /**
   * Changes the config (see the `reconfigure` reducer): new limits, a new tokenizer (every
   * message recounted) or a new trimming policy; fields not given keep their values. What a
   * tighter limit removes is reported (and becomes `lastTrimmed`, as after an add). This is how a
   * new config reaches a conversation loaded from a store, whose stored config wins otherwise.
   *
   * @param config - the fields to change, or a whole config
   * @returns the effects: `memory/reconfigured`, then a `memory/trimmed` if anything left; none
   *   when the config is the same
   * @throws MemoryConfigError naming each invalid field and its value
   * @example
   * ```ts
   * memory.restore(loaded.state); // stored with maxMessages: 50
   * memory.reconfigure({ maxMessages: 20 }); // the 30 oldest leave, reported as a trim
   * ```
   */
  reconfigure(config: MemoryOptions): readonly MemoryEffect[] {
    const transition = reconfigureWith(this.#state, config, true, 'ConversationMemory.reconfigure');
    if (transition.state === this.#state) return transition.effects;
    return this.#commitAdd(transition);
  }

  /**
   * The reference's JSON (see `toDict`).
   *
   * @example
   * ```ts
   * JSON.stringify(memory.toDict());
   * ```
   */
  toDict(): MemoryDict {
    return toDict(this.#state);
  }

  /**
   * An independent copy: same window, summary and limits; no listeners and an empty `lastTrimmed`.
   * States are immutable, so the copy shares them safely and costs O(1).
   *
   * @example
   * ```ts
   * const what = memory.branch();
   * what.add(userMessage('what if…')); // memory is unchanged
   * ```
   */
  branch(): ConversationMemory {
    return ConversationMemory.fromState(this.#state);
  }

  /**
   * Replaces the whole state (a session loaded from a store, a step chosen in a time-travel UI).
   * Listeners are called with no effects and the new state; `lastTrimmed` is reset. A state that
   * is the current one changes nothing.
   *
   * @param state - a `MemoryState` (made by this library: a reducer, `fromDict`, a store)
   * @returns no effects (`[]`): nothing was trimmed or summarized
   * @throws MemoryArgumentError for anything that is not a state
   * @example
   * ```ts
   * const loaded = await store.load('s1');
   * if (loaded) memory.restore(loaded.state);
   * ```
   */
  restore(state: MemoryState): readonly MemoryEffect[] {
    const checked = readState(state, 'ConversationMemory.restore');
    if (checked === this.#state) return NO_EFFECTS;
    this.#lastTrimmed = NOTHING_TRIMMED;
    // A state change with no effects still reaches the listeners (#commit skips only no-ops).
    this.#state = checked;
    return this.#notify({ state: checked, effects: NO_EFFECTS });
  }

  /**
   * Applies a knowledge action (`knowledge/factsExtracted`, `knowledge/remembered`,
   * `knowledge/forgotten`, `knowledge/cleared`) to the conversation's facts (`state.knowledge`),
   * as `memoryTransition` does; listeners get its effects. The agent calls it for its entity
   * memory, knowledge graph and knowledge memory, so the facts persist with the conversation.
   *
   * @param action - the knowledge action
   * @returns the effects (none when nothing changed)
   * @throws MemoryArgumentError naming the field, for a malformed action
   * @example
   * ```ts
   * memory.applyKnowledge({ type: 'knowledge/forgotten', payload: { id: 'k1', at: Date.now() } });
   * memory.state.knowledge?.entries; // the entry k1, retired
   * ```
   */
  applyKnowledge(action: KnowledgeAction): readonly MemoryEffect[] {
    return this.#commit(memoryTransition(this.#state, checkKnowledgeAction(action)));
  }

  /**
   * Registers a listener called after every change with that change's effects.
   *
   * @param listener - the callback
   * @returns a function that removes it
   * @example
   * ```ts
   * const stop = memory.subscribe((effects) => console.log(effects));
   * stop();
   * ```
   */
  subscribe(listener: MemoryListener): () => void {
    if (typeof listener !== 'function') {
      throw new MemoryArgumentError(
        'ConversationMemory.subscribe',
        `listener must be a function, received ${describeValue(listener)}`,
      );
    }
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * The reference's `repr`, in camelCase.
   *
   * @example
   * ```ts
   * String(new ConversationMemory({ maxMessages: 10, maxTokens: 500 })); // 'ConversationMemory(maxMessages=10, maxTokens=500, currentMessages=0)'
   * ```
   */
  toString(): string {
    const { maxMessages, maxTokens } = this.#state.config;
    return `ConversationMemory(maxMessages=${maxMessages}, maxTokens=${maxTokens === null ? 'null' : maxTokens}, currentMessages=${this.length})`;
  }

  #commitAdd(transition: Transition): readonly MemoryEffect[] {
    let trimmed: readonly Message[] = NOTHING_TRIMMED;
    for (const effect of transition.effects) {
      if (effect.type === 'memory/trimmed') trimmed = effect.removed;
    }
    this.#lastTrimmed = trimmed;
    return this.#commit(transition);
  }

  #commit(transition: Transition): readonly MemoryEffect[] {
    if (transition.state === this.#state && transition.effects.length === 0)
      return transition.effects;
    this.#state = transition.state;
    return this.#notify(transition);
  }

  #notify(transition: Transition): readonly MemoryEffect[] {
    let failures = 0;
    let first: unknown;
    for (const listener of [...this.#listeners]) {
      try {
        listener(transition.effects, transition.state);
      } catch (error) {
        if (failures++ === 0) first = error;
      }
    }
    if (failures > 0)
      throw new ListenerError('ConversationMemory', first, failures, transition.effects);
    return transition.effects;
  }
}
