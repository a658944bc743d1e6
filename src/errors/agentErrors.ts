import { brandError, formatMessage } from './errorBrand';

/**
 * Thrown by `createAgent` for an invalid agent option (a missing provider, a tool without a name,
 * two tools with one name, `maxIterations: 0`, …). The message names the option and the value.
 *
 * @example
 * ```ts
 * try { createAgent({ provider, config: { maxIterations: 0 } }); } catch (e) {
 *   (e as AgentConfigError).code; // 'CM_AGENT_CONFIG'
 * }
 * ```
 */
export class AgentConfigError extends RangeError {
  declare readonly code: 'CM_AGENT_CONFIG';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  constructor(api: string, what: string, options?: { cause?: unknown }) {
    super(formatMessage(api, what), options);
    brandError(this, 'CM_AGENT_CONFIG', 'AgentConfigError', what);
  }
}

/**
 * A provider answered with something that is not a usable reply: the adapter names the path and
 * the value it received (`choices[0].message.tool_calls[1].function.arguments: expected a JSON
 * object, received "{oops"`). Errors of the HTTP call itself (a 400, a timeout) are the client's
 * own errors, passed through unchanged.
 *
 * @example
 * ```ts
 * try { await provider.complete(request); } catch (e) {
 *   if (isConversationMemoryError(e) && e.code === 'CM_PROVIDER_RESPONSE') console.error(e.detail);
 * }
 * ```
 */
export class ProviderResponseError extends Error {
  declare readonly code: 'CM_PROVIDER_RESPONSE';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /**
   * Each problem found in the reply, with its path and value, when the reply was decoded
   * (`fromOpenAIChatCompletion`, `fromAnthropicReply`); empty otherwise.
   */
  readonly problems: readonly string[];
  /** How many problems were found (more than `problems` lists when the list was cut short). */
  readonly problemCount: number;
  constructor(
    api: string,
    what: string,
    options?: {
      cause?: unknown;
      problems?: readonly string[];
      problemCount?: number;
    },
  ) {
    super(formatMessage(api, what), options?.cause === undefined ? {} : { cause: options.cause });
    this.problems = Object.freeze([...(options?.problems ?? [])]);
    this.problemCount = options?.problemCount ?? this.problems.length;
    brandError(this, 'CM_PROVIDER_RESPONSE', 'ProviderResponseError', what);
  }
}
