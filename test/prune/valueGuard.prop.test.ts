import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMessage, createMemory, getPositions, type MessageInput } from 'conversation-memory';
import {
  CONTENT,
  STOP,
  chatTokensArb,
  renderChat,
  repunctuate,
  punctuationArb,
  spacingArb,
  type ChatToken,
} from '../arbitraries/chatWords';
import { plainJaccard } from './plainTwin';

/**
 * The value guard of `prune: 'redundant'` (docs/pruning.md, "The value guard") under word edits
 * of chat-like messages of 5 to 150 words, with the built-in lexical embedder: a message that
 * differs from a newer one by one content word (lower-case, capitalised or a number) is never
 * removed as redundant, at any threshold; an exact repeat, or one that differs only in stop
 * words, spacing and punctuation, is (the guard does not switch pruning off).
 */

type Shape = 'said' | 'tool result';

interface Outcome {
  /** The rules of every trim, in order. */
  readonly rules: readonly string[];
  /** The twins named by the trims (`duplicateOf`, `null`s left out). */
  readonly twins: readonly number[];
  /** The positions still in the window. */
  readonly kept: readonly number[];
  /** The positions of `older`'s and `newer`'s messages (a read: its call, then its result). */
  readonly older: readonly number[];
  readonly newer: readonly number[];
}

/**
 * Adds two unrelated openers, `older`, `newer` (as two user or assistant messages, or as the
 * results of two reads of one file), then an unrelated user message, under a count limit one below
 * the window: the trim removes `older` when `newer` makes it redundant, else the first opener.
 */
const scenario = (
  older: string,
  newer: string,
  shape: Shape,
  role: 'user' | 'assistant',
  pruneThreshold: number,
): Outcome => {
  const read = (id: string, content: string): MessageInput[] => [
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name: 'read_file', parameters: { path: 'notes.md' } }],
    },
    { role: 'tool', content, toolCallId: id, toolName: 'read_file' },
  ];
  const openers: MessageInput[] = [
    { role: 'user', content: 'zyx qwv first' },
    { role: 'user', content: 'zyx qwv second' },
  ];
  const closer: MessageInput = { role: 'user', content: 'zyx qwv closer' };
  const inputs: MessageInput[] =
    shape === 'said'
      ? [...openers, { role, content: older }, { role, content: newer }, closer]
      : [...openers, ...read('call_1', older), ...read('call_2', newer), closer];
  let state = createMemory({
    maxMessages: inputs.length - 1,
    tokenizer: 'heuristic',
    prune: 'redundant',
    pruneThreshold,
  });
  const rules: string[] = [];
  const twins: number[] = [];
  for (const input of inputs) {
    const t = addMessage(state, input);
    state = t.state;
    for (const e of t.effects) {
      if (e.type !== 'memory/trimmed' || e.reason !== 'enforce_limits') continue;
      rules.push(...e.rules);
      twins.push(...(e.duplicateOf ?? []).filter((twin): twin is number => twin !== null));
    }
  }
  return {
    rules,
    twins,
    kept: getPositions(state),
    older: shape === 'said' ? [2] : [2, 3],
    newer: shape === 'said' ? [3] : [4, 5],
  };
};

/** `older` stayed (the first opener left by the count limit), and nothing left as redundant. */
const expectKept = (outcome: Outcome): void => {
  expect(outcome.rules).toEqual(['messageLimit']);
  for (const position of [...outcome.older, ...outcome.newer]) {
    expect(outcome.kept).toContain(position);
  }
};

/** `older` left as redundant of `newer`, which stayed. */
const expectRemoved = (outcome: Outcome): void => {
  expect(outcome.rules).toEqual(outcome.older.map(() => 'redundant'));
  expect(outcome.twins).toEqual(outcome.newer);
  for (const position of outcome.older) expect(outcome.kept).not.toContain(position);
  for (const position of outcome.newer) expect(outcome.kept).toContain(position);
};

const shapeArb = fc.constantFrom<Shape>('said', 'tool result');
const roleArb = fc.constantFrom('user' as const, 'assistant' as const);

/** The token list with the word at `index` replaced (its punctuation kept). */
const withWord = (tokens: readonly ChatToken[], index: number, word: string): ChatToken[] =>
  tokens.map((t, i) => (i === index ? { word, punct: t.punct } : t));

/** One edit of stop words: one inserted, one dropped, or one replaced by another. */
type StopEdit = { kind: 'insert' | 'drop' | 'replace'; at: number; word: number };

