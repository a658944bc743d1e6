import { readFileSync } from 'node:fs';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  clearMemory,
  commitSummary,
  ConversationMemory,
  createMemory,
  decodeConfig,
  DEFAULT_CONFIG,
  fromDict,
  fromDictWithEffects,
  getPendingSummary,
  getPositions,
  holdForSummary,
  MemoryConfigError,
  messageToDict,
  toDict,
  type MemoryOptions,
  type MemoryState,
  type Message,
} from 'conversation-memory';
import {
  EXTENSION_KEY,
  MAX_PENDING_MESSAGES,
  MAX_SUMMARY_COVERAGE,
} from 'conversation-memory/store-kit';
import { assistant, call, system, tool, user } from '../helpers';

/**
 * Positions, the trimming policy, held messages and summary coverage in files (issue #6 §6): kept
 * under `conversation_memory` only when a reference file could not say them, decoded and checked
 * against each other by `fromDict`, every problem named by its path.
 */

const sample = (name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/reference/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

const memory = (options: MemoryOptions = {}): MemoryState =>
  createMemory({ tokenizer: 'heuristic', ...options });

const load = (input: unknown): MemoryState => {
  const result = fromDict(input);
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

const problems = (input: unknown): readonly string[] => {
  const result = fromDict(input, { tokenizer: 'heuristic' });
  if (E.isRight(result)) throw new Error('expected a Left');
  return result.left.problems;
};

/** Through JSON text and back, as a file would go. */
const roundTrip = (state: MemoryState): MemoryState =>
  load(JSON.parse(JSON.stringify(toDict(state))));

/** Adds one by one and holds every trim. */
const addAndHold = (state: MemoryState, messages: readonly Message[]): MemoryState => {
  for (const message of messages) {
    const added = addMessage(state, message);
    state = added.state;
    for (const effect of added.effects) {
      if (effect.type === 'memory/trimmed') state = holdForSummary(state, effect).state;
    }
  }
  return state;
};

const users = (count: number, from = 0): Message[] =>
  Array.from({ length: count }, (_, i) => user(`m${from + i}`));

/** A file with one user message per position, and the extension given. */
const file = (messageCount: number, extension: Record<string, unknown>) => ({
  max_messages: 5,
  messages: users(messageCount).map(messageToDict),
  [EXTENSION_KEY]: extension,
});

const P = EXTENSION_KEY;

describe('toDict writes under conversation_memory only what a reference file cannot say', () => {
  it('the policy options, each only when not the default', () => {
    expect(toDict(memory({ toolPairs: 'strict' }))[P]).toEqual({
      tokenizer: 'heuristic',
      tool_pairs: 'strict',
    });
    expect(toDict(memory({ startOn: 'user' }))[P]).toEqual({
      tokenizer: 'heuristic',
      start_on: 'user',
    });
    expect(toDict(memory({ pinSystem: true }))[P]).toEqual({
      tokenizer: 'heuristic',
      pin_system: true,
    });
    expect(
      toDict(createMemory({ toolPairs: 'reference', startOn: null, pinSystem: false })),
    ).not.toHaveProperty(P);
    expect(
      toDict(createMemory({ toolPairs: 'strict', startOn: 'user', pinSystem: true }))[P],
    ).toEqual({ tool_pairs: 'strict', start_on: 'user', pin_system: true });
  });

  it('no positions while they are 0, 1, 2, … and the next one is the count', () => {
    const state = addMessages(createMemory(), users(3)).state;
    expect(getPositions(state)).toEqual([0, 1, 2]);
    expect(toDict(state)).not.toHaveProperty(P);
  });

  it('positions and next_position once a message has left', () => {
    const state = addMessages(createMemory({ maxMessages: 2 }), users(3)).state;
    expect(toDict(state)[P]).toEqual({ positions: [1, 2], next_position: 3 });
  });

  it('next_position alone is not enough when a removed message came last', () => {
    // The stray result took position 1 and left at once: positions [0] but next is 2.
    const state = addMessages(createMemory({ toolPairs: 'strict' }), [
      user('u'),
      tool('stray', 'c9'),
    ]).state;
    expect(toDict(state)[P]).toEqual({ tool_pairs: 'strict', positions: [0], next_position: 2 });
  });

  it('an empty window after a clear keeps its next position', () => {
    const state = clearMemory(addMessages(createMemory(), users(4)).state).state;
    expect(toDict(state)[P]).toEqual({ positions: [], next_position: 4 });
    expect(roundTrip(state).nextPosition).toBe(4);
  });

  it('held messages with their positions, and the coverage of committed summaries', () => {
    let state = addAndHold(createMemory({ maxMessages: 2 }), users(5));
    state = commitSummary(state, 'First.', 0).state;
    expect(toDict(state)[P]).toEqual({
      positions: [3, 4],
      next_position: 5,
      pending: [
        { position: 1, message: messageToDict(user('m1')) },
        { position: 2, message: messageToDict(user('m2')) },
      ],
      summary_coverage: [{ from: 0, to: 0, count: 1 }],
    });
    expect(toDict(state).summary).toBe('First.');
  });
});

describe('fromDict reads them back: round trips', () => {
  it('a strict, pinned, startOn memory with positions, held messages and coverage', () => {
    const options: MemoryOptions = {
      maxMessages: 3,
      maxTokens: 50,
      toolPairs: 'strict',
      startOn: 'user',
      pinSystem: true,
    };
    let state = addAndHold(memory(options), [
      system('rules'),
      user('q1'),
      assistant('', call('c1'), call('c2')),
      tool('r2', 'c2'),
      tool('r1', 'c1'),
      assistant('a1'),
      user('q2'),
      tool('stray', 'c1'),
      assistant('', call('c3')),
    ]);
    const pending = getPendingSummary(state).positions;
    state = commitSummary(state, 'Asked q1.', pending[1] as number).state;
    expect(state.summaryCoverage).toHaveLength(1);
    expect(getPendingSummary(state).positions.length).toBeGreaterThan(0);
    const back = roundTrip(state);
    expect(back).toStrictEqual(state);
    // And the loaded memory goes on exactly as the original would.
    const next = [tool('r3', 'c3'), user('q3')];
    expect(addMessages(back, next)).toEqual(addMessages(state, next));
  });

  it('through the facade: ConversationMemory.fromDict and toDict', () => {
    const mem = new ConversationMemory({
      maxMessages: 2,
      toolPairs: 'strict',
      tokenizer: 'heuristic',
    });
    for (const message of users(3)) {
      for (const effect of mem.add(message)) {
        if (effect.type === 'memory/trimmed') mem.holdForSummary(effect);
      }
    }
    const copy = ConversationMemory.fromDict(JSON.parse(JSON.stringify(mem.toDict())));
    expect(copy.state).toStrictEqual(mem.state);
    expect(copy.getPositions()).toEqual([1, 2]);
    expect(copy.pendingSummary.positions).toEqual([0]);
  });

  it('positions without next_position: the next is one past the highest held', () => {
    const state = load(file(2, { positions: [5, 9] }));
    expect(getPositions(state)).toEqual([5, 9]);
    expect(state.nextPosition).toBe(10);
    const withPending = load(
      file(1, { positions: [5], pending: [{ position: 12, message: messageToDict(user('p')) }] }),
    );
    expect(withPending.nextPosition).toBe(13);
    expect(getPendingSummary(withPending)).toEqual({ messages: [user('p')], positions: [12] });
    // Held positions may lie below window positions (a pinned message stayed).
    const below = load(
      file(1, { positions: [5], pending: [{ position: 2, message: messageToDict(user('p')) }] }),
    );
    expect(below.pendingPositions).toEqual([2]);
    expect(below.nextPosition).toBe(6);
  });

  it('next_position without positions: the window is 0, 1, 2, …', () => {
    const state = load(file(2, { next_position: 7 }));
    expect(getPositions(state)).toEqual([0, 1]);
    expect(state.nextPosition).toBe(7);
    expect(getPositions(addMessage(state, user('x')).state)).toEqual([0, 1, 7]);
  });

  it('the policy options become the config', () => {
    const state = load({
      max_messages: 4,
      [P]: { tool_pairs: 'strict', start_on: 'user', pin_system: true },
    });
    expect(state.config).toEqual({
      ...DEFAULT_CONFIG,
      maxMessages: 4,
      toolPairs: 'strict',
      startOn: 'user',
      pinSystem: true,
    });
    const explicit = load({
      max_messages: 4,
      [P]: { tool_pairs: 'reference', start_on: null, pin_system: false },
    });
    expect(explicit.config).toEqual({ ...DEFAULT_CONFIG, maxMessages: 4 });
  });
});

describe('a reference file (no conversation_memory key)', () => {
  it.each(['memory-tools-summary.json', 'memory-images.json', 'memory-over-limit.json'])(
    '%s loads with positions 0..n-1, the reference policy, nothing held',
    (name) => {
      const input = sample(name);
      expect(input).not.toHaveProperty(P);
      const state = load(input);
      const n = (input['messages'] as unknown[]).length;
      expect(getPositions(state)).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(state.nextPosition).toBe(n);
      expect(state.config).toMatchObject({
        toolPairs: 'reference',
        startOn: null,
        pinSystem: false,
      });
      expect(getPendingSummary(state)).toEqual({ messages: [], positions: [] });
      expect(state.summaryCoverage).toEqual([]);
      // Untouched, it writes no conversation_memory key: the very file comes back.
      const dict = toDict(state);
      expect(dict).not.toHaveProperty(P);
      expect(dict).toEqual(input);
    },
  );

  it('positions go on from n: the over-limit sample trims at the next add', () => {
    const state = load(sample('memory-over-limit.json'));
    const { state: next, effects } = addMessage(state, user('m3'));
    expect(getPositions(next)).toEqual([2, 3]);
    expect(effects).toMatchObject([{ type: 'memory/trimmed', positions: [0, 1] }]);
    expect(toDict(next)[P]).toEqual({ positions: [2, 3], next_position: 4 });
  });

  it('under strict, the sample loads unchanged (its tool turn is whole)', () => {
    const input = { ...sample('memory-tools-summary.json'), [P]: { tool_pairs: 'strict' } };
    const loaded = fromDictWithEffects(input, { tokenizer: 'heuristic' });
    if (E.isLeft(loaded)) throw loaded.left;
    expect(loaded.right.effects).toEqual([]);
    expect(getPositions(loaded.right.state)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe("fromDict under 'strict' runs the strict pairing rules", () => {
  const messages = [
    user('u0'),
    tool('stray', 'c9'),
    assistant('', call('c1'), call('c2')),
    tool('r1', 'c1'),
    user('u1'),
    assistant('', call('c3')),
  ].map(messageToDict);

  it('drops orphans and unanswered groups, reported with their positions; limits untouched', () => {
    const loaded = fromDictWithEffects(
      {
        max_messages: 2,
        messages,
        [P]: { tool_pairs: 'strict', positions: [10, 11, 12, 13, 14, 15] },
      },
      { tokenizer: 'heuristic' },
    );
    if (E.isLeft(loaded)) throw loaded.left;
    const { state, effects } = loaded.right;
    expect(effects).toEqual([
      {
        type: 'memory/trimmed',
        reason: 'enforce_limits',
        removed: [tool('stray', 'c9'), assistant('', call('c1'), call('c2')), tool('r1', 'c1')],
        positions: [11, 12, 13],
        rules: ['toolPairBoundary', 'toolPairBoundary', 'toolPairBoundary'],
        remaining: 3,
        removedTokens: 1,
        remainingTokens: 0,
        breakdown: { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 3, startOn: 0 },
      },
    ]);
    // Over max_messages (3 > 2), as a reference load: the next add trims. The open group stays.
    expect(state.messages).toEqual([user('u0'), user('u1'), assistant('', call('c3'))]);
    expect(getPositions(state)).toEqual([10, 14, 15]);
    expect(state.nextPosition).toBe(16);
  });

  it('the same messages under the reference policy keep the middle of the window', () => {
    const loaded = fromDictWithEffects({ max_messages: 2, messages }, { tokenizer: 'heuristic' });
    if (E.isLeft(loaded)) throw loaded.left;
    expect(loaded.right.effects).toEqual([]);
    expect(loaded.right.state.messages).toHaveLength(6);
  });
});

describe('fromDict cross-checks, each problem named by its path', () => {
  it.each([
    [
      'one position per message',
      file(1, { positions: [0, 1] }),
      `${P}.positions: expected one position per message (1), received 2`,
    ],
    [
      'positions rising strictly',
      file(3, { positions: [0, 4, 4] }),
      `${P}.positions[2]: must be greater than the position before it (4), received 4`,
    ],
    [
      'held positions rising strictly',
      file(0, {
        pending: [
          { position: 3, message: messageToDict(user('a')) },
          { position: 1, message: messageToDict(user('b')) },
        ],
      }),
      `${P}.pending[1].position: must be greater than the position before it (3), received 1`,
    ],
    [
      'a held position that is also in the window',
      file(2, { pending: [{ position: 1, message: messageToDict(user('a')) }] }),
      `${P}.pending[0].position: 1 is also the position of a message in the window`,
    ],
    [
      'next_position equal to a window position',
      file(2, { positions: [3, 5], next_position: 5 }),
      `${P}.next_position: must be greater than every position held (5), received 5`,
    ],
    [
      'next_position at or below a held position',
      file(1, {
        positions: [0],
        next_position: 4,
        pending: [{ position: 8, message: messageToDict(user('a')) }],
      }),
      `${P}.next_position: must be greater than every position held (8), received 4`,
    ],
    [
      'next_position without positions, below the message count',
      file(3, { next_position: 2 }),
      `${P}.next_position: must be greater than every position held (2), received 2`,
    ],
    [
      'a coverage record with from > to',
      file(0, { summary_coverage: [{ from: 4, to: 2, count: 1 }] }),
      `${P}.summary_coverage[0]: from (4) must not be greater than to (2)`,
    ],
    [
      'a coverage record counting more than its range',
      file(0, {
        summary_coverage: [
          { from: 0, to: 0, count: 1 },
          { from: 2, to: 4, count: 4 },
        ],
      }),
      `${P}.summary_coverage[1].count: at most 3 messages lie from 2 to 4, received 4`,
    ],
  ])('%s', (_, input, problem) => {
    expect(problems(input)).toEqual([problem]);
  });

  it.each([
    [
      'tool_pairs',
      { tool_pairs: 'lax' },
      `${P}.tool_pairs: expected "reference" | "strict", got "lax"`,
    ],
    [
      'start_on',
      { start_on: 'assistant' },
      `${P}.start_on: expected ("user" | null), got "assistant"`,
    ],
    ['pin_system', { pin_system: 'yes' }, `${P}.pin_system: expected boolean, got "yes"`],
    [
      'a fractional position',
      { positions: [0.5] },
      `${P}.positions[0] must be an integer from 0 to 2^48 − 1, received 0.5`,
    ],
    [
      'a negative next_position',
      { next_position: -1 },
      `${P}.next_position must be an integer from 0 to 2^48, received -1`,
    ],
    [
      'a next_position so large that positions would stop being exact',
      { next_position: Number.MAX_SAFE_INTEGER },
      `${P}.next_position must be an integer from 0 to 2^48, received ${Number.MAX_SAFE_INTEGER}`,
    ],
    [
      'a coverage record past next_position',
      { next_position: 3, summary_coverage: [{ from: 0, to: 1000000, count: 1 }] },
      `${P}.summary_coverage[0].to: must be below next_position (3), received 1000000`,
    ],
    [
      'a held entry without its message',
      { pending: [{ position: 4 }] },
      `${P}.pending[0].message: expected message object, got undefined`,
    ],
    [
      'a held message with a bad role',
      { pending: [{ position: 4, message: { role: 'USER' } }] },
      `${P}.pending[0].message.role: expected "user" | "assistant" | "system" | "tool", got "USER"`,
    ],
    [
      'a coverage count of 0',
      { summary_coverage: [{ from: 0, to: 0, count: 0 }] },
      `${P}.summary_coverage[0].count must be at least 1, received 0`,
    ],
  ])('rejects %s', (_, extension, problem) => {
    expect(problems(file(1, extension))).toEqual([problem]);
  });

  it('lists every problem at once', () => {
    expect(
      problems(
        file(1, {
          positions: [3, 2],
          next_position: 1,
          pending: [{ position: 3, message: messageToDict(user('a')) }],
        }),
      ),
    ).toEqual([
      `${P}.positions: expected one position per message (1), received 2`,
      `${P}.positions[1]: must be greater than the position before it (3), received 2`,
      `${P}.pending[0].position: 3 is also the position of a message in the window`,
      `${P}.next_position: must be greater than every position held (3), received 1`,
    ]);
  });

  // MemoryState documents "At most MAX_PENDING_MESSAGES are held" and MAX_SUMMARY_COVERAGE as
  // "the most summary coverage records a state keeps"; a file is the one way past both bounds.
  // Expected: fromDict either rejects such a file (naming the path) or keeps the newest ones.
  it('rejects a file holding more than MAX_PENDING_MESSAGES messages, naming the path', () => {
    const pending = Array.from({ length: MAX_PENDING_MESSAGES + 1 }, (_, i) => ({
      position: i,
      message: messageToDict(user(`p${i}`)),
    }));
    const result = fromDict(file(0, { pending }), { tokenizer: 'heuristic' });
    expect(E.isLeft(result) && result.left.problems).toEqual([
      `conversation_memory.pending: at most ${MAX_PENDING_MESSAGES} held messages, received ${MAX_PENDING_MESSAGES + 1}`,
    ]);
  });

  it('rejects a file with more than MAX_SUMMARY_COVERAGE coverage records, naming the path', () => {
    const summary_coverage = Array.from({ length: MAX_SUMMARY_COVERAGE + 1 }, (_, i) => ({
      from: i,
      to: i,
      count: 1,
    }));
    const result = fromDict(file(0, { summary_coverage }), { tokenizer: 'heuristic' });
    expect(E.isLeft(result) && result.left.problems).toEqual([
      `conversation_memory.summary_coverage: at most ${MAX_SUMMARY_COVERAGE} records, received ${MAX_SUMMARY_COVERAGE + 1}`,
    ]);
  });
});

describe('decodeConfig and createMemory reject bad policy values, naming field and value', () => {
  it.each([
    [{ toolPairs: 'lax' }, 'toolPairs must be "reference" or "strict", received "lax"'],
    [{ toolPairs: 'Strict' }, 'toolPairs must be "reference" or "strict", received "Strict"'],
    [{ toolPairs: null }, 'toolPairs must be "reference" or "strict", received null'],
    [{ startOn: 'assistant' }, 'startOn must be "user" or null, received "assistant"'],
    [{ startOn: false }, 'startOn must be "user" or null, received false'],
    [{ pinSystem: 1 }, 'pinSystem must be true or false, received 1'],
    [{ pinSystem: 'true' }, 'pinSystem must be true or false, received "true"'],
  ])('%o', (options, problem) => {
    const decoded = decodeConfig(options);
    expect(E.isLeft(decoded) && decoded.left.problems).toEqual([problem]);
    expect(() => createMemory(options as MemoryOptions)).toThrow(MemoryConfigError);
    expect(() => createMemory(options as MemoryOptions)).toThrow(
      `[conversation-memory] createMemory: ${problem}`,
    );
    expect(() => new ConversationMemory(options as MemoryOptions)).toThrow(problem);
  });

  it('reports every policy problem at once, snake_case names with a hint', () => {
    const decoded = decodeConfig({
      tool_pairs: 'strict',
      toolPairs: 'x',
      startOn: 'x',
      pinSystem: 'x',
    });
    expect(E.isLeft(decoded) && decoded.left.problems).toEqual([
      'tool_pairs is not an option (did you mean toolPairs?); expected maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem, prune, pruneThreshold, embedder, trimTo',
      'toolPairs must be "reference" or "strict", received "x"',
      'startOn must be "user" or null, received "x"',
      'pinSystem must be true or false, received "x"',
    ]);
  });

  it('accepts the valid values; undefined means the default', () => {
    expect(decodeConfig({ toolPairs: 'strict', startOn: 'user', pinSystem: true })).toEqual(
      E.right({ ...DEFAULT_CONFIG, toolPairs: 'strict', startOn: 'user', pinSystem: true }),
    );
    expect(
      decodeConfig({ toolPairs: undefined, startOn: undefined, pinSystem: undefined }),
    ).toEqual(E.right(DEFAULT_CONFIG));
    expect(decodeConfig({ startOn: null, pinSystem: false })).toEqual(E.right(DEFAULT_CONFIG));
  });
});
