/**
 * Masking only as far as the budget needs (`maskToolResults: { untilFits: true }`, issue #19 §2):
 * a view that fits masks no stale result; superseded results (a newer result of the same call)
 * go first; then the newest results stay verbatim while they fit and older ones are masked, so
 * older turns stay behind placeholders where a view without masking leaves them out; a result no
 * longer than its placeholder is never masked for the budget; exact repeats are always masked.
 */
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  assistantMessage,
  createMemory,
  modelView,
  toolMessage,
  userMessage,
  validateTranscript,
  type Message,
  type MemoryState,
  type ViewChange,
} from 'conversation-memory';

/** 100 heuristic tokens of text, told apart by `tag`. */
const big = (tag: string) => `${tag}:`.padEnd(400, 'x');

/** An assistant call to `read_file` on `path` and its result. */
const read = (id: string, path: string, content: string): Message[] => [
  assistantMessage(null, [{ id, name: 'read_file', parameters: { path } }]),
  toolMessage(content, { toolCallId: id, toolName: 'read_file' }),
];

const stateOf = (messages: readonly Message[]): MemoryState =>
  addMessages(createMemory({ tokenizer: 'heuristic', maxMessages: 1000 }), messages).state;

const masked = (changes: readonly ViewChange[]) =>
  changes.flatMap((c) =>
    c.type === 'view/masked'
      ? [`${c.reason}:${c.toolCallId}${c.sameAs ? `=${c.sameAs}` : ''}`]
      : [],
  );

/** The call ids of the results a view sends verbatim. */
const verbatim = (messages: readonly Message[]) =>
  messages.flatMap((m) =>
    m.role === 'tool' && m.metadata?.['masked'] !== true ? [m.toolCallId] : [],
  );

