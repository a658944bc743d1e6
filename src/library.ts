/**
 * The implementation behind every browser-safe entry, as one module: the build keeps it one file
 * (`dist/library.js`, not importable by users: the package's `exports` map does not list it), and
 * each browser-safe entry (the root, `/store-kit`, `/testing`, `/sse`, `/tokens`, `/constants`,
 * `/knowledge`, `/pruning`) is built as a thin list over it (tsup.config.ts), so all entries share
 * one copy of each module: one tokenizer registry, one class per error.
 *
 * It lists no public name of its own: each is listed once, in its entry file in `src/entries/`,
 * and this module re-exports every entry. The names below are the only ones listed here: internal
 * parts that the adapters' entries (built separately, importing the library by this module) need
 * and no browser-safe entry makes public.
 *
 * @internal
 */
export * from './entries/index';
export * from './entries/storeKit';
export * from './entries/testing';
export * from './entries/sse';
export * from './entries/tokens';
export * from './entries/constants';
export * from './entries/knowledge';
export * from './entries/pruning';

// For the adapters only (they import them from here, so they share this module graph).
export { decodeModelMessages } from './codec/decodeModelMessages';
export { readMessages } from './internal/readMessages';
export { EmbeddingNotPreparedError, EmbeddingRequestError } from './errors/embeddingErrors';
export { newFact, retiredFact } from './knowledge/facts';
export { searchWords } from './knowledge/retrieval/searchWords';
export { bm25Idf, bm25Part } from './knowledge/retrieval/bm25';
