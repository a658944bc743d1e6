import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  applySummary,
  createMemory,
  decodeState,
  fromDict,
  holdForSummary,
  type MemoryState,
  type TrimmedEffect,
} from 'conversation-memory';
import { messageArb } from '../arbitraries/message';
import { assistant, call, system, tool, user } from '../helpers';

const viaJson = (state: MemoryState): Record<string, unknown> =>
  JSON.parse(JSON.stringify(state)) as Record<string, unknown>;

const problems = (input: unknown): readonly string[] => {
  const result = decodeState(input);
  return E.isLeft(result) ? result.left.problems : [];
};

describe('decodeState: a stored state is checked, not trusted', () => {
  it('gives back an equal state for any state the reducers made (JSON round trip)', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        (messages, max) => {
          let state = createMemory({ maxMessages: max, tokenizer: 'heuristic', pinSystem: true });
          const added = addMessages(state, messages);
          state = added.state;
          for (const effect of added.effects) {
            if (effect.type === 'memory/trimmed')
              state = holdForSummary(state, effect as TrimmedEffect).state;
          }
          state = applySummary(state, 'S').state;
          expect(decodeState(viaJson(state))).toEqual(E.right(state));
        },
      ),
    );
  });

  it('names what is wrong, in the state’s own field names', () => {
    const state = addMessages(createMemory({ tokenizer: 'heuristic' }), [
      user('abcdefgh'),
      assistant('ok'),
    ]).state;
    const json = viaJson(state);
    expect(
      problems({ ...json, config: { ...(json['config'] as object), maxMessages: 0 } }),
    ).toEqual(['config.maxMessages must be at least 1, received 0']);
    expect(
      problems({
        ...json,
        messages: [
          { role: 'USER', content: 'x' },
          json['messages'] && (json['messages'] as unknown[])[1],
        ],
      })[0],
    ).toMatch(/^messages\[0\]\.role must be one of/);
    expect(problems({ ...json, tokenCounts: [1, 0] })).toEqual([
      'tokenCounts[0]: expected 2 (counted with heuristic), received 1',
    ]);
    expect(problems({ ...json, totalTokens: 99 })).toEqual([
      'totalTokens: expected 2, received 99',
    ]);
    expect(problems({ ...json, positionRuns: [{ index: 1, position: 0 }] })).toEqual([
      'positionRuns[0].index must be 0 (the first run starts the window), received 1',
    ]);
    expect(problems(JSON.parse(JSON.stringify({ max_messages: 3 })))).toEqual([
      '(root): this is a toDict file (snake_case keys), not a state: load it with fromDict',
    ]);
  });

  it('a missing field or an unknown config key is a problem, not a default', () => {
    const json = viaJson(createMemory());
    const { summary, nextPosition, ...partial } = json;
    void [summary, nextPosition];
    expect(problems(partial)).toEqual(['nextPosition: missing', 'summary: missing']);
    const config = { ...(json['config'] as Record<string, unknown>) };
    delete config['toolPairs'];
    expect(problems({ ...json, config: { ...config, maxMesages: 3 } })).toEqual([
      'config.toolPairs: missing',
      'config.maxMesages: not a config field',
    ]);
  });

  it('refuses a window that breaks its tool-pair rules (it would not survive a load)', () => {
    const state = addMessages(createMemory({ tokenizer: 'heuristic' }), [
      user('q'),
      assistant(null, call('c1')),
      tool('r', 'c1'),
    ]).state;
    const json = viaJson(state);
    const broken = {
      ...json,
      messages: (json['messages'] as unknown[]).slice(1),
      tokenCounts: [0, 0],
      positionRuns: [{ index: 0, position: 1 }],
    };
    expect(problems(broken)).toEqual([
      'messages: the window breaks its tool-pair rules (a load would drop messages from it)',
    ]);
    expect(E.isRight(decodeState(viaJson(addMessages(createMemory(), [system('s')]).state)))).toBe(
      true,
    );
  });

  it('fromDict given a state says so, instead of "max_messages is required"', () => {
    const result = fromDict(viaJson(createMemory()));
    expect(E.isLeft(result) && result.left.problems).toEqual([
      '(root): this looks like a MemoryState (camelCase keys such as config and messages), not a toDict file: check it with decodeState, or write it with toDict',
    ]);
  });

  it('never throws on hostile input', () => {
    for (const input of [null, 1, [], { config: 1 }, { config: {}, messages: 'x' }]) {
      expect(E.isLeft(decodeState(input))).toBe(true);
    }
  });
});
