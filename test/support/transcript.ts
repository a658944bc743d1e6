import { expect } from 'vitest';
import type { Message } from 'conversation-memory';
import { validateTranscript } from 'conversation-memory';
import type { TranscriptProvider, TranscriptRule } from 'conversation-memory';

/** Both providers, for `it.each`. */
export const PROVIDERS: readonly TranscriptProvider[] = ['openai', 'anthropic'];

/** The (index, rule) pairs `validateTranscript` finds, for compact assertions. */
export const found = (messages: readonly Message[], provider: TranscriptProvider) =>
  validateTranscript(messages, provider).map(({ index, rule }) => [index, rule]);

/** The message of the one violation of `rule` (asserting there is exactly one). */
export const text = (
  messages: readonly Message[],
  provider: TranscriptProvider,
  rule: TranscriptRule,
): string => {
  const hits = validateTranscript(messages, provider).filter((v) => v.rule === rule);
  expect(hits).toHaveLength(1);
  return hits[0]?.message ?? '';
};
