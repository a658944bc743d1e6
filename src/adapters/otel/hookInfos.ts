import type { AgentObserver } from 'conversation-memory';

/**
 * What `onModelCall` receives (the agent's `ModelCallInfo`), read from `AgentObserver`'s method,
 * which the root entry exports; the same for the four below.
 *
 * @example
 * ```ts
 * const model = (call: ModelCall): string => call.model;
 * ```
 */
export type ModelCall = Parameters<NonNullable<AgentObserver['onModelCall']>>[1];

/**
 * What `onModelResult` receives (`ModelResultInfo`).
 *
 * @example
 * ```ts
 * const outputTokens = (result: ModelResult) => result.usage?.outputTokens;
 * ```
 */
export type ModelResult = Parameters<NonNullable<AgentObserver['onModelResult']>>[1];

/**
 * What `onModelError` receives (`ModelErrorInfo`).
 *
 * @example
 * ```ts
 * const error = (failure: ModelFailure): unknown => failure.error;
 * ```
 */
export type ModelFailure = Parameters<NonNullable<AgentObserver['onModelError']>>[1];

/**
 * What `onToolStart` receives (`ToolStartInfo`).
 *
 * @example
 * ```ts
 * const name = (tool: ToolStart): string => tool.toolName;
 * ```
 */
export type ToolStart = Parameters<NonNullable<AgentObserver['onToolStart']>>[1];

/**
 * What `onToolEnd` receives (`ToolEndInfo`).
 *
 * @example
 * ```ts
 * const output = (tool: ToolEnd): string => tool.output;
 * ```
 */
export type ToolEnd = Parameters<NonNullable<AgentObserver['onToolEnd']>>[1];
