/**
 * The Redux Toolkit adapter subpath (`conversation-memory/redux`).
 *
 * @packageDocumentation
 */
export {};
