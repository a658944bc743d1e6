import type { AgentObserver } from 'conversation-memory';

/**
 * The hook infos of the agent's observer contract (`ModelCallInfo`, `ModelResultInfo`, …), read
 * from `AgentObserver`'s methods, which the root entry exports.
 *
 * @example
 * ```ts
 * const model = (call: ModelCall): string => call.model;
 * ```
 */
export type ModelCall = Parameters<NonNullable<AgentObserver['onModelCall']>>[1];
/** @see {@link ModelCall} @example `const usage = (result: ModelResult) => result.usage;` */
export type ModelResult = Parameters<NonNullable<AgentObserver['onModelResult']>>[1];
/** @see {@link ModelCall} @example `const error = (failure: ModelFailure) => failure.error;` */
export type ModelFailure = Parameters<NonNullable<AgentObserver['onModelError']>>[1];
/** @see {@link ModelCall} @example `const name = (tool: ToolStart) => tool.toolName;` */
export type ToolStart = Parameters<NonNullable<AgentObserver['onToolStart']>>[1];
/** @see {@link ModelCall} @example `const output = (tool: ToolEnd) => tool.output;` */
export type ToolEnd = Parameters<NonNullable<AgentObserver['onToolEnd']>>[1];
