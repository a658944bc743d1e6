import { MemoryArgumentError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';

/** The longest chat id a stream store takes. */
export const MAX_CHAT_ID = 256;

/**
 * Checks a chat id given to a UI message stream store or to `resumeUIMessageStream`: a non-empty
 * string of at most {@link MAX_CHAT_ID} characters, else `MemoryArgumentError` naming the call.
 *
 * @param api - the call, for the error
 * @param chatId - the value given
 * @returns the chat id
 * @example
 * ```ts
 * checkChatId('resumeUIMessageStream', 'chat-1'); // 'chat-1'
 * ```
 * @internal
 */
export const checkChatId = (api: string, chatId: unknown): string => {
  if (typeof chatId !== 'string' || chatId === '' || chatId.length > MAX_CHAT_ID) {
    throw new MemoryArgumentError(
      api,
      `chatId must be a non-empty string of at most ${MAX_CHAT_ID} characters, received ${describeValue(chatId)}`,
    );
  }
  return chatId;
};
