import type { MemoryConfig, Message, TrimRule } from 'conversation-memory';

/**
 * The trimming policies of issue #6 §5 written as plainly as possible, for differential tests:
 * every add re-reads the whole window (no tail scan, no incremental total), builds the units
 * explicitly and removes them one by one. Slow and obvious on purpose; it shares no code with
 * `src/`.
 *
 * - `'strict'`: first the pairing rules over the whole window (a tool result joins the open group
 *   when it answers one of its waiting calls by id, and is removed otherwise; a group with calls
 *   still waiting is removed whole when any other message arrives; the last group may stay open);
 *   a unit is then a tool-call message with its results, or one other message.
 * - `'reference'`: a unit is one message; after the limits, leading tool results and tool-call
 *   messages go (the reference's boundary rule).
 * - Both: pinned system messages (`pinSystem`) belong to no unit and are never removed, but count;
 *   the count rule, then the token rule, then (`startOn: 'user'`) the start rule remove the
 *   oldest unit while more than one unit remains.
 * - `trimTo` (issue #29): when the window (after the pairing rules) is over a limit, the count and
 *   token rules (and the redundant rule before them) remove down to `floor(trimTo × maxMessages)`
 *   messages (at least 1) and `trimTo × maxTokens` tokens instead of the limits themselves.
 */
export interface ModelEntry {
  readonly message: Message;
  readonly position: number;
  readonly tokens: number;
}

/** What one add removed, in window order. */
export interface ModelTrim {
  readonly removed: Message[];
  readonly positions: number[];
  readonly rules: TrimRule[];
  readonly removedTokens: number;
  readonly remainingTokens: number;
  readonly remaining: number;
  /** Under `prune: 'redundant'`, when some left by it: each one's newer twin's position. */
  readonly duplicateOf?: (number | null)[];
}

/**
 * Whether the message at `newer` makes the one at `older` redundant, indices into `window` (a
 * plain model of the twin rule, given by the test).
 */
export type TwinModel = (older: number, newer: number, window: readonly Message[]) => boolean;

const requestsTools = (message: Message): boolean =>
  message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0;

export class PolicyModel {
  entries: ModelEntry[] = [];
  nextPosition = 0;

  constructor(
    readonly config: MemoryConfig,
    readonly count: (message: Message) => number,
    readonly twin?: TwinModel,
  ) {}

  /** `addMessage` / `addMessages`: every incoming message takes the next position. */
  add(messages: readonly Message[]): ModelTrim | undefined {
    const incoming = messages.map((message) => ({
      message,
      position: this.nextPosition++,
      tokens: this.count(message),
    }));
    return this.trim([...this.entries, ...incoming], true);
  }

  /** `enforceLimits` (limits on) or `fixToolPairBoundary` (limits off) on the window as it is. */
  enforce(limits: boolean): ModelTrim | undefined {
    return this.trim([...this.entries], limits);
  }

  /** `clearMemory`: what was in the window. */
  clear(): ModelEntry[] {
    const gone = this.entries;
    this.entries = [];
    return gone;
  }

  private pinned(message: Message): boolean {
    return this.config.pinSystem && message.role === 'system';
  }

  /** The strict pairing rules: the indices of `window` they remove. */
  private pairing(window: readonly ModelEntry[]): Set<number> {
    const removed = new Set<number>();
    let open: { members: number[]; waiting: (string | undefined)[] } | undefined;
    window.forEach(({ message }, i) => {
      if (message.role === 'tool') {
        const slot =
          open === undefined || message.toolCallId === undefined
            ? -1
            : open.waiting.indexOf(message.toolCallId);
        if (open === undefined || slot === -1) {
          removed.add(i);
        } else {
          open.waiting.splice(slot, 1);
          open.members.push(i);
        }
        return;
      }
      if (open !== undefined && open.waiting.length > 0) {
        for (const member of open.members) removed.add(member);
      }
      open = undefined;
      if (!requestsTools(message)) return;
      const ids = (message.toolCalls ?? []).map((call) => call.id);
      // A call without an id, or two calls with one id: the group can never be answered.
      if (ids.some((id, k) => id === undefined || ids.indexOf(id) !== k)) removed.add(i);
      else open = { members: [i], waiting: ids };
    });
    return removed;
  }

