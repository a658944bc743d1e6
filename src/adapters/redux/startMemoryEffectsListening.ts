import type {
  Action,
  ListenerMiddlewareInstance,
  ThunkDispatch,
  UnknownAction,
} from '@reduxjs/toolkit';
import { ListenerError, MemoryArgumentError, type MemoryEffect } from 'conversation-memory';
import { conversationStep, STEP_ACTIONS, type StepAction } from './conversationStep';
import type { ConversationsSlice } from './createConversationsSlice';
import type {
  ConversationsAction,
  ConversationsState,
  MemoryEffectContext,
  MemoryEffectHandler,
} from './types';

/** The effects of one dispatched action, on their way to the handler. */
interface Batch<Context> {
  readonly effects: readonly MemoryEffect[];
  readonly context: Context;
  readonly failures: unknown[];
  readonly pending: Promise<void>[];
  /** Resolved once every effect was handed to the handler (or skipped after unsubscribe). */
  readonly delivered: Promise<void>;
  readonly markDelivered: () => void;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/** Which of the slice's effect-making actions `action` is, if any. */
const stepActionOf = (slice: ConversationsSlice<string>, action: unknown): StepAction | undefined =>
  STEP_ACTIONS.find((kind) => slice.actions[kind].match(action));

/** The slice's state in the store's state, checked: a slice mounted elsewhere is named. */
const sliceState = <Name extends string>(
  slice: ConversationsSlice<Name>,
  rootState: unknown,
): ConversationsState => {
  let state: unknown;
  try {
    state = slice.selectSlice(rootState as Record<Name, ConversationsState>);
  } catch {
    state = undefined;
  }
  const conversations = (state as Partial<ConversationsState> | undefined)?.conversations;
  if (typeof conversations !== 'object' || conversations === null) {
    throw new MemoryArgumentError(
      'startMemoryEffectsListening',
      `the store's state has no conversations slice at "${slice.reducerPath}": mount the slice with { [slice.reducerPath]: slice.reducer }`,
    );
  }
  return state as ConversationsState;
};

/**
 * Delivers the effects of a conversations slice to `handler`, through Redux Toolkit's listener
 * middleware: `handler(effect, { conversationId, action, dispatch, getState })` is called for
 * every effect the reducers emitted for each dispatched slice action, in order, right after the
 * reducer ran (`getState()` is the state after the action).
 *
 * The reducers stay pure: they keep no effects anywhere. The listener recomputes the transition
 * with the very function the reducer used (`memoryTransition` on the conversation), from
 * `listenerApi.getOriginalState()` (the state the reducer started from) and the same action;
 * the core reducers are deterministic (tokenizers are named in the config), so these are exactly
 * the effects of the transition the store holds. That costs the action's work once more (a
 * message's tokens are counted twice), only while a handler listens. Put the listener middleware
 * first (`getDefaultMiddleware().prepend(listenerMiddleware.middleware)`, as Redux Toolkit
 * advises), so that no middleware dispatches between it and the reducer; mount the slice at
 * `slice.reducerPath` (the listener reads it with `slice.selectSlice`).
 *
 * When a handler dispatches, the effects of that action are delivered after the rest of the
 * current action's: effects always arrive in the order the reducers produced them.
 *
 * Failures: a handler that throws or returns a rejected promise never touches the state (the
 * reducer already ran) and does not stop the other effects. Once every handler call of an
 * action has settled, one `ListenerError` (`code: 'CM_LISTENER'`, `cause`: the first error,
 * `effects`: the action's effects) goes to the listener middleware's `onError`
 * (`createListenerMiddleware({ onError })`; Redux Toolkit's default logs it with
 * `console.error`). Nothing is thrown to the code that dispatched.
 *
 * @param listenerMiddleware - from `createListenerMiddleware()`, installed in the store
 * @param slice - from `createConversationsSlice`
 * @param handler - called with each effect and its context; may return a promise
 * @returns unsubscribe: stops the deliveries (effects not yet handed over are dropped)
 * @example
 * ```ts
 * const listener = createListenerMiddleware();
 * const chats = createConversationsSlice({ defaultConfig: { maxMessages: 20 } });
 * const store = configureStore({
 *   reducer: { [chats.reducerPath]: chats.reducer },
 *   middleware: (getDefault) => getDefault().prepend(listener.middleware),
 * });
 * const stop = startMemoryEffectsListening(listener, chats, (effect, { conversationId }) => {
 *   if (effect.type === 'memory/trimmed') console.log(`${conversationId}: ${effect.removed.length} trimmed`);
 * });
 * ```
 */
export function startMemoryEffectsListening<
  State,
  D extends ThunkDispatch<State, unknown, Action>,
  Extra,
  Name extends string,
>(
  listenerMiddleware: ListenerMiddlewareInstance<State, D, Extra>,
  slice: ConversationsSlice<Name>,
  handler: MemoryEffectHandler<State, D>,
): () => void {
  type ThisBatch = Batch<MemoryEffectContext<State, D>>;
  const queue: ThisBatch[] = [];
  let draining = false;
  let active = true;

  const deliver = (batch: ThisBatch): void => {
    const fail = (error: unknown): void => {
      batch.failures.push(error);
    };
    for (const effect of batch.effects) {
      if (!active) break;
      try {
        const result = handler(effect, batch.context);
        if (isThenable(result)) batch.pending.push(Promise.resolve(result).then(undefined, fail));
      } catch (error) {
        fail(error);
      }
    }
    batch.markDelivered();
  };

  // A handler that dispatches re-enters here; its action's effects wait behind the current ones.
  const drain = (): void => {
    if (draining) return;
    draining = true;
    try {
      for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) deliver(batch);
    } finally {
      draining = false;
    }
  };

  const stop = listenerMiddleware.startListening({
    predicate: (action: UnknownAction): boolean => stepActionOf(slice, action) !== undefined,
    effect: async (action, listenerApi): Promise<void> => {
      const kind = stepActionOf(slice, action) as StepAction;
      const before = sliceState(slice, listenerApi.getOriginalState());
      const step = conversationStep(before, kind, action.payload, action.type);
      if (step === undefined || step.transition.effects.length === 0 || !active) return;
      let markDelivered = (): void => {};
      const delivered = new Promise<void>((resolve) => {
        markDelivered = resolve;
      });
      const batch: ThisBatch = {
        effects: step.transition.effects,
        context: Object.freeze({
          conversationId: step.conversationId,
          action: action as ConversationsAction,
          dispatch: listenerApi.dispatch,
          getState: listenerApi.getState,
        }),
        failures: [],
        pending: [],
        delivered,
        markDelivered,
      };
      queue.push(batch);
      drain();
      await delivered;
      await Promise.all(batch.pending);
      if (batch.failures.length > 0) {
        throw new ListenerError(
          'startMemoryEffectsListening',
          batch.failures[0],
          batch.failures.length,
          batch.effects,
        );
      }
    },
  });
  return (): void => {
    active = false;
    stop();
  };
}