describe('modelView: maskToolResults.untilFits', () => {
  it('a view that fits its budget masks no stale result, only exact repeats', () => {
    const state = stateOf([
      userMessage('u1'),
      ...read('c1', 'a.txt', big('A')),
      userMessage('u2'),
      ...read('c2', 'b.txt', big('B')),
      ...read('c3', 'a.txt', big('A')),
      userMessage('now'),
    ]);
    const view = modelView(state, {
      budget: 10_000,
      maskToolResults: { keepLast: 0, untilFits: true },
    });
    expect(masked(view.changes)).toEqual(['repeat:c1=c3']);
    // Without untilFits, every result outside the current turn is masked.
    const all = modelView(state, { budget: 10_000, maskToolResults: { keepLast: 0 } });
    expect(masked(all.changes)).toEqual(['stale:c1', 'stale:c2', 'stale:c3']);
  });

  it('masks a superseded result (a newer read of the same file) before an older other one', () => {
    const state = stateOf([
      userMessage('u1'),
      ...read('c1', 'b.txt', big('B')),
      userMessage('u2'),
      ...read('c2', 'a.txt', big('A version 1')),
      userMessage('u3'),
      ...read('c3', 'a.txt', big('A version 2')),
      userMessage('now'),
    ]);
    const full = modelView(state, { budget: 100_000 }).tokens as number;
    // One result masked is enough.
    const view = modelView(state, {
      budget: full - 50,
      maskToolResults: { keepLast: 0, untilFits: true },
    });
    expect(masked(view.changes)).toEqual(['stale:c2']);
    expect(verbatim(view.messages)).toEqual(['c1', 'c3']);
    expect(view.tokens).toBeLessThanOrEqual(full - 50);
    // The same call with other arguments does not supersede: the oldest result goes.
    const other = stateOf(
      state.messages.map((m) =>
        m.toolCalls?.[0]?.id === 'c3'
          ? assistantMessage(null, [{ id: 'c3', name: 'read_file', parameters: { path: 'c.txt' } }])
          : m,
      ),
    );
    const oldestFirst = modelView(other, {
      budget: full - 50,
      maskToolResults: { keepLast: 0, untilFits: true },
    });
    expect(masked(oldestFirst.changes)).toEqual(['stale:c1']);
  });

  it('keeps the newest results verbatim while they fit, masks every older one, and keeps older turns a plain view leaves out', () => {
    const state = stateOf([
      userMessage('first: deadline is Friday'),
      ...read('c0', 'z.txt', 'z'.repeat(160)),
      userMessage('u1'),
      ...read('c1', 'a.txt', big('A')),
      userMessage('u2'),
      ...read('c2', 'b.txt', big('B')),
      userMessage('now'),
      ...read('c3', 'c.txt', big('C')),
    ]);
    const budget = 280;
    const view = modelView(state, { budget, maskToolResults: { keepLast: 0, untilFits: true } });
    // c3 is the current turn; c2 fits verbatim; c1 does not, so c1 and the older c0 are masked
    // (c0 would fit, but no older result is sent verbatim once a newer one was masked).
    expect(verbatim(view.messages)).toEqual(['c2', 'c3']);
    expect(masked(view.changes)).toEqual(['stale:c0', 'stale:c1']);
    expect(view.messages[0]?.content).toBe('first: deadline is Friday');
    expect(view.tokens).toBeLessThanOrEqual(budget);
    expect(view.overBudget).toBe(false);
    // Without masking, the same budget leaves out the first turns.
    const plain = modelView(state, { budget });
    expect(plain.messages.map((m) => m.content)).not.toContain('first: deadline is Friday');
    expect(verbatim(plain.messages)).toEqual(['c2', 'c3']);
    expect(validateTranscript(view.messages, 'openai')).toEqual([]);
  });

  it('leaves out the oldest groups when every stale result masked still does not fit', () => {
    const state = stateOf([
      userMessage('x'.repeat(400)),
      ...read('c1', 'a.txt', big('A')),
      userMessage('u2'),
      ...read('c2', 'b.txt', big('B')),
      userMessage('now'),
    ]);
    // Both results masked (23 tokens each), the first user message (100) and then the first
    // group still have to go.
    const view = modelView(state, {
      budget: 40,
      maskToolResults: { keepLast: 0, untilFits: true },
    });
    expect(view.messages[0]?.content).toBe('u2');
    expect(masked(view.changes)).toEqual(['stale:c2']);
    const left = view.changes.filter((c) => c.type === 'view/omitted');
    expect(left.map((c) => (c.type === 'view/omitted' ? c.reason : ''))).toEqual([
      'budget',
      'budget',
      'budget',
    ]);
    // The result left out is reported with its original, not its placeholder.
    expect(left[2]?.message).toBe(state.messages[2]);
    expect(view.tokens).toBeLessThanOrEqual(40);
  });

  it('never masks a result no longer than its placeholder for the budget', () => {
    const state = stateOf([
      userMessage('u1'),
      ...read('c1', 'a.txt', 'ok'),
      userMessage('u2'),
      ...read('c2', 'b.txt', big('B')),
      userMessage('now'),
    ]);
    const view = modelView(state, {
      budget: 40,
      maskToolResults: { keepLast: 0, untilFits: true },
    });
    expect(masked(view.changes)).toEqual(['stale:c2']);
    expect(verbatim(view.messages)).toEqual(['c1']);
  });

  it('keepLast and keepTurns still keep their results; a repeat of a masked result is masked as stale', () => {
    const state = stateOf([
      userMessage('u1'),
      ...read('c1', 'a.txt', big('A')),
      userMessage('u2'),
      ...read('c2', 'b.txt', big('B')),
      ...read('c3', 'a.txt', big('A')),
      userMessage('u3'),
      ...read('c4', 'd.txt', big('D')),
      userMessage('now'),
    ]);
    const view = modelView(state, {
      budget: 190,
      maskToolResults: { keepLast: 1, untilFits: true },
    });
    // c4 is kept by keepLast; c3 is masked, so its older copy c1 points to nothing and is stale.
    expect(verbatim(view.messages)).toEqual(['c4']);
    expect(masked(view.changes)).toEqual(['stale:c1', 'stale:c2', 'stale:c3']);
    const turns = modelView(state, {
      budget: 190,
      maskToolResults: { keepTurns: 2, untilFits: true },
    });
    expect(verbatim(turns.messages)).toEqual(['c4']);
  });

  it('needs a budget, and a boolean', () => {
    const state = createMemory();
    expect(() => modelView(state, { maskToolResults: { keepLast: 2, untilFits: true } })).toThrow(
      'options.maskToolResults.untilFits masks only as far as options.budget needs, and options.budget is undefined: give a budget, or leave untilFits out to mask every stale result',
    );
    expect(() =>
      modelView(state, { budget: 10, maskToolResults: { untilFits: 'yes' } as never }),
    ).toThrow('options.maskToolResults.untilFits must be true or false, received "yes"');
    expect(() =>
      modelView(state, { budget: 10, maskToolResults: { toFit: true } as never }),
    ).toThrow('options.maskToolResults.toFit is not an option (did you mean untilFits?)');
    // untilFits alone keeps no result beyond the current turn's once the budget binds.
    expect(modelView(state, { budget: 10, maskToolResults: { untilFits: true } }).changes).toEqual(
      [],
    );
  });
});
