import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { normalizeMessage } from '../internal/normalizeMessage';
import { unreadable } from '../internal/unreadable';
import type { Message } from '../model/message';

const API = 'memoryActions.trimHeld';

/** Runs `read` on the caller's value; whatever it throws that is not ours names `what`. */
const safely = <T>(what: string, read: () => T): T => {
  try {
    return read();
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, API, what);
  }
};

/** The length of `trimmed.<key>`, which must be a real array (a Proxy of one is read as one). */
const arrayLength = (value: unknown, key: string, expected: string): number =>
  safely(`trimmed.${key}`, () => {
    if (!Array.isArray(value)) {
      throw new MemoryArgumentError(
        API,
        `trimmed.${key} must be ${expected}, received ${describeValue(value)}`,
      );
    }
    return (value as readonly unknown[]).length;
  });

/**
 * The payload of `memoryActions.trimHeld`: copies of a `memory/trimmed` effect's messages and
 * positions, checked and frozen. The effect is hostile input (it may come from JSON or another
 * realm): `removed` and `positions` are read once each, must be real arrays of one length (checked
 * before either is read further, so `{ length: 2 ** 32 - 1 }` or a sparse list is refused
 * without a walk over it), each position an integer ≥ 0 (`-0` is stored as `0`, so the action
 * stays JSON-exact), each message valid as on entry. A bad value, `null`, a revoked Proxy or a
 * throwing getter is a `MemoryArgumentError` naming the field (an invalid message an
 * `InvalidMessageError`), never the caller's own error or a `TypeError`.
 *
 * @param trimmed - a `memory/trimmed` effect
 * @returns `{ removed, positions }`, frozen
 * @example
 * ```ts
 * heldPayload({ type: 'memory/trimmed', removed: [userMessage('a')], positions: [0] });
 * ```
 * @internal
 */
export const heldPayload = (
  trimmed: unknown,
): { readonly removed: readonly Message[]; readonly positions: readonly number[] } => {
  if (typeof trimmed !== 'object' || trimmed === null) {
    throw new MemoryArgumentError(
      API,
      `trimmed must be a memory/trimmed effect (with removed and positions), received ${describeValue(trimmed)}`,
    );
  }
  const effect = trimmed as { readonly removed?: unknown; readonly positions?: unknown };
  const removed = safely('trimmed.removed', () => effect.removed);
  const positions = safely('trimmed.positions', () => effect.positions);
  const count = arrayLength(removed, 'removed', 'a list of messages');
  const length = arrayLength(positions, 'positions', 'a list of positions');
  if (length !== count) {
    throw new MemoryArgumentError(
      API,
      `trimmed.positions must hold one position per removed message (${count}), received ${length}`,
    );
  }
  const copied: number[] = [];
  for (let i = 0; i < length; i++) {
    const position = safely(`trimmed.positions[${i}]`, () => (positions as unknown[])[i]);
    if (!Number.isSafeInteger(position) || (position as number) < 0) {
      throw new MemoryArgumentError(
        API,
        `trimmed.positions[${i}] must be an integer ≥ 0, received ${describeValue(position)}`,
      );
    }
    copied.push((position as number) + 0);
  }
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    const message = safely(`trimmed.removed[${i}]`, () => (removed as unknown[])[i]);
    messages.push(normalizeMessage(message, API, i));
  }
  return Object.freeze({ removed: Object.freeze(messages), positions: Object.freeze(copied) });
};
