import type { Message, TrimBreakdown } from 'conversation-memory';

/**
 * The reference's `ConversationMemory` (selectools-behaviour.md §1.3–1.6), written as plainly as
 * possible to serve as an oracle: a mutable array, limits enforced after every add exactly as
 * `_enforce_limits` does (the count rule, then the token rule re-summing the whole window on every
 * iteration, then `_fix_tool_pair_boundary`), and `lastTrimmed` overwritten by every add.
 * `count` is the per-message token count (the reference's is `countHeuristicTokens`).
 */
export class ReferenceMemory {
  messages: Message[] = [];
  lastTrimmed: Message[] = [];
  /** How many messages each rule removed in the last add (not in the reference; for checking). */
  breakdown: TrimBreakdown = { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 0 };
  summary: string | null = null;

  constructor(
    readonly maxMessages: number,
    readonly maxTokens: number | null,
    readonly count: (message: Message) => number,
  ) {}

  /** `from_dict`: takes the messages as they are, fixes the boundary, enforces no limit. */
  load(messages: readonly Message[]): this {
    this.messages = [...messages];
    this.fixToolPairBoundary();
    return this;
  }

  /** `add(message)`. */
  add(message: Message): void {
    this.messages.push(message);
    this.enforceLimits();
  }

  /** `add_many(messages)`: one enforcement, even for an empty list. */
  addMany(messages: readonly Message[]): void {
    this.messages.push(...messages);
    this.enforceLimits();
  }

  /** `clear()`: messages, `_last_trimmed` and summary reset. */
  clear(): void {
    this.messages = [];
    this.lastTrimmed = [];
    this.summary = null;
  }

  private enforceLimits(): void {
    const trimmed: Message[] = [];
    let messageLimit = 0;
    let tokenLimit = 0;
    if (this.messages.length > this.maxMessages) {
      messageLimit = this.messages.length - this.maxMessages;
      trimmed.push(...this.messages.splice(0, messageLimit));
    }
    if (this.maxTokens !== null) {
      while (this.messages.length > 1) {
        let total = 0;
        for (const message of this.messages) total += this.count(message);
        if (total <= this.maxTokens) break;
        trimmed.push(this.messages.shift() as Message);
        tokenLimit++;
      }
    }
    const boundary = this.fixToolPairBoundary();
    trimmed.push(...boundary);
    this.lastTrimmed = trimmed;
    this.breakdown = { messageLimit, tokenLimit, toolPairBoundary: boundary.length };
  }

  private fixToolPairBoundary(): Message[] {
    const removed: Message[] = [];
    while (this.messages.length > 1) {
      const first = this.messages[0] as Message;
      if (first.role === 'tool') {
        removed.push(this.messages.shift() as Message);
        continue;
      }
      if (
        first.role === 'assistant' &&
        first.toolCalls !== undefined &&
        first.toolCalls.length > 0
      ) {
        removed.push(this.messages.shift() as Message);
        continue;
      }
      break;
    }
    return removed;
  }
}

/**
 * The reference's `_append_summary` plus the "empty summary changes nothing" rule: join to the
 * existing summary with one space (the new text alone when there is none, `null` or `''`), keep
 * the newest 4000 code points.
 */
export const referenceAppendSummary = (existing: string | null, text: string): string | null => {
  if (text === '') return existing;
  const combined = existing ? `${existing} ${text}` : text;
  return [...combined].slice(-4000).join('');
};
