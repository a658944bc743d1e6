import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  createMemory,
  fromDict,
  TokenizerError,
  userMessage,
} from 'conversation-memory';
import { registerTokenizer } from 'conversation-memory/tokens';

/**
 * A window's token total stays a safe integer, so `totalTokens` always equals the sum of
 * `tokenCounts` exactly (near `Number.MAX_SAFE_INTEGER`, `(2^53 − 1) + 2` is not representable
 * and the total would drift). A custom tokenizer whose counts would break that is refused.
 */

const HUGE = Number.MAX_SAFE_INTEGER - 1;
registerTokenizer('token-total-huge', (m) =>
  m.content === 'huge' ? HUGE : m.content === 'large' ? HUGE - 10 : 2,
);

describe('the token total is bounded', () => {
  const state = addMessage(
    createMemory({ tokenizer: 'token-total-huge' }),
    userMessage('huge'),
  ).state;

  it('accepts a total up to MAX_SAFE_INTEGER, equal to the sum of the counts', () => {
    expect(state.totalTokens).toBe(HUGE);
    // The bound applies to the window with the new messages, before trimming (that sum must be
    // exact for removedTokens): a large window still slides.
    const sliding = addMessage(
      createMemory({ tokenizer: 'token-total-huge', maxMessages: 1 }),
      userMessage('large'),
    );
    const { state: next, effects } = addMessage(sliding.state, userMessage('small'));
    expect(next.totalTokens).toBe(2);
    expect(effects[0]).toMatchObject({ removedTokens: HUGE - 10, remainingTokens: 2 });
  });

  it('refuses an add that would pass it, with a TokenizerError and the state untouched', () => {
    expect(() => addMessage(state, userMessage('small'))).toThrow(TokenizerError);
    expect(() => addMessage(state, userMessage('small'))).toThrow(
      /addMessage: the window's token total with tokenizer "token-total-huge" would pass Number\.MAX_SAFE_INTEGER/,
    );
    expect(() =>
      addMessages(createMemory({ tokenizer: 'token-total-huge' }), [
        userMessage('huge'),
        userMessage('x'),
      ]),
    ).toThrow(TokenizerError);
    expect(state.totalTokens).toBe(HUGE);
    expect(state.messages).toHaveLength(1);
  });

  it('fromDict reports such a file as a tokenizer failure, not as corrupt data', () => {
    const result = fromDict(
      {
        max_messages: 5,
        messages: [
          { role: 'user', content: 'huge' },
          { role: 'user', content: 'x' },
        ],
      },
      { tokenizer: 'token-total-huge' },
    );
    expect(E.isLeft(result) && result.left.kind).toBe('tokenizer');
    expect(E.isLeft(result) && result.left.problems[0]).toMatch(
      /^messages\[1\]: the window's token total/,
    );
  });
});
