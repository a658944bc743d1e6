/**
 * The Zustand adapter subpath (`conversation-memory/zustand`).
 *
 * @packageDocumentation
 */
export {};
