import type { Message, TrimBreakdown, TrimRule } from 'conversation-memory';

/**
 * The reference's `ConversationMemory` (selectools-behaviour.md §1.3–1.6), written as plainly as
 * possible to serve as an oracle: a mutable array, limits enforced after every add exactly as
 * `_enforce_limits` does (the count rule, then the token rule re-summing the whole window on every
 * iteration, then `_fix_tool_pair_boundary`), and `lastTrimmed` overwritten by every add.
 * `count` is the per-message token count (the reference's is `countHeuristicTokens`).
 */
export class ReferenceMemory {
  messages: Message[] = [];
  /** The absolute position of each message (not in the reference; ours, for checking). */
  positions: number[] = [];
  nextPosition = 0;
  lastTrimmed: Message[] = [];
  lastTrimmedPositions: number[] = [];
  /** The rule that removed each message of `lastTrimmed`. */
  lastRules: TrimRule[] = [];
  /** How many messages each rule removed in the last add (not in the reference; for checking). */
  breakdown: TrimBreakdown = { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 };
  summary: string | null = null;

  constructor(
    readonly maxMessages: number,
    readonly maxTokens: number | null,
    readonly count: (message: Message) => number,
  ) {}

  /** `from_dict`: takes the messages as they are, fixes the boundary, enforces no limit. */
  load(messages: readonly Message[]): this {
    this.messages = [...messages];
    this.positions = messages.map((_, i) => i);
    this.nextPosition = messages.length;
    this.fixToolPairBoundary();
    return this;
  }

  /** `add(message)`. */
  add(message: Message): void {
    this.messages.push(message);
    this.positions.push(this.nextPosition++);
    this.enforceLimits();
  }

  /** `add_many(messages)`: one enforcement, even for an empty list. */
  addMany(messages: readonly Message[]): void {
    this.messages.push(...messages);
    for (let i = 0; i < messages.length; i++) this.positions.push(this.nextPosition++);
    this.enforceLimits();
  }

  /** `clear()`: messages, `_last_trimmed` and summary reset. */
  clear(): void {
    this.messages = [];
    this.positions = [];
    this.lastTrimmed = [];
    this.lastTrimmedPositions = [];
    this.lastRules = [];
    this.summary = null;
  }

  private enforceLimits(): void {
    const trimmed: Message[] = [];
    const trimmedPositions: number[] = [];
    let messageLimit = 0;
    let tokenLimit = 0;
    if (this.messages.length > this.maxMessages) {
      messageLimit = this.messages.length - this.maxMessages;
      trimmed.push(...this.messages.splice(0, messageLimit));
      trimmedPositions.push(...this.positions.splice(0, messageLimit));
    }
    if (this.maxTokens !== null) {
      while (this.messages.length > 1) {
        let total = 0;
        for (const message of this.messages) total += this.count(message);
        if (total <= this.maxTokens) break;
        trimmed.push(this.messages.shift() as Message);
        trimmedPositions.push(this.positions.shift() as number);
        tokenLimit++;
      }
    }
    const boundary = this.fixToolPairBoundary();
    trimmed.push(...boundary.removed);
    trimmedPositions.push(...boundary.positions);
    this.lastTrimmed = trimmed;
    this.lastTrimmedPositions = trimmedPositions;
    this.lastRules = [
      ...Array<TrimRule>(messageLimit).fill('messageLimit'),
      ...Array<TrimRule>(tokenLimit).fill('tokenLimit'),
      ...Array<TrimRule>(boundary.removed.length).fill('toolPairBoundary'),
    ];
    this.breakdown = {
      messageLimit,
      tokenLimit,
      toolPairBoundary: boundary.removed.length,
      startOn: 0,
    };
  }

  private fixToolPairBoundary(): { removed: Message[]; positions: number[] } {
    const removed: Message[] = [];
    const positions: number[] = [];
    while (this.messages.length > 1) {
      const first = this.messages[0] as Message;
      if (first.role === 'tool') {
        removed.push(this.messages.shift() as Message);
        positions.push(this.positions.shift() as number);
        continue;
      }
      if (
        first.role === 'assistant' &&
        first.toolCalls !== undefined &&
        first.toolCalls.length > 0
      ) {
        removed.push(this.messages.shift() as Message);
        positions.push(this.positions.shift() as number);
        continue;
      }
      break;
    }
    return { removed, positions };
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
