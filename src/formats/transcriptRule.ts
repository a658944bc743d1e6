/**
 * A rule of a provider's message format that a transcript can break. Each one is a request the
 * provider answers with a 400:
 *
 * - `'tool-result-without-call'`: a tool result whose `toolCallId` is not among the calls of the
 *   nearest assistant message before it (only tool results may stand between a call and its
 *   results; for Anthropic, system messages are lifted out and do not count). OpenAI: "messages
 *   with role 'tool' must be a response to a preceeding message with 'tool_calls'"; Anthropic:
 *   "unexpected `tool_use_id` found in `tool_result` blocks". Pairing is per assistant message
 *   for both providers: Anthropic merges consecutive assistant messages into one turn and would
 *   accept `[call a] [call b] [result a] [result b]`, but OpenAI would not, and neither would a
 *   memory that groups a call with its results.
 * - `'tool-call-without-result'`: an assistant tool call that no tool result answers before the
 *   next message that is not a tool result, or before the end of the transcript (for Anthropic,
 *   system messages are lifted out and end nothing): a request may not end on calls without
 *   results, whether none or only some of them are answered.
 * - `'duplicate-tool-result'`: a second tool result answering the same call.
 * - `'duplicate-tool-call-id'`: a tool call whose `id` an earlier call of the transcript (in the
 *   same message or an earlier one) already uses. Anthropic: "`tool_use` ids must be unique".
 * - `'tool-call-without-id'`: a tool call with no `id` (or `''`); both providers require one.
 * - `'missing-tool-call-id'`: a tool result with no `toolCallId` (or `''`).
 * - `'first-message-not-user'` (Anthropic only): once system messages are lifted out, the first
 *   message is not a user turn (tool results count as user turns). Consecutive turns of one role
 *   are merged by the API, so no stricter alternation is required.
 * - `'empty-content'`: OpenAI, an assistant message whose `content` is `null` with no tool calls
 *   and no content parts ("expected a string, got null"); Anthropic, a user or assistant message
 *   that converts to no content block (no non-empty text, no image, no tool call), except a final
 *   assistant message ("all messages must have non-empty content except for the optional final
 *   assistant message"). Tool results always convert to a `tool_result` block.
 *
 * @example
 * ```ts
 * const rule: TranscriptRule = 'tool-result-without-call';
 * ```
 */
export type TranscriptRule =
  | 'tool-result-without-call'
  | 'tool-call-without-result'
  | 'duplicate-tool-result'
  | 'duplicate-tool-call-id'
  | 'tool-call-without-id'
  | 'missing-tool-call-id'
  | 'first-message-not-user'
  | 'empty-content';

/**
 * Every {@link TranscriptRule}, in the order they are documented.
 *
 * @example
 * ```ts
 * TRANSCRIPT_RULES.includes('empty-content'); // true
 * ```
 */
export const TRANSCRIPT_RULES: readonly TranscriptRule[] = /* @__PURE__ */ Object.freeze([
  'tool-result-without-call',
  'tool-call-without-result',
  'duplicate-tool-result',
  'duplicate-tool-call-id',
  'tool-call-without-id',
  'missing-tool-call-id',
  'first-message-not-user',
  'empty-content',
]);

/**
 * The provider whose rules a transcript is checked against.
 *
 * @example
 * ```ts
 * const provider: TranscriptProvider = 'anthropic';
 * ```
 */
export type TranscriptProvider = 'openai' | 'anthropic';

/**
 * One broken rule: where (`index`, the position in the array given to `validateTranscript`),
 * which rule, and a sentence that says what is wrong and quotes the provider's own error text.
 *
 * @example
 * ```ts
 * const violation: TranscriptViolation = {
 *   index: 1,
 *   rule: 'tool-result-without-call',
 *   message: 'messages[1] is a tool result for call "c9", but …',
 * };
 * ```
 */
export interface TranscriptViolation {
  readonly index: number;
  readonly rule: TranscriptRule;
  readonly message: string;
}
