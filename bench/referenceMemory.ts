/**
 * A straightforward port of the reference algorithm (selectools' `ConversationMemory`,
 * `/work/shared/reference/selectools-behaviour.md` §1.4–1.5), kept only as the benchmark's
 * baseline: a mutable array, appended to, then
 *
 * 1. the excess over `maxMessages` sliced off the front (a new array, like Python's
 *    `messages[excess:]`);
 * 2. while more than one message remains: re-sum the tokens of **every** message (recomputed on
 *    every iteration, as the reference does), stop when the total is within `maxTokens`, else
 *    shift the oldest;
 * 3. the tool-pair boundary loop: shift leading tool results and assistant tool-call messages
 *    while more than one message remains.
 *
 * `countMessage` is what step 2 counts each message with. The reference counts content only with
 * `floor(len(content) / 4)`: `countContent(referenceHeuristic)`. `countContent` with a real
 * tokenizer shows what re-counting costs with one; a counter that also counts tool calls (as the
 * library's encodings do) makes the port trim exactly what the library trims.
 */
import type { Message } from '../src/entries/index';

export class ReferenceMemory {
  messages: Message[] = [];
  lastTrimmed: Message[] = [];

  constructor(
    readonly maxMessages: number,
    readonly maxTokens: number | null,
    readonly countMessage: (message: Message) => number,
  ) {}

  /** The reference's `add`: append, then enforce. */
  add(message: Message): void {
    this.messages.push(message);
    this.enforceLimits();
  }

  /** The reference's `add_many`: extend, then enforce once. */
  addMany(messages: readonly Message[]): void {
    for (const message of messages) this.messages.push(message);
    this.enforceLimits();
  }

  private enforceLimits(): void {
    let trimmed: Message[] = [];
    if (this.messages.length > this.maxMessages) {
      const excess = this.messages.length - this.maxMessages;
      trimmed = this.messages.slice(0, excess);
      this.messages = this.messages.slice(excess);
    }
    if (this.maxTokens !== null) {
      while (this.messages.length > 1) {
        let total = 0;
        for (const message of this.messages) total += this.countMessage(message);
        if (total <= this.maxTokens) break;
        trimmed.push(this.messages.shift() as Message);
      }
    }
    while (this.messages.length > 1) {
      const first = this.messages[0] as Message;
      const startsExchange =
        first.role === 'tool' ||
        (first.role === 'assistant' && first.toolCalls !== undefined && first.toolCalls.length > 0);
      if (!startsExchange) break;
      trimmed.push(this.messages.shift() as Message);
    }
    this.lastTrimmed = trimmed;
  }
}

/** The reference memory's own count: `floor(len(content) / 4)`, no minimum of 1. */
export const referenceHeuristic = (text: string): number => Math.floor(text.length / 4);

/** A message counter that counts the content alone with a text counter, as the reference does. */
export const countContent =
  (countText: (text: string) => number): ((message: Message) => number) =>
  (message) =>
    countText(message.content ?? '');
