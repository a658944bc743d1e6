// Issue #18: the agent's knowledge modules, offline (LocalProvider answers the reference's
// extraction prompts with its deterministic extractor).
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  InMemoryEventStore,
  type AgentErrorContext,
  type CompletionRequest,
  type CompletionResult,
  type ModelCallInfo,
  type Provider,
} from '../../src/entries/index';
import { LocalProvider } from '../../src/entries/testing';
import {
  createEntityMemory,
  createKnowledgeGraph,
  createKnowledgeMemory,
  InMemoryKnowledgeStore,
  TRIPLE_EXTRACTION_SYSTEM_PROMPT,
} from '../../src/entries/knowledge';
import { countMessageTokens } from '../../src/tokens/registry';
import { systemMessage } from '../../src/messages/constructors';

const UNRELATED = [
  'What is the capital of France?',
  'Tell me a joke.',
  'How far is the moon?',
  'Name a prime number.',
  'What day is it?',
];

/** The system message with the knowledge blocks that a main call carried, if any. */
const knowledgeOf = (call: ModelCallInfo): string | undefined =>
  call.messages.find(
    (m) => m.role === 'system' && /^\[Known|\[Important|\[General/.test(m.content ?? ''),
  )?.content ?? undefined;

const recorder = () => {
  const calls: ModelCallInfo[] = [];
  return {
    calls,
    observer: { onModelCall: (_: string, call: ModelCallInfo) => void calls.push(call) },
  };
};

describe('knowledge graph in the agent', () => {
  it('reads each message once: a fact stated once, then five unrelated turns, is stored once with one mention', async () => {
    const knowledgeGraph = createKnowledgeGraph();
    const agent = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory({ maxMessages: 50 }),
      knowledgeGraph,
    });
    await agent.run('I work at Acme.');
    for (const text of UNRELATED) await agent.run(text);
    const live = knowledgeGraph.state.relations.filter((r) => r.retiredAt === null);
    expect(live.map((r) => `${r.subject} ${r.relation} ${r.object}`)).toEqual([
      'User works_at Acme',
    ]);
    expect(live[0]?.mentions).toBe(1);
    // Every message was read: the cursor is past the last one.
    expect(knowledgeGraph.state.cursors.relations).toBe(agent.memory?.state.nextPosition);
  });

  it('a contradiction retires the old fact (kept, with validTo and retiredAt) and the model sees only the new one', async () => {
    const knowledgeGraph = createKnowledgeGraph();
    const { calls, observer } = recorder();
    const agent = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory(),
      knowledgeGraph,
      observers: [observer],
    });
    await agent.run('I work at Acme.');
    await agent.run('I work at Globex now.');
    await agent.run('Where do I work?');
    const [old, current] = knowledgeGraph.state.relations;
    expect(old).toMatchObject({
      object: 'Acme',
      retiredBy: 'superseded',
      supersededBy: current?.id,
    });
    expect(old?.validTo).not.toBeNull();
    expect(current).toMatchObject({ object: 'Globex', retiredAt: null });
    const lastMain = calls.filter((c) => c.kind === 'main').at(-1) as ModelCallInfo;
    expect(knowledgeOf(lastMain)).toContain('- User --[works_at]--> Globex');
    expect(knowledgeOf(lastMain)).not.toContain('Acme');
    // The blocks go first, before the history, and are never stored in memory.
    expect(lastMain.messages[0]?.content).toContain('[Known Relationships]');
    expect(agent.memory?.state.messages.some((m) => (m.content ?? '').includes('[Known'))).toBe(
      false,
    );
  });

  it("honours the module's model and the reference's prompt; the extraction call is kind 'extraction'", async () => {
    const { calls, observer } = recorder();
    const agent = createAgent({
      provider: new LocalProvider(),
      knowledgeGraph: createKnowledgeGraph({ model: 'extractor-mini' }),
      observers: [observer],
    });
    await agent.run('My name is Ada.');
    const extraction = calls.find((c) => c.kind === 'extraction');
    expect(extraction).toMatchObject({
      model: 'extractor-mini',
      systemPrompt: TRIPLE_EXTRACTION_SYSTEM_PROMPT,
      maxTokens: 500,
    });
    expect(extraction?.messages[0]?.content).toContain('USER: My name is Ada.');
  });

  it('a failed extraction commits nothing, keeps the cursor, is reported, and the next run reads those messages again', async () => {
    const local = new LocalProvider();
    let broken = true;
    const flaky: Provider = {
      name: 'flaky',
      defaultModel: 'local',
      complete: async (request: CompletionRequest): Promise<CompletionResult> => {
        if (request.systemPrompt === TRIPLE_EXTRACTION_SYSTEM_PROMPT && broken) {
          return { message: { role: 'assistant', content: 'Sorry, I cannot do JSON today.' } };
        }
        return local.complete(request);
      },
    };
    const errors: { error: unknown; context: AgentErrorContext }[] = [];
    const observed: unknown[] = [];
    const knowledgeGraph = createKnowledgeGraph();
    const memory = new ConversationMemory();
    const agent = createAgent({
      provider: flaky,
      memory,
      knowledgeGraph,
      config: { onError: (error, context) => errors.push({ error, context }) },
      observers: [{ onError: (_runId, error) => void observed.push(error) }],
    });
    const result = await agent.run('I live in Lyon.');
    expect(result.stopReason).toBe('final');
    expect(memory.state.knowledge).toBeUndefined();
    expect(knowledgeGraph.state.relations).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.context).toEqual({ runId: result.runId, source: 'knowledgeGraph' });
    expect((errors[0]?.error as { code: string }).code).toBe('CM_KNOWLEDGE_EXTRACTION');
    expect(observed).toEqual([errors[0]?.error]);
    broken = false;
    await agent.run('Thanks.');
    expect(knowledgeGraph.state.relations.map((r) => r.object)).toEqual(['Lyon']);
    expect(knowledgeGraph.state.relations[0]?.sources).toEqual([{ from: 0, to: 3 }]);
  });

  it('a provider that rejects the extraction call never rejects the run', async () => {
    const local = new LocalProvider();
    const failing: Provider = {
      name: 'failing',
      defaultModel: 'local',
      complete: async (request) => {
        if (request.systemPrompt === TRIPLE_EXTRACTION_SYSTEM_PROMPT) throw new Error('503');
        return local.complete(request);
      },
    };
    const sources: string[] = [];
    const agent = createAgent({
      provider: failing,
      knowledgeGraph: createKnowledgeGraph(),
      config: { onError: (_error, context) => void sources.push(context.source) },
    });
    await expect(agent.run('I live in Lyon.')).resolves.toMatchObject({ stopReason: 'final' });
    expect(sources).toEqual(['knowledgeGraph']);
  });
});

