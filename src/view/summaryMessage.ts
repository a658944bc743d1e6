import { systemMessage } from '../messages/constructors';
import type { Message } from '../model/message';

/**
 * How the stored summary reaches the model: a system message `[Conversation Summary] <summary>`
 * at index 0 of every main model call's messages (never stored in memory).
 *
 * @example
 * ```ts
 * `${SUMMARY_MESSAGE_PREFIX} The user is Alice.`; // '[Conversation Summary] The user is Alice.'
 * ```
 */
export const SUMMARY_MESSAGE_PREFIX = '[Conversation Summary]';

/**
 * The message that carries the stored summary to the model: a system message
 * `[Conversation Summary] <summary>`, injected at index 0 of every main model call (never stored
 * in memory). `undefined` when there is no summary (`null` or empty).
 *
 * @param summary - the memory's summary
 * @returns the message to inject, or `undefined`
 * @example
 * ```ts
 * summaryMessage('The user is Alice.'); // { role: 'system', content: '[Conversation Summary] The user is Alice.' }
 * summaryMessage(null); // undefined
 * ```
 */
export const summaryMessage = (summary: string | null): Message | undefined =>
  summary !== null && summary !== ''
    ? systemMessage(`${SUMMARY_MESSAGE_PREFIX} ${summary}`)
    : undefined;
