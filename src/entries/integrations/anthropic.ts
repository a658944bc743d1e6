/**
 * The anthropic adapter subpath (`conversation-memory/anthropic`): a `Provider` backed by the
 * Anthropic Messages API through `@anthropic-ai/sdk` (an optional peer dependency).
 *
 * @packageDocumentation
 * @module conversation-memory/anthropic
 */
export {
  anthropicProvider,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  type AnthropicProviderOptions,
} from '../../adapters/anthropic/anthropicProvider';
