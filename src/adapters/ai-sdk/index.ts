/**
 * The ai-sdk adapter subpath (`conversation-memory/ai-sdk`).
 *
 * @packageDocumentation
 */
export {};
