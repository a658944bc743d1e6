/**
 * The anthropic adapter subpath (`conversation-memory/anthropic`).
 *
 * @packageDocumentation
 */
export {};
