import { MemoryArgumentError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';

/**
 * Reads the payload of a slice action and its `conversationId`: a non-empty string other than
 * `__proto__` (which would replace the prototype of the conversations record instead of adding a
 * key). Called by the creators (so a bad id fails where the action is made) and again by the
 * reducers, for actions built by hand or replayed, where it throws before anything changes.
 *
 * @param payload - the action's payload
 * @param api - the action type, for the error message
 * @returns the payload as a record, and its id
 * @throws MemoryArgumentError naming the action type and the value received
 * @internal
 */
export const readPayload = (
  payload: unknown,
  api: string,
): { readonly fields: Readonly<Record<string, unknown>>; readonly conversationId: string } => {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new MemoryArgumentError(
      api,
      `the payload must be an object with a conversationId, received ${describeValue(payload)}`,
    );
  }
  const fields = payload as Readonly<Record<string, unknown>>;
  const conversationId = fields['conversationId'];
  if (
    typeof conversationId !== 'string' ||
    conversationId === '' ||
    conversationId === '__proto__'
  ) {
    throw new MemoryArgumentError(
      api,
      `conversationId must be a non-empty string other than "__proto__", received ${describeValue(conversationId)}`,
    );
  }
  return { fields, conversationId };
};
