/**
 * The openai adapter subpath (`conversation-memory/openai`).
 *
 * @packageDocumentation
 */
export {};
