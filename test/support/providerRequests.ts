import { expect } from 'vitest';
import type { Message } from 'conversation-memory';
import type { CompletionRequest, ToolSpec } from 'conversation-memory';
import { assistant, call, system, tool, user } from '../helpers';

export const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

export const request = (messages: readonly Message[], extra: Partial<CompletionRequest> = {}) => ({
  model: 'ignored-model-name',
  systemPrompt: 'Be brief.',
  messages,
  ...extra,
});

/** A transcript with a finished tool turn and the summary system message at index 0. */
export const toolTurn: readonly Message[] = [
  system('[Conversation Summary] The user likes Paris.'),
  user('Weather in Paris?'),
  assistant(null, call('call_1', 'get_weather', { city: 'Paris' })),
  tool('Sunny, 21°C', 'call_1'),
  user('And tomorrow?'),
];

/** The rejection of a promise, for assertions on its fields. */
export const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
