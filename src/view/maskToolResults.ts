import type { Message, ToolCall } from '../model/message';
import { canonicalJson } from '../similarity/embeddingText';
import { maskedToolResult } from './maskedToolResult';
import type { ViewDraft } from './repairToolPairs';
import type { MaskToolResults, ViewChange } from './viewTypes';

/**
 * What masking needs to mask only until a view fits its budget (`untilFits`): the budget, the
 * tokens of the messages sent before the draft (`fixed`), a message's tokens (`source` its index
 * in the source, −1 for a message the view made), and which messages a budget never leaves out.
 *
 * @internal
 */
export interface MaskFit {
  readonly budget: number;
  readonly fixed: number;
  readonly count: (message: Message, source: number) => number;
  readonly pinned: (message: Message) => boolean;
}

/**
 * The text content that makes two tool results of the same tool repeats, when they have one
 * (none for content parts or an image).
 */
const repeatText = (message: Message): string | undefined =>
  typeof message.content === 'string' &&
  message.contentParts === undefined &&
  message.imageBase64 === undefined
    ? message.content
    : undefined;

/**
 * Draft indices by tool name and text content. Two maps, not one keyed by a joined string: the
 * window's contents are the same string objects from view to view, so their hashes are computed
 * once, where a joined key would be built and hashed on every view.
 */
class CopyIndex {
  readonly #byTool = new Map<string, Map<string, number>>();
  get(tool: string, text: string): number | undefined {
    return this.#byTool.get(tool)?.get(text);
  }
  set(tool: string, text: string, k: number): void {
    let texts = this.#byTool.get(tool);
    if (texts === undefined) this.#byTool.set(tool, (texts = new Map()));
    texts.set(text, k);
  }
}

/**
 * Each call's key (its name and canonical arguments), once per frozen call object (memory's
 * messages are frozen; a transcript's own objects, which may change, are keyed afresh).
 */
const CALL_KEYS: WeakMap<ToolCall, string> = /* @__PURE__ */ new WeakMap();

const callKey = (call: ToolCall): string => {
  let key = CALL_KEYS.get(call);
  if (key === undefined) {
    key = `${call.name}\u0000${canonicalJson(call.parameters)}`;
    if (Object.isFrozen(call)) CALL_KEYS.set(call, key);
  }
  return key;
};

/** The call of each tool call id in the draft: its name and canonical arguments. */
const callKeys = (messages: readonly Message[]): Map<string, string> => {
  const keys = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) {
      if (call.id !== undefined && !keys.has(call.id)) keys.set(call.id, callKey(call));
    }
  }
  return keys;
};

/** How the draft's tool results stand before any budget: what rules 1 to 3 decide. */
interface Classes {
  /** Exact repeats: draft index → the index of the newer copy they point to. */
  readonly repeatOf: Map<number, number>;
  /** The repeats pointing to each copy, by the copy's index. */
  readonly repeatsOf: Map<number, number[]>;
  /** Results `keepLast` / `keepTurns` do not keep, oldest first. */
  readonly stale: number[];
  /** Stale results with a newer result of the same call (tool name and arguments). */
  readonly superseded: Set<number>;
}

/**
 * Rules 1 to 3, walking from the newest message: the current turn and non-tool messages are
 * left alone; a copy of a newer result that is not itself a repeat is a repeat; a result
 * `keepLast` / `keepTurns` keep stays; any other is stale.
 */
