import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  commitSummary,
  createMemory,
  decodeState,
  fromDict,
  getPositions,
  holdForSummary,
  messageToDict,
  toDict,
  type MemoryState,
  type Message,
} from 'conversation-memory';
import { EXTENSION_KEY } from 'conversation-memory/store-kit';
import { messageArb } from '../arbitraries/message';
import { system, user } from '../helpers';

/**
 * What decodes is exact (issue #15, item 11): `-0` in positions, held positions and coverage
 * decodes to `0`, so a decoded state survives `JSON.stringify` unchanged; a position lies below
 * 2^48 and the next position at most 2^48, so every state that decodes writes a file (`toDict`)
 * that loads back equal (`fromDict`); and bad data is reported as bad data (kind `'data'`) even
 * when the tokenizer is unknown too.
 */

const P = EXTENSION_KEY;

/** A state made by the reducers: adds, every trim held, and now and then a summary committed. */
const stateArb: fc.Arbitrary<MemoryState> = fc
  .record({
    messages: fc.array(fc.oneof(messageArb, fc.constant(system('s'))), { maxLength: 10 }),
    maxMessages: fc.integer({ min: 1, max: 4 }),
    pinSystem: fc.boolean(),
    commit: fc.boolean(),
  })
  .map(({ messages, maxMessages, pinSystem, commit }) => {
    let state = createMemory({ maxMessages, pinSystem, tokenizer: 'heuristic' });
    for (const message of messages) {
      const added = addMessage(state, message);
      state = added.state;
      for (const effect of added.effects) {
        if (effect.type === 'memory/trimmed') state = holdForSummary(state, effect).state;
      }
    }
    const first = state.pendingPositions[0];
    return commit && first !== undefined ? commitSummary(state, 'S', first).state : state;
  });

/** A copy of a JSON tree in which some zeros (chosen by `flags`, in walk order) are `-0`. */
const sprinkle = (value: unknown, flags: readonly boolean[], next = { i: 0 }): unknown => {
  if (value === 0) return flags[next.i++ % flags.length] ? -0 : 0;
  if (Array.isArray(value)) return value.map((item) => sprinkle(item, flags, next));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, sprinkle(item, flags, next)]),
    );
  }
  return value;
};

/** Every `-0` in a value, by path. */
const negativeZeros = (value: unknown, path = ''): string[] => {
  if (Object.is(value, -0)) return [path];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => negativeZeros(item, `${path}/${key}`));
};

const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const right = <L, R>(result: E.Either<L, R>): R => {
  if (E.isLeft(result)) throw result.left as Error;
  return result.right;
};

const problemsOf = <R>(result: E.Either<{ problems: readonly string[] }, R>) =>
  E.isLeft(result) ? result.left.problems : [];

describe('-0 decodes to 0: decoded states are JSON-exact', () => {
  it('property: a state with -0 sprinkled over its zeros decodes, with no -0 left in it', () => {
    fc.assert(
      fc.property(
        stateArb,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }),
        (state, flags) => {
          const decoded = right(decodeState(sprinkle(viaJson(state), flags)));
          expect(negativeZeros(decoded)).toEqual([]);
          expect(JSON.stringify(decoded)).toBe(JSON.stringify(state));
        },
      ),
    );
  });

  it('property: a toDict file with -0 sprinkled over its zeros loads, with no -0 left in it', () => {
    fc.assert(
      fc.property(
        stateArb,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }),
        (state, flags) => {
          const loaded = right(fromDict(sprinkle(viaJson(toDict(state)), flags)));
          expect(negativeZeros(loaded)).toEqual([]);
          expect(JSON.stringify(loaded)).toBe(JSON.stringify(state));
        },
      ),
    );
  });

  it('a held position, a window position and a coverage record of -0 each read as 0', () => {
    const loaded = right(
      fromDict({
        max_messages: 5,
        messages: [messageToDict(user('b'))],
        [P]: {
          tokenizer: 'heuristic',
          positions: [2],
          next_position: 3,
          pending: [{ position: -0, message: messageToDict(user('a')) }],
          summary_coverage: [{ from: -0, to: 1, count: 1 }],
        },
      }),
    );
    expect(negativeZeros(loaded)).toEqual([]);
    const window = right(
      fromDict({ max_messages: 5, messages: [messageToDict(user('a'))], [P]: { positions: [-0] } }),
    );
    expect(Object.is(window.positionRuns[0]?.position, 0)).toBe(true);
  });
});