  private trim(window: ModelEntry[], limits: boolean): ModelTrim | undefined {
    const { maxMessages, maxTokens, toolPairs, startOn } = this.config;
    const strict = toolPairs === 'strict';
    const rules = new Map<number, TrimRule>();
    if (strict) for (const i of this.pairing(window)) rules.set(i, 'toolPairBoundary');

    const units: number[][] = [];
    window.forEach(({ message }, i) => {
      if (rules.has(i) || this.pinned(message)) return;
      if (strict && message.role === 'tool') {
        const head = units[units.length - 1];
        if (
          head === undefined ||
          !requestsTools((window[head[0] as number] as ModelEntry).message)
        ) {
          throw new Error(`model: a kept tool result at ${i} follows no group`);
        }
        head.push(i);
      } else {
        units.push([i]);
      }
    });

    let count = window.length - rules.size;
    let total = 0;
    window.forEach((entry, i) => {
      if (!rules.has(i)) total += entry.tokens;
    });
    const twins = new Map<number, number>();
    // A step: over a limit, trim down to trimTo × each limit.
    const stepping = limits && (count > maxMessages || (maxTokens !== null && total > maxTokens));
    const messageTarget = stepping
      ? Math.max(1, Math.floor(this.config.trimTo * maxMessages))
      : maxMessages;
    const tokenTarget =
      maxTokens === null ? null : stepping ? this.config.trimTo * maxTokens : maxTokens;
    const over = (): boolean =>
      count > messageTarget || (tokenTarget !== null && total > tokenTarget);
    if (limits && this.config.prune === 'redundant' && this.twin !== undefined && over()) {
      this.removeRedundant(window, rules, units, twins, over, (i) => {
        count--;
        total -= (window[i] as ModelEntry).tokens;
      });
    }
    const first = (): Message =>
      (window[(units[0] as number[])[0] as number] as ModelEntry).message;
    const drop = (rule: TrimRule): void => {
      for (const i of units.shift() as number[]) {
        rules.set(i, rule);
        count--;
        total -= (window[i] as ModelEntry).tokens;
      }
    };
    if (limits) {
      while (units.length > 1 && count > messageTarget) drop('messageLimit');
      if (tokenTarget !== null) {
        while (units.length > 1 && total > tokenTarget) drop('tokenLimit');
      }
    }
    if (!strict) {
      while (units.length > 1 && (first().role === 'tool' || requestsTools(first()))) {
        drop('toolPairBoundary');
      }
    }
    if (limits && startOn === 'user') {
      while (units.length > 0 && first().role !== 'user') drop('startOn');
    }

    this.entries = window.filter((_, i) => !rules.has(i));
    if (rules.size === 0) return undefined;
    const order = [...rules.keys()].sort((a, b) => a - b);
    return {
      removed: order.map((i) => (window[i] as ModelEntry).message),
      positions: order.map((i) => (window[i] as ModelEntry).position),
      rules: order.map((i) => rules.get(i) as TrimRule),
      removedTokens: order.reduce((sum, i) => sum + (window[i] as ModelEntry).tokens, 0),
      remainingTokens: total,
      remaining: this.entries.length,
      ...(twins.size === 0
        ? {}
        : { duplicateOf: order.map((i) => (twins.has(i) ? (twins.get(i) as number) : null)) }),
    };
  }

  /**
   * `prune: 'redundant'`, plainly: while over a limit, scan from the oldest for a unit (one
   * message, or a tool-call message with the tool results right after it) before the newest turn
   * (the last user message on, or the newest unit) whose every message has a newer twin still
   * in the window; remove it; repeat.
   */
  private removeRedundant(
    window: readonly ModelEntry[],
    rules: Map<number, TrimRule>,
    units: number[][],
    twins: Map<number, number>,
    over: () => boolean,
    drop: (i: number) => void,
  ): void {
    const messages = window.map((entry) => entry.message);
    const lastUnit = units[units.length - 1];
    if (lastUnit === undefined) return;
    let bound = lastUnit[0] as number;
    for (let i = window.length - 1; i >= 0; i--) {
      if (!rules.has(i) && messages[i]?.role === 'user') {
        bound = Math.min(bound, i);
        break;
      }
    }
    const newestTwin = (m: number): number | undefined => {
      for (let j = window.length - 1; j > m; j--) {
        if (rules.has(j)) continue;
        if ((this.twin as TwinModel)(m, j, messages)) return j;
      }
      return undefined;
    };
    while (over()) {
      let removedOne = false;
      for (let i = 0; i < bound && !removedOne; i++) {
        const message = messages[i] as Message;
        if (rules.has(i) || this.pinned(message) || message.role === 'tool') continue;
        let end = i + 1;
        if (requestsTools(message))
          while (end < window.length && messages[end]?.role === 'tool') end++;
        if (end > bound) continue;
        const members = [];
        for (let m = i; m < end; m++) if (!rules.has(m)) members.push(m);
        const found = members.map(newestTwin);
        if (found.some((j) => j === undefined)) continue;
        members.forEach((m, k) => {
          rules.set(m, 'redundant');
          twins.set(m, (window[found[k] as number] as ModelEntry).position);
          drop(m);
        });
        removedOne = true;
      }
      if (!removedOne) break;
    }
    // The units left for the other rules.
    for (let u = units.length - 1; u >= 0; u--) {
      const unit = (units[u] as number[]).filter((i) => !rules.has(i));
      if (unit.length === 0) units.splice(u, 1);
      else units[u] = unit;
    }
  }
}
