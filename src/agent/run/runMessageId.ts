import { normalizeMessage } from '../../internal/normalizeMessage';
import type { Message } from '../../model/message';
import type { RunContext } from './context';

/**
 * A message the run made (a reply, a tool result, the kept part of an interrupted reply), with
 * the run's `messageId` as its `id` (`RunOptions.messageId`: the id of the UI message that shows
 * the run's reply); the same message when the run has none. The run's input and the answers to
 * an earlier run's interrupted calls keep their own ids.
 *
 * @param context - the run
 * @param message - a message the run made
 * @returns the message to record
 * @example
 * ```ts
 * withRunMessageId({ ...context, messageId: 'm-7' }, assistantMessage('hi')).id; // 'm-7'
 * ```
 * @internal
 */
export const withRunMessageId = (context: RunContext, message: Message): Message =>
  context.messageId === undefined || message.id === context.messageId
    ? message
    : normalizeMessage({ ...message, id: context.messageId }, 'agent.run');