describe('positions: what decodes writes a file that loads back equal', () => {
  it('a position of 2^48 without next_position is refused (toDict would write 2^48 + 1)', () => {
    const file = {
      max_messages: 5,
      messages: [messageToDict(user('a'))],
      [P]: { positions: [2 ** 48] },
    };
    expect(problemsOf(fromDict(file))).toEqual([
      `${P}.positions[0] must be an integer from 0 to 2^48 − 1, received ${2 ** 48}`,
    ]);
    const covered = {
      max_messages: 5,
      messages: [],
      [P]: { summary_coverage: [{ from: 0, to: 2 ** 48, count: 1 }] },
    };
    expect(problemsOf(fromDict(covered))).toEqual([
      `${P}.summary_coverage[0].to must be an integer from 0 to 2^48 − 1, received ${2 ** 48}`,
    ]);
  });

  it('the largest position, 2^48 − 1, loads and round-trips with next position 2^48', () => {
    const file = {
      max_messages: 5,
      messages: [messageToDict(user('a'))],
      [P]: { tokenizer: 'heuristic', positions: [2 ** 48 - 1] },
    };
    const state = right(fromDict(file));
    expect(state.nextPosition).toBe(2 ** 48);
    expect(fromDict(viaJson(toDict(state)))).toEqual(E.right(state));
    expect(decodeState(viaJson(state))).toEqual(E.right(state));
  });

  it('decodeState refuses a run position of 2^48 and a next position above 2^48', () => {
    const json = viaJson(
      addMessage(createMemory({ tokenizer: 'heuristic' }), user('a')).state,
    ) as Record<string, unknown>;
    expect(
      problemsOf(
        decodeState({
          ...json,
          positionRuns: [{ index: 0, position: 2 ** 48 }],
          nextPosition: 2 ** 48,
        }),
      ),
    ).toEqual([
      `positionRuns[0].position must be an integer from 0 to 2^48 − 1, received ${2 ** 48}`,
    ]);
    expect(problemsOf(decodeState({ ...json, nextPosition: 2 ** 48 + 1 }))).toEqual([
      `nextPosition must be an integer from 0 to 2^48, received ${2 ** 48 + 1}`,
    ]);
  });

  it('decodeState names a held position by its own list: pendingPositions[i]', () => {
    const full = addMessage(createMemory({ maxMessages: 1, tokenizer: 'heuristic' }), user('a'));
    const added = addMessage(full.state, user('b'));
    const held = holdForSummary(added.state, added.effects[0] as never).state;
    const json = viaJson(held) as Record<string, unknown>;
    expect(json['pendingPositions']).toEqual([0]);
    expect(problemsOf(decodeState({ ...json, pendingPositions: [2 ** 48] }))).toEqual([
      `pendingPositions[0] must be an integer from 0 to 2^48 − 1, received ${2 ** 48}`,
    ]);
  });

  /** The positions of a state's file shifted by `offset`; next_position dropped when asked. */
  const shiftedFile = (state: MemoryState, offset: number, dropNext: boolean): unknown => {
    const dict = viaJson(toDict(state)) as Record<string, unknown>;
    const extension: Record<string, unknown> = {
      tokenizer: 'heuristic',
      pin_system: state.config.pinSystem,
      positions: getPositions(state).map((p) => p + offset),
      pending: state.pendingMessages.map((message: Message, i) => ({
        position: (state.pendingPositions[i] as number) + offset,
        message: messageToDict(message),
      })),
      summary_coverage: state.summaryCoverage.map(({ from, to, count }) => ({
        from: from + offset,
        to: to + offset,
        count,
      })),
    };
    if (!dropNext) extension['next_position'] = state.nextPosition + offset;
    return { ...dict, [P]: extension };
  };

  const offsetArb = fc.oneof(
    fc.integer({ min: 0, max: 5 }),
    fc.integer({ min: 2 ** 48 - 12, max: 2 ** 48 + 2 }),
    fc.constant(Number.MAX_SAFE_INTEGER - 20),
  );

  it('property: every file fromDict loads (positions near 2^48 too) round-trips through toDict', () => {
    fc.assert(
      fc.property(stateArb, offsetArb, fc.boolean(), (state, offset, dropNext) => {
        const loaded = fromDict(shiftedFile(state, offset, dropNext));
        if (E.isLeft(loaded)) return;
        expect(loaded.right.nextPosition).toBeLessThanOrEqual(2 ** 48);
        expect(fromDict(viaJson(toDict(loaded.right)))).toEqual(loaded);
      }),
    );
  });

  it('property: every state decodeState accepts (positions near 2^48 too) round-trips through toDict', () => {
    fc.assert(
      fc.property(stateArb, offsetArb, (state, offset) => {
        const file = fromDict(shiftedFile(state, offset, false));
        if (E.isLeft(file)) return;
        const decoded = decodeState(viaJson(file.right));
        expect(decoded).toEqual(file);
        expect(fromDict(viaJson(toDict(file.right)))).toEqual(file);
      }),
    );
  });
});

describe('bad data is reported as data, before an unknown tokenizer', () => {
  it('the issue example: kind "data", naming the positions', () => {
    const result = fromDict(
      {
        max_messages: 5,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
        conversation_memory: { positions: [3, 2] },
      },
      { tokenizer: 'nope' },
    );
    expect(E.isLeft(result) && result.left.kind).toBe('data');
    expect(problemsOf(result)).toEqual([
      `${P}.positions[1]: must be greater than the position before it (3), received 2`,
    ]);
  });

  it('decodeState: bad positions and an unknown tokenizer are kind "data"', () => {
    const json = viaJson(
      addMessage(addMessage(createMemory({ tokenizer: 'heuristic' }), user('a')).state, user('b'))
        .state,
    ) as Record<string, unknown>;
    const result = decodeState({
      ...json,
      config: { ...(json['config'] as object), tokenizer: 'nope' },
      positionRuns: [
        { index: 0, position: 3 },
        { index: 1, position: 2 },
      ],
      nextPosition: 4,
    });
    expect(E.isLeft(result) && result.left.kind).toBe('data');
    expect(problemsOf(result)).toEqual([
      'positionRuns (as positions)[1]: must be greater than the position before it (3), received 2',
    ]);
  });

  it('valid data with an unknown tokenizer is still kind "tokenizer"', () => {
    const file = { max_messages: 5, messages: [{ role: 'user', content: 'a' }] };
    const result = fromDict(file, { tokenizer: 'nope' });
    expect(E.isLeft(result) && result.left.kind).toBe('tokenizer');
  });
});
