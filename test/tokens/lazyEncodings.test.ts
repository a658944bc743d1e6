import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { addMessage, createMemory, userMessage } from 'conversation-memory';

/**
 * The encodings are large (o200k is 2.4 MB of JavaScript), so the library loads none of them
 * until a memory uses one. In Node they load synchronously through require, so Node's module
 * cache shows exactly which tables are in memory. This file runs in its own process.
 */
const loadedTables = (): string[] =>
  Object.keys(createRequire(import.meta.url).cache)
    .filter((path) => path.includes('bpeRanks'))
    .map((path) => path.replace(/.*bpeRanks[\\/]/, ''));

describe('encodings load only when used', () => {
  it('loads nothing for a heuristic memory, then exactly the table that is used', () => {
    expect(loadedTables()).toEqual([]);
    addMessage(createMemory({ tokenizer: 'heuristic' }), userMessage('hello'));
    expect(loadedTables()).toEqual([]);
    addMessage(createMemory({ tokenizer: 'cl100k_base' }), userMessage('hello'));
    expect(loadedTables()).toEqual(['cl100k_base.js']);
    addMessage(createMemory(), userMessage('hello'));
    expect(loadedTables().sort()).toEqual(['cl100k_base.js', 'o200k_base.js']);
  });
});
