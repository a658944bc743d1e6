import type { Message } from '../model/message';
import type { MemoryState } from '../model/state';
import { countMessageTokens } from '../tokens/registry';
import { normalizeMessage } from './normalizeMessage';

/**
 * Validates, canonicalizes and counts messages on their way into a state: the only place a
 * message's tokens are counted.
 *
 * @internal
 */
export const admit = (
  state: MemoryState,
  values: readonly unknown[],
  api: string,
  single: boolean,
): { messages: Message[]; counts: number[] } => {
  const messages: Message[] = new Array<Message>(values.length);
  const counts: number[] = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    const message = normalizeMessage(values[i], api, single ? undefined : i);
    messages[i] = message;
    counts[i] = countMessageTokens(state.config.tokenizer, message, api);
  }
  return { messages, counts };
};
