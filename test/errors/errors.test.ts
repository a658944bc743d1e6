import { describe, expect, it } from 'vitest';
import {
  InvalidMessageError,
  isConversationMemoryError,
  ListenerError,
  MemoryArgumentError,
  MemoryConfigError,
  MemoryDecodeError,
  TokenizerError,
  createMemory,
  getHistory,
} from 'conversation-memory';

describe('error classes', () => {
  it.each([
    [new MemoryConfigError('api', ['p']), 'CM_CONFIG', RangeError],
    [new MemoryArgumentError('api', 'p'), 'CM_ARGUMENT', RangeError],
    [new InvalidMessageError('api', 'p'), 'CM_INVALID_MESSAGE', TypeError],
    [new TokenizerError('api', 'p'), 'CM_TOKENIZER', Error],
    [new MemoryDecodeError('api', ['p']), 'CM_DECODE', Error],
    [new ListenerError('api', new Error('x'), 1), 'CM_LISTENER', Error],
  ])('%s carries its code, its base class and the prefix', (error, code, base) => {
    expect(error).toBeInstanceOf(base);
    expect(error.code).toBe(code);
    expect(error.message.startsWith('[conversation-memory] api: ')).toBe(true);
    expect(isConversationMemoryError(error)).toBe(true);
    expect(error.name).toBe(error.constructor.name);
  });

  it('recognises our errors by brand, not by class identity', () => {
    const foreign = Object.assign(new Error('x'), { code: 'CM_CONFIG' });
    expect(isConversationMemoryError(foreign)).toBe(false);
    const fromAnotherCopy = new Error('x');
    Object.defineProperty(fromAnotherCopy, Symbol.for('conversation-memory/error'), {
      value: true,
    });
    Object.defineProperty(fromAnotherCopy, 'code', { value: 'CM_CONFIG' });
    expect(isConversationMemoryError(fromAnotherCopy)).toBe(true);
    expect(isConversationMemoryError(null)).toBe(false);
    expect(isConversationMemoryError('CM_CONFIG')).toBe(false);
  });

  it('lists every decode problem in the message', () => {
    expect(new MemoryDecodeError('fromDict', ['a: x', 'b: y']).message).toBe(
      '[conversation-memory] fromDict: invalid input:\n  a: x\n  b: y',
    );
  });
});

describe('MemoryDecodeError counts what it does not list', () => {
  it('lists 20 problems, keeps the count, and still takes a bare kind', () => {
    const problems = Array.from({ length: 25 }, (_, i) => `messages[${i}]: bad`);
    const error = new MemoryDecodeError('fromDict', problems, { problemCount: 25 });
    expect(error.problems).toHaveLength(20);
    expect(error.problemCount).toBe(25);
    expect(error.message.endsWith('\n  … and 5 more problems (25 in all)')).toBe(true);
    expect(new MemoryDecodeError('fromDict', ['x'], 'tokenizer').kind).toBe('tokenizer');
    const partial = new MemoryDecodeError('fromDict', problems, {
      problemCount: 1000,
      countComplete: false,
    });
    expect(partial.message).toMatch(
      /… and at least 980 more problems \(stopped looking after 1000\)$/,
    );
  });
});

describe('a state of an older version', () => {
  it('says so, and how to carry it over', () => {
    const {
      positionRuns,
      nextPosition,
      pendingMessages,
      pendingPositions,
      summaryCoverage,
      ...old
    } = createMemory();
    void [positionRuns, nextPosition, pendingMessages, pendingPositions, summaryCoverage];
    expect(() => getHistory(old as never)).toThrow(
      /received a state of conversation-memory 0\.1\.0 \(it has no positionRuns\); keep states as toDict JSON/,
    );
  });
});
