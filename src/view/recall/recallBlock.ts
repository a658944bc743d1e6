import { RECALL_HEADER } from '../../knowledge/retrieval/headers';
import { sanitizeKnowledgeText } from '../../knowledge/retrieval/sanitizeKnowledgeText';
import { systemMessage } from '../../messages/constructors';
import type { Message } from '../../model/message';
import { messageText } from '../../tokens/messageText';
import { embeddedHits, fuseRankings } from './embeddedRecall';
import { recalledCall, rememberedSearch, type RecallHit, type RecallIndex } from './recallIndex';
import { messageDate } from './recallText';

/** The longest a quoted message's line may be, in characters (a longer one is cut, marked `…`). */
const MAX_LINE = 4_000;

const ROLE_NAMES: Readonly<Record<string, string>> = {
  user: 'User',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool',
};

/** `name {"a":1}`: a call as text. */
const callText = (name: string, parameters: unknown): string =>
  `${name} ${JSON.stringify(parameters)}`;

/**
 * One recalled message as a line of the block: `[date] Role: text`, an assistant's calls as
 * `(called name {…})`, a tool result as `Tool result of name {…}: text` with its call's arguments
 * when the index holds the call (quoted as text, never as a tool message). The quoted text is
 * sanitized like the knowledge blocks' facts (one line, no forged headers, turns or template
 * markers); the role label is ours.
 */
const lineOf = (index: RecallIndex, message: Message): string => {
  const date = messageDate(message);
  let line: string;
  if (message.role === 'tool') {
    const call = recalledCall(index, message.toolCallId)?.message.toolCalls?.find(
      (c) => c.id === message.toolCallId,
    );
    const name = call?.name ?? message.toolName ?? 'a tool';
    const what = call === undefined ? name : callText(call.name, call.parameters);
    line = `Tool result of ${safe(what)}: ${safe(messageText(message))}`;
  } else {
    line = `${ROLE_NAMES[message.role] ?? 'Message'}: ${safe(messageText(message))}`;
    const calls = message.toolCalls ?? [];
    if (calls.length > 0) {
      line += ` (called ${calls.map((c) => safe(callText(c.name, c.parameters))).join('; ')})`;
    }
  }
  return date === undefined ? line : `[${date}] ${line}`;
};

/** A line without its date: what two messages that say the same thing share. */
const said = (line: string): string => line.replace(/^\[\d{4}-\d\d-\d\d \d\d:\d\d\] /, '');

/** Text from the conversation, made safe to quote: cut at `MAX_LINE`, then sanitized. */
const safe = (text: string): string =>
  sanitizeKnowledgeText(text.length > MAX_LINE ? `${text.slice(0, MAX_LINE - 1)}…` : text);

/** What recall adds to a view. */
export interface RecalledBlock {
  /** The system message: the header, then one line per message, oldest first. */
  readonly message: Message;
  readonly tokens: number;
  /** The recalled messages and their positions, oldest first. */
  readonly messages: readonly Message[];
  readonly positions: readonly number[];
}

/**
 * The recall block for `query`: the best-scoring messages of `index` (BM25) not in the view
 * (`skip`), at most `k`, whole messages only, none that repeats a stronger one's text, within `budget` tokens (counted by `count`, the
 * tokenizer named `counter`), quoted oldest first under {@link RECALL_HEADER}. `undefined` when
 * none matches or none fits. Remembered for the same hits, budget, `k` and tokenizer. With
 * `embedder` (a registered one), BM25's best are fused with the embedder's nearest
 * (`fuseRankings`), so a message that shares no word with the question can be found.
 *
 * @internal
 */
