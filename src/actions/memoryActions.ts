import { MemoryArgumentError } from '../errors/errorClasses';
import { describeValue } from '../internal/describeValue';
import { normalizeMessage } from '../internal/normalizeMessage';
import { listItem, listLength } from '../internal/readList';
import type { MemoryAction, MemoryActionType } from '../model/actions';
import type { TrimmedEffect } from '../model/effects';
import type { MessageInput } from '../model/messageInput';

/** The action of `type`. */
type ActionOf<T extends MemoryActionType> = Extract<MemoryAction, { readonly type: T }>;

/**
 * An action creator: a function that builds the action, with its `type` and a `match` type guard
 * (as Redux Toolkit's creators have).
 *
 * @example
 * ```ts
 * const creator: ActionCreator<'memory/cleared', []> = memoryActions.cleared;
 * creator.match({ type: 'memory/cleared' }); // true
 * ```
 */
export type ActionCreator<T extends MemoryActionType, A extends unknown[]> = ((
  ...args: A
) => ActionOf<T>) & {
  readonly type: T;
  match(action: unknown): action is ActionOf<T>;
};

const creator = <T extends MemoryActionType, A extends unknown[]>(
  type: T,
  build: (...args: A) => ActionOf<T>,
): ActionCreator<T, A> =>
  Object.freeze(
    Object.assign(build, {
      type,
      match: (action: unknown): action is ActionOf<T> =>
        typeof action === 'object' &&
        action !== null &&
        (action as { type?: unknown }).type === type,
    }),
  );

const messagesOf = (messages: readonly MessageInput[], api: string) => {
  const length = listLength(messages, api);
  const out = [];
  for (let i = 0; i < length; i++) out.push(normalizeMessage(listItem(messages, i, api), api, i));
  return Object.freeze(out);
};

/** The payload of `trimHeld`: copies of the effect's messages and positions, checked and frozen. */
const heldPayload = (trimmed: TrimmedEffect) => {
  const api = 'memoryActions.trimHeld';
  const removed = messagesOf(trimmed.removed, api);
  const positions = Object.freeze(Array.from(trimmed.positions));
  if (
    positions.length !== removed.length ||
    !positions.every((p) => Number.isSafeInteger(p) && p >= 0)
  ) {
    throw new MemoryArgumentError(
      api,
      `trimmed must be a memory/trimmed effect with one position (an integer ≥ 0) per removed message, received ${describeValue(trimmed.positions)}`,
    );
  }
  return Object.freeze({ removed, positions });
};

/**
 * The action creators of every reducer (see {@link MemoryAction}). Messages are validated and
 * stored as canonical frozen copies when the action is created, so an invalid message fails where
 * it is made (`InvalidMessageError`), and the reducer later admits the copy without work.
 *
 * @example
 * ```ts
 * let state = createMemory();
 * state = reduceMemory(state, memoryActions.messageAdded(userMessage('hi')));
 * memoryActions.messageAdded.type; // 'memory/messageAdded'
 * ```
 */
export const memoryActions = /* @__PURE__ */ Object.freeze({
  messageAdded: /* @__PURE__ */ creator('memory/messageAdded', (message: MessageInput) => ({
    type: 'memory/messageAdded',
    payload: normalizeMessage(message, 'memoryActions.messageAdded'),
  })),
  messagesAdded: /* @__PURE__ */ creator(
    'memory/messagesAdded',
    (messages: readonly MessageInput[]) => ({
      type: 'memory/messagesAdded',
      payload: messagesOf(messages, 'memoryActions.messagesAdded'),
    }),
  ),
  limitsEnforced: /* @__PURE__ */ creator('memory/limitsEnforced', () => ({
    type: 'memory/limitsEnforced',
  })),
  toolPairBoundaryFixed: /* @__PURE__ */ creator('memory/toolPairBoundaryFixed', () => ({
    type: 'memory/toolPairBoundaryFixed',
  })),
  summaryApplied: /* @__PURE__ */ creator('memory/summaryApplied', (text: string) => ({
    type: 'memory/summaryApplied',
    payload: text,
  })),
  summarySet: /* @__PURE__ */ creator('memory/summarySet', (text: string | null) => ({
    type: 'memory/summarySet',
    payload: text,
  })),
  cleared: /* @__PURE__ */ creator('memory/cleared', () => ({ type: 'memory/cleared' })),
  trimHeld: /* @__PURE__ */ creator('memory/trimHeld', (trimmed: TrimmedEffect) => ({
    type: 'memory/trimHeld',
    payload: heldPayload(trimmed),
  })),
  summaryCommitted: /* @__PURE__ */ creator(
    'memory/summaryCommitted',
    (text: string, through: number) => ({
      type: 'memory/summaryCommitted',
      payload: Object.freeze({ text, through }),
    }),
  ),
});
