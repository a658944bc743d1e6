/**
 * The provider-safe trimming policy as config fields, to spread into `createMemory`'s options:
 * tool calls and their results are kept or removed as whole groups and orphans never stay
 * (`toolPairs: 'strict'`), the window starts with a user message (`startOn: 'user'`), and system
 * messages are never trimmed (`pinSystem: true`). A window trimmed this way is a transcript that
 * OpenAI and Anthropic accept. `createMemory` and `ConversationMemory` keep the reference's
 * policy by default; a memory the agent creates for itself uses this one.
 *
 * @example
 * ```ts
 * const state = createMemory({ ...PROVIDER_SAFE, maxMessages: 50 });
 * state.config.toolPairs; // 'strict'
 * ```
 */
export const PROVIDER_SAFE: {
  readonly toolPairs: 'strict';
  readonly startOn: 'user';
  readonly pinSystem: true;
} = /* @__PURE__ */ Object.freeze({ toolPairs: 'strict', startOn: 'user', pinSystem: true });
