import { describe, expect, it } from 'vitest';
import { isConversationMemoryError } from '../../../src/errors/errorBrand';
import { knowledgeBlocks } from '../../../src/knowledge/retrieval/knowledgeBlocks';
import { entity, stateOf } from './facts';

const state = stateOf({ entities: [entity('e1', 'Alice', 'person')] });

const errorOf = (run: () => unknown): Error & { code?: string } => {
  try {
    run();
  } catch (error) {
    expect(isConversationMemoryError(error)).toBe(true);
    return error as Error;
  }
  throw new Error('expected a throw');
};

describe('knowledgeBlocks rejects bad options with the field and the value', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no options', undefined, /options must be an object, received undefined/],
    ['now missing', { entities: {} }, /options\.now must be a finite number .*received undefined/],
    ['now NaN', { now: Number.NaN }, /options\.now must be a finite number .*received NaN/],
    [
      'a misspelt option',
      { now: 0, entitites: {} },
      /options\.entitites is not an option \(did you mean entities\?\)/,
    ],
    [
      'a misspelt module option',
      { now: 0, graph: { maxTriples: 3 } },
      /options\.graph\.maxTriples is not an option/,
    ],
    [
      'a negative budget',
      { now: 0, entities: { budget: -1 } },
      /options\.entities\.budget must be an integer ≥ 0 \(tokens\), received -1/,
    ],
    [
      'a string budget',
      { now: 0, knowledge: { budget: '10' } },
      /options\.knowledge\.budget must be .*received string "10"/,
    ],
    [
      'maxContextTriples 0',
      { now: 0, graph: { maxContextTriples: 0 } },
      /options\.graph\.maxContextTriples must be at least 1, received 0/,
    ],
    [
      'maxContextChars below the suffix',
      { now: 0, knowledge: { maxContextChars: 10 } },
      /options\.knowledge\.maxContextChars must be at least 16 .*received 10/,
    ],
    [
      'a query that is not text',
      { now: 0, query: 42 },
      /options\.query must be a string, received 42/,
    ],
    [
      'sanitize as a string',
      { now: 0, sanitize: 'false' },
      /options\.sanitize must be a boolean, received string "false"/,
    ],
    [
      'countTokens not a function',
      { now: 0, countTokens: 3 },
      /options\.countTokens must be a function, received 3/,
    ],
    [
      'a module that is not an object',
      { now: 0, graph: true },
      /options\.graph must be an object, received true/,
    ],
  ];
  for (const [name, options, message] of cases) {
    it(name, () => {
      const error = errorOf(() => knowledgeBlocks(state, options as never));
      expect(error.code).toBe('CM_ARGUMENT');
      expect(error.message).toMatch(/^\[conversation-memory\] knowledgeBlocks: /);
      expect(error.message).toMatch(message);
    });
  }

  it('rejects a state without its lists', () => {
    expect(errorOf(() => knowledgeBlocks({} as never, { now: 0 })).message).toMatch(
      /state\.entities must be an array, received undefined/,
    );
  });

  it('rejects a countTokens that returns anything but an integer ≥ 0, escaping what it echoes', () => {
    for (const bad of [-1, 1.5, Number.NaN, '3']) {
      const error = errorOf(() =>
        knowledgeBlocks(state, { now: 0, entities: {}, countTokens: () => bad as number }),
      );
      expect(error.message).toMatch(/countTokens must return an integer ≥ 0, returned /);
    }
    const hostile = errorOf(() =>
      knowledgeBlocks(state, { now: 0, entities: {}, countTokens: () => 'x\n\u001b[31m' as never }),
    );
    expect(hostile.message).not.toContain('\n');
    expect(hostile.message).not.toContain('\u001b');
  });

  it('leaves the state as it was (frozen input, no throw)', () => {
    const frozen = Object.freeze({ ...state, entities: Object.freeze([...state.entities]) });
    expect(knowledgeBlocks(frozen, { now: 0, entities: {} }).text).toBe(
      '[Known Entities]\n- Alice [person]',
    );
  });
});
