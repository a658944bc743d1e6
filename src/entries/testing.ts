/**
 * `conversation-memory/testing`: `LocalProvider`, a deterministic offline provider for demos,
 * tests and examples (no network, no key), and its constants.
 *
 * @example
 * ```ts
 * import { createAgent } from 'conversation-memory';
 * import { LocalProvider } from 'conversation-memory/testing';
 * const agent = createAgent({ provider: new LocalProvider() });
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/testing
 */
export {
  LocalProvider,
  LOCAL_CALL_DIRECTIVE,
  LOCAL_DEFAULT_MAX_TOKENS,
  LOCAL_CHARS_PER_TOKEN,
} from '../agent/LocalProvider';
export type { LocalProviderOptions } from '../agent/LocalProvider';
