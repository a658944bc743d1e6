/**
 * `conversation-memory/sessions/node`: the former name of `conversation-memory/node`, kept as an
 * alias until 1.0. It re-exports that entry, so both names give the same classes.
 *
 * @deprecated Import from `conversation-memory/node`.
 * @example
 * ```ts
 * import { JsonFileSessionStore } from 'conversation-memory/node';
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/sessions/node
 */
export * from 'conversation-memory/node';
