import type { JsonValue, Message } from 'conversation-memory';

/**
 * The twin rule of `prune: 'redundant'` at `pruneThreshold: 1` for texts of lower-case content
 * words only (no digits, names, quotes, dates, negations or stop words), written plainly for
 * differential tests: it shares no code with `src/`. Two messages are twins when they have the
 * same role, the same tool call (a result: the nearest call with its id before it in the window;
 * a tool-call message: its calls), the same set of word 3-shingles and (the value guard's content
 * words) the same words in the same order.
 */
const canonical = (value: JsonValue | undefined): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, JsonValue>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    .join(',')}}`;
};

const callsOf = (message: Message): string[] =>
  (message.toolCalls ?? []).map((call) => `${call.name} ${canonical(call.parameters)}`);

const textOf = (message: Message): string => {
  const calls = callsOf(message);
  const text = message.content ?? '';
  return calls.length === 0 ? text : [text, ...calls].filter((line) => line !== '').join('\n');
};

const wordsOf = (text: string): string[] =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

const shingles = (text: string): Set<string> => {
  const normalized = text.normalize('NFKC').toLowerCase();
  const words = wordsOf(text);
  if (words.length < 3) return new Set([words.length === 0 ? normalized.trim() : words.join(' ')]);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= words.length; i++) out.add(words.slice(i, i + 3).join(' '));
  return out;
};

const sameSet = (a: Set<string>, b: Set<string>): boolean =>
  a.size === b.size && [...a].every((item) => b.has(item));

/**
 * The Jaccard similarity of two texts' sets of word 3-shingles (words: runs of letters and digits
 * after NFKC and lower-casing; a text of fewer than three words is one shingle), as
 * docs/pruning.md defines the lexical embedder's similarity.
 */
export const plainJaccard = (a: string, b: string): number => {
  const x = shingles(a);
  const y = shingles(b);
  const shared = [...x].filter((item) => y.has(item)).length;
  return shared / (x.size + y.size - shared);
};

/** The call a tool result answers: the nearest tool-call message before it with its id. */
const callOf = (window: readonly Message[], at: number): string | undefined => {
  const result = window[at] as Message;
  for (let i = at - 1; i >= 0; i--) {
    const call = (window[i] as Message).toolCalls?.find((c) => c.id === result.toolCallId);
    if (call !== undefined) return `${call.name} ${canonical(call.parameters)}`;
  }
  return undefined;
};

/** `newer` makes `older` redundant (see above). */
export const plainTwin = (a: number, b: number, window: readonly Message[]): boolean => {
  const older = window[a] as Message;
  const newer = window[b] as Message;
  if (older.role !== newer.role) return false;
  if (older.role === 'tool') {
    const call = callOf(window, a);
    if (call === undefined || call !== callOf(window, b)) return false;
    if (older.toolName !== newer.toolName) return false;
  } else if (callsOf(older).sort().join('\n') !== callsOf(newer).sort().join('\n')) return false;
  return (
    sameSet(shingles(textOf(older)), shingles(textOf(newer))) &&
    wordsOf(textOf(older)).join(' ') === wordsOf(textOf(newer)).join(' ')
  );
};
