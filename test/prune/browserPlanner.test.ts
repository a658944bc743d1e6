import { describe, expect, it, vi } from 'vitest';

// The browser build swaps the planner loader for its `.browser.ts` twin (tsup.config.ts): this
// file runs the library with that twin, as a browser page would.
vi.mock('../../src/internal/redundancy/plannerLoader', async () => ({
  ...(await import('../../src/internal/redundancy/plannerLoader.browser')),
}));

// The sources, not the package name: under TEST_DIST the name is the built Node library, which
// carries the planner (the browser build is checked by test/dist/bundleSize.mjs).
const { addMessage, createMemory, fromDict, userMessage } = await import('../../src/entries/index');
const { enableRedundantPruning } = await import('../../src/entries/pruning');

describe('the browser build without the redundancy planner', () => {
  it("refuses prune: 'redundant' with a pointer to enableRedundantPruning, then works once it is called", () => {
    expect(() => createMemory({ prune: 'redundant' })).toThrow(
      /prune 'redundant' needs enableRedundantPruning\(\) \(conversation-memory\/pruning\) in browsers/,
    );
    const file = fromDict({
      max_messages: 2,
      messages: [],
      conversation_memory: { prune: 'redundant' },
    });
    expect(file._tag).toBe('Left');
    // The default policy needs no planner.
    expect(createMemory({ tokenizer: 'heuristic' }).config.prune).toBe('oldest');

    enableRedundantPruning();
    let state = createMemory({ maxMessages: 2, tokenizer: 'heuristic', prune: 'redundant' });
    state = addMessage(state, userMessage('same text here')).state;
    state = addMessage(state, userMessage('same text here')).state;
    const t = addMessage(state, userMessage('other'));
    expect(t.effects[0]).toMatchObject({ rules: ['redundant'], duplicateOf: [1] });
  });
});