describe('entity memory in the agent', () => {
  it('extracts entities once, merges a restatement, and shows [Known Entities] within its budget', async () => {
    const entityMemory = createEntityMemory({ budget: 40 });
    const { calls, observer } = recorder();
    const counts: number[] = [];
    const agent = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory({ tokenizer: 'heuristic' }),
      entityMemory,
      observers: [observer, { onEntityExtraction: (_r, n) => void counts.push(n) }],
    });
    await agent.run('My name is Alice. I work at Acme Corp in Paris.');
    await agent.run('Alice here again, still at Acme Corp.');
    const names = entityMemory.state.entities
      .filter((e) => e.retiredAt === null)
      .map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('Acme Corp');
    expect(counts.length).toBe(2);
    const block = knowledgeOf(calls.filter((c) => c.kind === 'main').at(-1) as ModelCallInfo);
    expect(block).toContain('[Known Entities]');
    expect(
      countMessageTokens('heuristic', systemMessage(block as string), 'test'),
    ).toBeLessThanOrEqual(40);
  });
});

describe('knowledge memory in the agent', () => {
  it('offers remember, recall and forget with the reference argument names and string booleans', async () => {
    const knowledgeMemory = createKnowledgeMemory();
    const agent = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory(),
      knowledgeMemory,
    });
    await agent.run(
      '/call remember {"content": "Prefers dark mode", "category": "preference", "persistent": "TRUE"}',
    );
    const [entry] = knowledgeMemory.state.entries;
    expect(entry).toMatchObject({
      content: 'Prefers dark mode',
      category: 'preference',
      persistent: true,
    });
    expect(entry?.id).toMatch(/^[0-9a-f]{32}$/);
    await agent.run('/call recall {"query": "dark", "limit": "3"}');
    const toolAnswer = agent.memory?.state.messages
      .filter((m) => m.role === 'tool')
      .at(-1)?.content;
    expect(toolAnswer).toBe(
      `Found 1 memory:\n1. [preference] Prefers dark mode (id: ${entry?.id})`,
    );
    await agent.run(`/call forget {"id": "${entry?.id}"}`);
    expect(knowledgeMemory.state.entries[0]).toMatchObject({ retiredBy: 'forgotten' });
    await agent.run('/call recall {"query": "dark"}');
    expect(agent.memory?.state.messages.filter((m) => m.role === 'tool').at(-1)?.content).toBe(
      "No memories found matching 'dark'.",
    );
  });

  it('shares long-term knowledge across agents and sessions through a store (offline)', async () => {
    const store = new InMemoryKnowledgeStore();
    const first = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory(),
      knowledgeMemory: createKnowledgeMemory({ store, id: 'user-42' }),
    });
    await first.run('/call remember {"content": "Allergic to peanuts", "persistent": "yes"}');
    const { calls, observer } = recorder();
    const second = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory(),
      knowledgeMemory: createKnowledgeMemory({ store, id: 'user-42' }),
      observers: [observer],
    });
    await second.run('What should I avoid eating?');
    expect(knowledgeOf(calls.find((c) => c.kind === 'main') as ModelCallInfo)).toContain(
      'Allergic to peanuts',
    );
    expect((await store.load('user-42'))?.revision).toBe(1);
  });

  it('refuses a tool named like a knowledge tool, and a module made by the wrong factory', () => {
    const tool = {
      name: 'recall',
      description: '',
      parameters: { type: 'object' },
      execute: () => '',
    };
    expect(() =>
      createAgent({
        provider: new LocalProvider(),
        tools: [tool],
        knowledgeMemory: createKnowledgeMemory(),
      }),
    ).toThrow(/clashes with knowledgeMemory's own recall tool/);
    expect(() =>
      createAgent({ provider: new LocalProvider(), knowledgeGraph: createEntityMemory() as never }),
    ).toThrow(/knowledgeGraph must be made by createKnowledgeGraph\(\)/);
  });
});

describe('knowledge persists with the conversation', () => {
  it('an event-sourced agent appends its knowledge actions: the stream replays to the live facts', async () => {
    const store = new InMemoryEventStore();
    const knowledgeGraph = createKnowledgeGraph();
    const agent = createAgent({
      provider: new LocalProvider(),
      eventStore: { store, streamId: 'thread-1', config: { tokenizer: 'heuristic' } },
      knowledgeGraph,
    });
    await agent.run('I live in Lyon.');
    await agent.run('I moved to Nice.');
    const loaded = await store.load('thread-1');
    expect(loaded?.state.knowledge).toEqual(agent.memory?.state.knowledge);
    expect(loaded?.state.knowledge?.relations.map((r) => [r.object, r.retiredBy])).toEqual([
      ['Lyon', 'superseded'],
      ['Nice', null],
    ]);
    // A second agent on the same stream starts from those facts.
    const again = createKnowledgeGraph();
    await createAgent({
      provider: new LocalProvider(),
      eventStore: { store, streamId: 'thread-1' },
      knowledgeGraph: again,
    }).run('Hi');
    expect(again.state.relations.map((r) => r.object)).toEqual(['Lyon', 'Nice']);
  });
});