export const recallBlock = (
  index: RecallIndex,
  query: string,
  budget: number,
  k: number,
  skip: (position: number) => boolean,
  count: (message: Message) => number,
  counter: string,
  embedder?: string,
): RecalledBlock | undefined => {
  const limit = Math.max(4 * k, 32);
  let hits = rememberedSearch(index, query, limit, skip);
  if (embedder !== undefined) {
    // BM25's ranking and the embedder's, fused; the fused list is kept per BM25 list.
    let byEmbedder = fusedLists.get(hits);
    if (byEmbedder === undefined) {
      byEmbedder = new Map();
      fusedLists.set(hits, byEmbedder);
    }
    let fused = byEmbedder.get(embedder);
    if (fused === undefined) {
      fused = fuseRankings(hits, embeddedHits(index, query, limit, embedder));
      byEmbedder.set(embedder, fused);
    }
    hits = fused.some((hit) => skip(hit.position))
      ? fused.filter((hit) => !skip(hit.position))
      : fused;
  }
  if (hits.length === 0) return undefined;
  let made = blocks.get(hits);
  if (made === undefined) {
    made = new Map();
    blocks.set(hits, made);
  }
  const key = `${budget}\u0000${k}\u0000${counter}`;
  if (made.has(key)) return made.get(key) ?? undefined;
  const block = packBlock(index, hits, budget, k, count, counter);
  made.set(key, block ?? null);
  return block;
};

/** BM25's hits fused with each embedder's, by the BM25 list they were made from. */
const fusedLists = /* @__PURE__ */ new WeakMap<readonly RecallHit[], Map<string, RecallHit[]>>();

/**
 * The blocks made from each remembered list of hits, by budget, `k` and tokenizer: the same hits
 * give the same block (its lines and counts are not made again).
 */
const blocks = /* @__PURE__ */ new WeakMap<
  readonly RecallHit[],
  Map<string, RecalledBlock | null>
>();

/** Each quoted message's line and its tokens, by tokenizer: a message is quoted alike each time. */
const lines = /* @__PURE__ */ new WeakMap<Message, Map<string, { line: string; tokens: number }>>();

/** The tokens of `message`'s line in a block (after a line break), counted once per tokenizer. */
const lineTokens = (
  message: Message,
  line: string,
  counter: string,
  count: (message: Message) => number,
): number => {
  let byCounter = lines.get(message);
  if (byCounter === undefined) {
    byCounter = new Map();
    lines.set(message, byCounter);
  }
  const known = byCounter.get(counter);
  if (known !== undefined && known.line === line) return known.tokens;
  const tokens = count(systemMessage(`\n${line}`));
  byCounter.set(counter, { line, tokens });
  return tokens;
};

/** {@link recallBlock}'s packing: the best hits that fit, whole, oldest first. */
const packBlock = (
  index: RecallIndex,
  hits: readonly RecallHit[],
  budget: number,
  k: number,
  count: (message: Message) => number,
  counter: string,
): RecalledBlock | undefined => {
  const header = count(systemMessage(RECALL_HEADER));
  let used = header;
  const chosen: { hit: RecallHit; line: string }[] = [];
  const quoted = new Set<string>();
  for (const hit of hits) {
    if (chosen.length === k) break;
    const line = lineOf(index, hit.message);
    // A message that says what a stronger (or, at an equal score, newer) one already quoted
    // says is not quoted again: it would spend the budget on nothing new.
    if (quoted.has(said(line))) continue;
    quoted.add(said(line));
    const tokens = lineTokens(hit.message, line, counter, count);
    if (used + tokens > budget) continue;
    used += tokens;
    chosen.push({ hit, line });
  }
  // The block counted whole may differ from the sum of its lines: drop the weakest until it fits.
  for (;;) {
    if (chosen.length === 0) return undefined;
    chosen.sort((a, b) => a.hit.position - b.hit.position);
    const message = systemMessage([RECALL_HEADER, ...chosen.map((c) => c.line)].join('\n'));
    const tokens = count(message);
    if (tokens <= budget) {
      return {
        message,
        tokens,
        messages: chosen.map((c) => c.hit.message),
        positions: chosen.map((c) => c.hit.position),
      };
    }
    const weakest = chosen.reduce((a, b) => (b.hit.score < a.hit.score ? b : a));
    chosen.splice(chosen.indexOf(weakest), 1);
  }
};
