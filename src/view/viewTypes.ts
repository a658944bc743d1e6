import type { Message } from '../model/message';

/**
 * Whose message rules a model view meets.
 *
 * - `'openai'`: Chat Completions (tool results right after their call, every call answered, ids
 *   present and unique, no assistant message with `null` content and nothing else).
 * - `'anthropic'`: Messages (the same tool rules, plus: the first message after the system
 *   messages is a user turn, and no user or assistant message without a content block except a
 *   final assistant one).
 * - `'none'`: no provider's format rules; only the tool-pairing rules every tool-calling API
 *   shares (a result follows its call; every call is answered; ids present and unique).
 *
 * @example
 * ```ts
 * const target: ViewTarget = 'anthropic';
 * ```
 */
export type ViewTarget = 'openai' | 'anthropic' | 'none';

/**
 * Why a model view left a message out.
 *
 * - `'summarized'`: trimmed from the window and covered by a committed summary (the injected
 *   `[Conversation Summary]` message stands for it).
 * - `'tool-result-without-call'`: a tool result whose call is not right before it in the view.
 * - `'missing-tool-call-id'`: a tool result without a `toolCallId`.
 * - `'duplicate-tool-result'`: a second result for the same call.
 * - `'tool-call-without-id'` / `'duplicate-tool-call-id'`: an assistant tool-call message with a
 *   call that has no id, or an id an earlier call used; it goes with its results.
 * - `'empty-content'`: a message the target refuses as empty.
 * - `'first-message-not-user'` (`'anthropic'`): a leading assistant turn before the first user turn.
 * - `'budget'`: left out, oldest first, to fit `options.budget`.
 *
 * @example
 * ```ts
 * const reason: ViewOmissionReason = 'tool-result-without-call';
 * ```
 */
export type ViewOmissionReason =
  | 'summarized'
  | 'tool-result-without-call'
  | 'missing-tool-call-id'
  | 'duplicate-tool-result'
  | 'tool-call-without-id'
  | 'duplicate-tool-call-id'
  | 'empty-content'
  | 'first-message-not-user'
  | 'budget';

/**
 * What a model view changed on its way from the retained memory to the model, as data (like a
 * reducer's effects): a message left out, or a tool call answered in the view.
 *
 * - `view/omitted`: `message` was left out for `reason`; `position` is its position in the
 *   conversation (`null` for a message memory never held), `index` its index in the source (the
 *   window, or `options.transcript`).
 * - `view/answered`: the call `toolCallId` of the assistant message at `position` had no result;
 *   the view answers it with `message` (a tool message saying the call was interrupted), right
 *   after the call's other results. Memory is not changed.
 *
 * @example
 * ```ts
 * const change: ViewChange = {
 *   type: 'view/omitted',
 *   reason: 'tool-result-without-call',
 *   index: 0,
 *   position: 41,
 *   message: toolMessage('4', { toolCallId: 'c1', toolName: 'calc' }),
 * };
 * ```
 */
export type ViewChange =
  | {
      readonly type: 'view/omitted';
      readonly reason: ViewOmissionReason;
      readonly index: number;
      readonly position: number | null;
      readonly message: Message;
    }
  | {
      readonly type: 'view/answered';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly position: number | null;
      readonly message: Message;
    };
