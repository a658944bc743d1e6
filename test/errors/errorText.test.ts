import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  createMemory,
  decodeConfig,
  fromDict,
  toolMessage,
  userMessage,
} from 'conversation-memory';

/**
 * Error texts echo input (keys, values, what a getter threw) shortened and escaped: an error
 * never grows with its input, and a key with a newline or an ANSI code cannot forge a log line or
 * recolour a terminal.
 */

/** Characters that must never reach an error text raw. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Each line of an error (MemoryDecodeError lists one problem per line, after a newline). */
const lines = (message: string): string[] => message.split('\n  ');
const MAX_LINE = 600;

const expectSafe = (message: string): void => {
  for (const line of lines(message)) {
    expect(line).not.toMatch(UNSAFE);
    expect(line).not.toMatch(/[\n\r\t]/);
    expect(line.length).toBeLessThanOrEqual(MAX_LINE);
  }
};

const thrownMessage = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a throw');
};

const leftMessage = (result: E.Either<Error, unknown>): string => {
  if (E.isRight(result)) throw new Error('expected a Left');
  return result.left.message;
};

const state = createMemory({ tokenizer: 'heuristic' });

/** Every place an input key is echoed, as a function from the key to the error text. */
const ECHOES: readonly (readonly [string, (key: string) => string])[] = [
  [
    'message key',
    (key) =>
      thrownMessage(() => addMessage(state, { role: 'user', content: '', [key]: 1 } as never)),
  ],
  [
    'tool call key',
    (key) =>
      thrownMessage(() =>
        addMessage(state, {
          role: 'assistant',
          content: null,
          toolCalls: [{ name: 'f', [key]: 1 }],
        } as never),
      ),
  ],
  [
    'content part key',
    (key) =>
      thrownMessage(() =>
        addMessage(state, {
          role: 'user',
          content: '',
          contentParts: [{ type: 't', [key]: 1 }],
        } as never),
      ),
  ],
  [
    'parameters path',
    (key) =>
      thrownMessage(() =>
        addMessage(state, {
          role: 'assistant',
          content: null,
          toolCalls: [{ name: 'f', parameters: { [key]: { [key]: () => 1 } } }],
        } as never),
      ),
  ],
  [
    'parameters path in a file',
    (key) =>
      leftMessage(
        fromDict({
          max_messages: 1,
          messages: [
            {
              role: 'assistant',
              tool_calls: [{ name: 'f', parameters: { [key]: [{ [key]: NaN }] } }],
            },
          ],
        }),
      ),
  ],
  ['option key', (key) => leftMessage(decodeConfig({ [key]: 1 }))],
  [
    'fromDict option key',
    (key) => thrownMessage(() => fromDict({ max_messages: 1 }, { [key]: 1 } as never)),
  ],
  ['tool result origin key', (key) => thrownMessage(() => toolMessage('4', { [key]: 1 } as never))],
  ['string value', (key) => thrownMessage(() => addMessage(state, { role: key } as never))],
  [
    'file string value',
    (key) => leftMessage(fromDict({ max_messages: 1, messages: [{ role: key }] })),
  ],
];

describe('echoed input is shortened and escaped', () => {
  it.each(ECHOES)('a %s of 1,000,000 characters gives a short message', (_, echo) => {
    const message = echo('k'.repeat(1_000_000));
    expect(message.length).toBeLessThan(MAX_LINE * 2);
    expectSafe(message);
  });

  it.each(ECHOES)('a %s with a newline and an ANSI code cannot forge a log line', (_, echo) => {
    const message = echo('x\n[ERROR] forged \u001b[31mred\u001b[0m\u2028\u202e');
    expectSafe(message);
    expect(message).toContain('\\n[ERROR] forged \\u001b[31mred');
  });

  it('a too-deep parameters path is shortened, in a file too (it used to be echoed whole)', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 250; i++) {
      const next = {};
      deep[`level${i}`] = next;
      deep = next;
    }
    const message = leftMessage(
      fromDict({
        max_messages: 1,
        messages: [{ role: 'assistant', tool_calls: [{ name: 'f', parameters: root }] }],
      }),
    );
    expectSafe(message);
    expect(message).toMatch(/nested deeper than 200 levels at level0\.level1.*…/);
  });

  it('what a getter threw is echoed up to 200 characters, escaped', () => {
    const hostile = Object.defineProperty({ role: 'user' }, 'content', {
      get: () => {
        throw new Error(`boom\n${'z'.repeat(1_000_000)}`);
      },
      enumerable: true,
    });
    const message = thrownMessage(() => addMessage(state, hostile as never));
    expectSafe(message);
    expect(message).toMatch(/message could not be read: Error: boom\\nzzz+\.\.\.$/);
    expect(message.length).toBeLessThan(300);
  });

  it('property: any key, anywhere it is echoed, gives a short one-line-per-problem text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }),
        fc.constantFrom(...ECHOES),
        (key, [, echo]) => {
          if (key === 'role' || key === 'content' || key === 'name' || key === 'type') return;
          expectSafe(echo(key));
        },
      ),
    );
  });

  it('leaves ordinary keys readable', () => {
    expect(
      thrownMessage(() => addMessage(state, { ...userMessage('x'), tool_call_id: 'c' } as never)),
    ).toBe(
      '[conversation-memory] addMessage: message.tool_call_id is not a field of this object (did you mean toolCallId?)',
    );
    expect(thrownMessage(() => addMessage(state, { ...userMessage('x'), 'a b': 1 } as never))).toBe(
      '[conversation-memory] addMessage: message["a b"] is not a field of this object',
    );
  });
});