const classify = (draft: ViewDraft, mask: MaskToolResults, fit: boolean): Classes => {
  const { messages, sources } = draft;
  const keepLast = mask.keepLast ?? 0;
  const keepTurns = mask.keepTurns ?? 0;
  let current = 0;
  for (let k = messages.length - 1; k >= 0; k--) {
    if (messages[k]?.role === 'user') {
      current = k;
      break;
    }
  }
  const calls = fit ? callKeys(messages) : undefined;
  const newerCalls = new Set<string>();
  /** The index of the newest copy not masked as a repeat, by repeat key. */
  const copies = new CopyIndex();
  const classes: Classes = {
    repeatOf: new Map(),
    repeatsOf: new Map(),
    stale: [],
    superseded: new Set(),
  };
  let verbatim = 0;
  let turns = 0;
  for (let k = messages.length - 1; k >= 0; k--) {
    const message = messages[k] as Message;
    if (message.role === 'user') turns++;
    if (message.role !== 'tool' || (sources[k] as number) < 0) continue;
    const text = repeatText(message);
    const tool = message.toolName ?? '';
    const call = calls?.get(message.toolCallId ?? '');
    const superseded = call !== undefined && newerCalls.has(call);
    if (call !== undefined) newerCalls.add(call);
    if (k >= current) {
      verbatim++;
      if (text !== undefined && copies.get(tool, text) === undefined) copies.set(tool, text, k);
      continue;
    }
    const copy = text === undefined ? undefined : copies.get(tool, text);
    if (copy !== undefined) {
      classes.repeatOf.set(k, copy);
      const repeats = classes.repeatsOf.get(copy);
      if (repeats === undefined) classes.repeatsOf.set(copy, [k]);
      else repeats.push(k);
      continue;
    }
    if (text !== undefined) copies.set(tool, text, k);
    if (verbatim < keepLast || turns < keepTurns) {
      verbatim++;
      continue;
    }
    classes.stale.push(k);
    if (superseded) classes.superseded.add(k);
  }
  classes.stale.reverse();
  return classes;
};

/**
 * Rule 4, masking until the view fits: which stale results to mask (`maskedAs` holds every
 * masked result, −1 for stale, else the index of the copy a repeat points to). Nothing more is
 * masked when the view fits; otherwise, in order:
 *
 * a. Superseded results (a newer result of the same call is in the view) are masked, oldest
 *    first, until the view fits.
 * b. Then, walking from the newest message, the other stale results stay verbatim while the
 *    messages walked so far (with what the budget never leaves out) fit the budget; from the
 *    first one that does not fit on, every older stale result is masked. The budget then leaves
 *    out the oldest groups that still do not fit (`fitBudget`), so the view keeps at least the
 *    newest groups a view without masking would keep, and older ones behind placeholders.
 *
 * A result whose placeholder is not shorter is never masked, not even an exact repeat: a view
 * that masks never costs more than one that does not.
 */
const maskUntilFits = (
  draft: ViewDraft,
  classes: Classes,
  fit: MaskFit,
  maskedAs: Map<number, number>,
  placeholderOf: (k: number, copy: number) => Message,
): void => {
  const { messages, sources } = draft;
  const original = messages.map((message, k) => fit.count(message, sources[k] as number));
  const now = original.slice();
  /** The tokens of k's placeholder: stale (`copy` −1), or pointing at the copy `copy`. */
  const placeholderTokens = (k: number, copy: number): number =>
    fit.count(placeholderOf(k, copy), -1);
  let tokens = fit.fixed;
  for (const count of original) tokens += count;
  const set = (k: number, copy: number): void => {
    const next = placeholderTokens(k, copy);
    tokens += next - (now[k] as number);
    now[k] = next;
    maskedAs.set(k, copy);
  };
  /** Masks k as stale, and its masked repeats with it (they have nothing to point to). */
  const maskStale = (k: number): void => {
    set(k, -1);
    for (const repeat of classes.repeatsOf.get(k) ?? []) if (maskedAs.has(repeat)) set(repeat, -1);
  };
  const shorter = (k: number, copy = -1) => placeholderTokens(k, copy) < (original[k] as number);
  for (const [k, copy] of classes.repeatOf) if (shorter(k, copy)) set(k, copy);
  // a. Superseded results, oldest first.
  for (const k of classes.stale) {
    if (tokens <= fit.budget) return;
    if (classes.superseded.has(k) && shorter(k)) maskStale(k);
  }
  if (tokens <= fit.budget) return;
  // b. The others: verbatim from the newest while the walk fits, masked from there on.
  const stale = new Set(classes.stale);
  let walked = fit.fixed;
  messages.forEach((message, k) => {
    if (fit.pinned(message)) walked += now[k] as number;
  });
  let masking = false;
  for (let k = messages.length - 1; k >= 0 && walked <= fit.budget; k--) {
    if (fit.pinned(messages[k] as Message)) continue;
    if (stale.has(k) && !maskedAs.has(k)) {
      if (!masking && walked + (original[k] as number) > fit.budget) masking = true;
      if (masking && shorter(k)) maskStale(k);
    }
    walked += now[k] as number;
  }
};

