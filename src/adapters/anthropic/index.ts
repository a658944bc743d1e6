/**
 * The anthropic adapter subpath (`conversation-memory/anthropic`): a `Provider` backed by the
 * Anthropic Messages API through `@anthropic-ai/sdk` (an optional peer dependency).
 *
 * @packageDocumentation
 */
export {
  anthropicProvider,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  type AnthropicProviderOptions,
} from './anthropicProvider';
