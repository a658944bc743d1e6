import type { Message } from '../model/message';
import type { MemoryState } from '../model/state';
import { countMessageTokens } from '../tokens/registry';
import { normalizeMessage } from './normalizeMessage';
import { listItem, listLength } from './readList';
import { addToTotal } from './tokenTotal';

/**
 * Validates, canonicalizes and counts messages on their way into a state: the only place a
 * message's tokens are counted. `values` is one message (`single`) or a caller's list, read once
 * item by item, so a bad item stops the work at once (a sparse list of length 2^32 − 1 fails at
 * its first hole). The window's total, the new messages included, must stay a safe integer
 * (every later sum and difference is then exact); a tokenizer that would break that is a
 * `TokenizerError`, with the state untouched.
 *
 * @internal
 */
export const admit = (
  state: MemoryState,
  values: unknown,
  api: string,
  single: boolean,
): { messages: Message[]; counts: number[] } => {
  const length = single ? 1 : listLength(values, api);
  const messages: Message[] = [];
  const counts: number[] = [];
  let total = state.totalTokens;
  for (let i = 0; i < length; i++) {
    const message = single
      ? normalizeMessage(values, api)
      : normalizeMessage(listItem(values as readonly unknown[], i, api), api, i);
    const count = countMessageTokens(state.config.tokenizer, message, api);
    total = addToTotal(total, count, state.config.tokenizer, api);
    messages.push(message);
    counts.push(count);
  }
  return { messages, counts };
};
