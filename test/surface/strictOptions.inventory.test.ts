/**
 * Every public function, constructor and method that takes an options object refuses a key it
 * does not know (issue #17 §3): the error is one of our classes, and its message names the call,
 * the key and, where one is near, the option meant. One row per entry of the inventory of calls
 * that take options (test/support/optionCalls.ts), run against the real stores.
 */
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError } from 'conversation-memory';
import { optionCalls, optionsFor, usePlaces } from '../support/optionCalls';

const places = usePlaces();

/** The error `run` throws or rejects with, or `undefined` when it does neither. */
const failureOf = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
};

/** Every call of the inventory (test/support/optionCalls.ts) that refuses unknown keys. */
const rows = optionCalls().flatMap((row) =>
  row.typo === undefined ? [] : [{ ...row, typo: row.typo }],
);

describe('every options object is strict', () => {
  it.each(rows)('$call refuses an unknown key', async ({ open, typo, error }) => {
    const subject = await open(places);
    try {
      const failure = await failureOf(() => subject.run(optionsFor(subject, typo.options)));
      expect(failure).toBeInstanceOf(error);
      expect(isConversationMemoryError(failure)).toBe(true);
      expect((failure as Error).message).toContain(typo.message);
    } finally {
      await subject.close?.();
    }
  });
});
