import { checkOptionFields, configError } from '../internal/checkConfig';
import { normalizeMessage } from '../internal/normalizeMessage';
import { listItem, listLength } from '../internal/readList';
import { summaryText, summaryTextOrNull, summaryThrough } from '../internal/summaryArguments';
import type { MemoryAction, MemoryActionType } from '../model/actions';
import type { MemoryOptions } from '../model/config';
import type { TrimmedEffect } from '../model/effects';
import type { MessageInput } from '../model/messageInput';
import { heldPayload } from './heldPayload';

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

/** Whether `action` is an object whose `type` is `type`; false (never a throw) if it cannot be read. */
const hasType = (action: unknown, type: string): boolean => {
  if (typeof action !== 'object' || action === null) return false;
  try {
    return (action as { type?: unknown }).type === type;
  } catch {
    // A revoked Proxy, a throwing getter: not an action of ours.
    return false;
  }
};

/** Builds an action creator (with `type` and `match`). @internal */
export const creator = <T extends MemoryActionType, A extends unknown[]>(
  type: T,
  build: (...args: A) => ActionOf<T>,
): ActionCreator<T, A> =>
  Object.freeze(
    Object.assign(build, {
      type,
      match: (action: unknown): action is ActionOf<T> => hasType(action, type),
    }),
  );

const messagesOf = (messages: readonly MessageInput[], api: string) => {
  const length = listLength(messages, api);
  const out = [];
  for (let i = 0; i < length; i++) out.push(normalizeMessage(listItem(messages, i, api), api, i));
  return Object.freeze(out);
};

/** The fields of a `reconfigured` action: checked as `createMemory` checks them, copied, frozen. */
const configFieldsOf = (config: MemoryOptions): MemoryOptions => {
  const checked = checkOptionFields(config);
  if (!checked.ok) throw configError('memoryActions.reconfigured', checked);
  return checked.fields;
};

/**
 * The action creators of every reducer (see {@link MemoryAction}). Arguments are checked when the
 * action is created, with the rules its reducer applies later, so a bad one fails where it is made:
 * messages are validated and stored as canonical frozen copies (`InvalidMessageError`; the reducer
 * later admits the copy without work), config fields are checked as `createMemory` checks them
 * (`MemoryConfigError`; the fields given are kept, to merge over the state's config later),
 * summary texts and `through` are checked as the summary
 * reducers check them, and `trimHeld` reads its effect once and safely (`MemoryArgumentError`
 * naming the field). `match` returns `false` for anything that is not the action, a revoked Proxy
 * included; it never throws.
 *
 * @example
 * ```ts
 * let state = createMemory();
 * state = memoryReducer(state, memoryActions.messageAdded(userMessage('hi')));
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
    payload: summaryText('memoryActions.summaryApplied', text),
  })),
  summarySet: /* @__PURE__ */ creator('memory/summarySet', (text: string | null) => ({
    type: 'memory/summarySet',
    payload: summaryTextOrNull('memoryActions.summarySet', text),
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
      payload: Object.freeze({
        text: summaryText('memoryActions.summaryCommitted', text),
        through: summaryThrough('memoryActions.summaryCommitted', through),
      }),
    }),
  ),
  reconfigured: /* @__PURE__ */ creator('memory/reconfigured', (config: MemoryOptions) => ({
    type: 'memory/reconfigured',
    payload: configFieldsOf(config),
  })),
});