/**
 * Masks stale tool results of a draft (rules in order, walking from the newest message):
 *
 * 1. The current turn (from the last user message on; the whole draft when it has no user
 *    message) is never touched, nor any message that is not a tool result of the source (an
 *    answer the view made for an unanswered call stays as it is, and is not counted).
 * 2. A result identical to a newer one sent verbatim (same tool name, same text content) is
 *    masked as a `'repeat'` of it (`sameAs`): the newest copy is the one sent.
 * 3. Otherwise a result is sent verbatim when it is one of the `keepLast` newest results sent
 *    verbatim (the current turn's count), or lies within the `keepTurns` newest user turns (the
 *    current turn is the first); else it is stale.
 * 4. Stale results are masked (`'stale'`); with `untilFits` (and `fit`), only as many as the
 *    budget needs (see `maskUntilFits`). A repeat of a result masked as stale is stale too.
 *
 * A masked result keeps its place, role, `toolCallId` and `toolName` (see `maskedToolResult`), so
 * the draft's roles, ids and groups are unchanged; each masking is a `view/masked` change, in
 * the order of the draft.
 *
 * @internal
 */
export const maskToolResults = (
  draft: ViewDraft,
  mask: MaskToolResults,
  fit?: MaskFit,
): ViewDraft => {
  const untilFits = mask.untilFits === true && fit !== undefined;
  const classes = classify(draft, mask, untilFits);
  const maskedAs = new Map<number, number>();
  const { messages, sources, positions } = draft;
  /** Each placeholder made once (masking to fit counts them before it decides). */
  const placeholders = new Map<string, Message>();
  const placeholderOf = (k: number, copy: number): Message => {
    const memo = `${k}:${copy}`;
    let placeholder = placeholders.get(memo);
    if (placeholder === undefined) {
      const sameAs = copy < 0 ? undefined : ((messages[copy] as Message).toolCallId ?? '');
      placeholder = maskedToolResult(messages[k] as Message, sameAs);
      placeholders.set(memo, placeholder);
    }
    return placeholder;
  };
  if (untilFits) {
    maskUntilFits(draft, classes, fit, maskedAs, placeholderOf);
  } else {
    for (const [k, copy] of classes.repeatOf) maskedAs.set(k, copy);
    for (const k of classes.stale) {
      maskedAs.set(k, -1);
      for (const repeat of classes.repeatsOf.get(k) ?? []) maskedAs.set(repeat, -1);
    }
  }
  if (maskedAs.size === 0) return draft;
  const masked = new Map<Message, Message>();
  const next = messages.slice();
  for (const k of [...maskedAs.keys()].sort((a, b) => a - b)) {
    const copy = maskedAs.get(k) as number;
    const message = messages[k] as Message;
    const sameAs = copy < 0 ? undefined : ((messages[copy] as Message).toolCallId ?? '');
    const placeholder = placeholderOf(k, copy);
    next[k] = placeholder;
    masked.set(placeholder, message);
    draft.changes.push({
      type: 'view/masked',
      reason: sameAs === undefined ? 'stale' : 'repeat',
      index: sources[k] as number,
      position: positions[k] as number | null,
      toolCallId: message.toolCallId ?? '',
      toolName: message.toolName ?? null,
      ...(sameAs === undefined ? {} : { sameAs }),
      message: placeholder,
    } satisfies ViewChange);
  }
  return { ...draft, messages: next, masked };
};
