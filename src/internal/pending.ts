import type { Message } from '../model/message';

/**
 * Merges newly trimmed messages into the held ones, both sorted by position, skipping positions
 * already held. Linear in both lists.
 *
 * @internal
 */
export const mergeByPosition = (
  heldMessages: readonly Message[],
  heldPositions: readonly number[],
  newMessages: readonly Message[],
  newPositions: readonly number[],
): { messages: Message[]; positions: number[]; added: number[] } => {
  const messages: Message[] = [];
  const positions: number[] = [];
  const added: number[] = [];
  // The new ones may come in any order from a caller: sort their indices by position.
  const order = newPositions
    .map((_, i) => i)
    .sort((a, b) => (newPositions[a] as number) - (newPositions[b] as number));
  let a = 0;
  let b = 0;
  while (a < heldPositions.length || b < order.length) {
    const held = heldPositions[a];
    const index = order[b];
    const incoming = index === undefined ? undefined : newPositions[index];
    if (incoming === undefined || (held !== undefined && held <= incoming)) {
      messages.push(heldMessages[a] as Message);
      positions.push(held as number);
      a++;
      if (held === incoming) b++;
    } else {
      if (positions[positions.length - 1] !== incoming) {
        messages.push(newMessages[index as number] as Message);
        positions.push(incoming);
        added.push(incoming);
      }
      b++;
    }
  }
  return { messages, positions, added };
};