const applyStopEdit = (tokens: readonly ChatToken[], edit: StopEdit): ChatToken[] => {
  const stops = tokens.flatMap((t, i) => (STOP.includes(t.word) ? [i] : []));
  const word = STOP[edit.word % STOP.length] as string;
  if (edit.kind === 'insert' || stops.length === 0) {
    const at = edit.at % (tokens.length + 1);
    return [...tokens.slice(0, at), { word, punct: '' }, ...tokens.slice(at)];
  }
  const at = stops[edit.at % stops.length] as number;
  if (edit.kind === 'drop') return tokens.filter((_, i) => i !== at);
  const other = word === tokens[at]?.word ? (STOP[(edit.word + 1) % STOP.length] as string) : word;
  return withWord(tokens, at, other);
};

describe('the value guard (property, lexical embedder)', () => {
  it('the word lists keep their kinds apart: no content word is a stop word', () => {
    expect(CONTENT.filter((word) => STOP.includes(word.toLowerCase()))).toEqual([]);
  });

  it('never removes a message as redundant of one that substitutes a content word (lower-case, capitalised or a number), at any threshold', () => {
    // Runs where the similarity alone would call the two texts twins (the guard decides), by
    // threshold.
    const decisive = new Map<number, number>();
    let runs = 0;
    fc.assert(
      fc.property(
        chatTokensArb(5, 150),
        fc.nat(),
        fc.nat(CONTENT.length - 1),
        fc.constantFrom(0.5, 0.8, 0.9),
        shapeArb,
        roleArb,
        (tokens, pick, replacement, threshold, shape, role) => {
          const content = tokens.flatMap((t, i) => (STOP.includes(t.word) ? [] : [i]));
          const at = content[pick % content.length] as number;
          const original = tokens[at]?.word as string;
          const word =
            CONTENT[replacement] === original
              ? (CONTENT[(replacement + 1) % CONTENT.length] as string)
              : (CONTENT[replacement] as string);
          const older = renderChat(tokens);
          const newer = renderChat(withWord(tokens, at, word));
          runs++;
          if (plainJaccard(older, newer) >= threshold) {
            decisive.set(threshold, (decisive.get(threshold) ?? 0) + 1);
          }
          expectKept(scenario(older, newer, shape, role, threshold));
        },
      ),
    );
    // Not vacuous: in most runs, and at every threshold (the default 0.9 included), the two
    // texts were similar enough to be twins.
    expect([...decisive.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(runs / 2);
    expect([...decisive.keys()].sort()).toEqual([0.5, 0.8, 0.9]);
    for (const count of decisive.values()) expect(count).toBeGreaterThan(runs / 10);
  });

  it('removes the older of two exact repeats, and of two texts that differ only in spacing and punctuation, at any threshold', () => {
    fc.assert(
      fc.property(
        chatTokensArb(5, 150),
        spacingArb,
        punctuationArb,
        fc.constantFrom(0.5, 0.8, 0.9, 1),
        shapeArb,
        roleArb,
        (tokens, spacing, picks, threshold, shape, role) => {
          const older = renderChat(tokens);
          for (const newer of [older, renderChat(repunctuate(tokens, picks), spacing)]) {
            expectRemoved(scenario(older, newer, shape, role, threshold));
          }
        },
      ),
    );
  });

  it('removes the older of two texts that differ only in a stop word (added, dropped or swapped), spacing and punctuation', () => {
    fc.assert(
      fc.property(
        chatTokensArb(20, 150),
        fc.record({
          kind: fc.constantFrom('insert' as const, 'drop' as const, 'replace' as const),
          at: fc.nat(),
          word: fc.nat(),
        }),
        spacingArb,
        punctuationArb,
        shapeArb,
        roleArb,
        (tokens, edit, spacing, picks, shape, role) => {
          const older = renderChat(tokens);
          const newer = renderChat(repunctuate(applyStopEdit(tokens, edit), picks), spacing);
          // At 20 words or more one stop word changes at most 3 of 18 shingles: far above 0.5,
          // where the locality-sensitive buckets (32 bands of 2) miss a pair of 0.7 with a
          // probability below 1e-9.
          expect(plainJaccard(older, newer)).toBeGreaterThanOrEqual(0.7);
          expectRemoved(scenario(older, newer, shape, role, 0.5));
        },
      ),
    );
  });
});
