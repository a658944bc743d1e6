import { describe, expect, it } from 'vitest';
import { knowledgeBlocks } from '../../../src/knowledge/retrieval/knowledgeBlocks';
import type { KnowledgeState } from '../../../src/model/knowledge';
import { attribute, entity, entry, relation, retired, stateOf } from './facts';
import outputs from './referenceOutputs.json';

/**
 * referenceOutputs.json holds cases and what the reference (selectools at commit 77fa691:
 * `EntityMemory.build_context`, `KnowledgeGraphMemory.build_context(query)` over its
 * `InMemoryTripleStore`, `KnowledgeMemory.build_context` over its `FileKnowledgeStore`) printed
 * for them, produced once by running those Python classes with the cases' facts. Nothing is
 * sanitized there, so these runs pass `sanitize: false`.
 */
interface Case {
  readonly name: string;
  readonly entities: readonly {
    name: string;
    type: string;
    attributes: Record<string, string>;
    lastMentioned: number;
  }[];
  readonly triples: readonly { s: string; r: string; o: string; c: number }[];
  readonly queries: readonly string[];
  readonly entries: readonly { content: string; category: string; importance: number }[];
  readonly maxContextChars?: number;
}

const stateOfCase = (c: Case): KnowledgeState =>
  stateOf({
    entities: c.entities.map((e, i) =>
      entity(`e${i}`, e.name, e.type, {
        lastMentioned: e.lastMentioned,
        attributes: Object.entries(e.attributes).map(([k, v], j) => attribute(`e${i}a${j}`, k, v)),
      }),
    ),
    relations: c.triples.map((t, i) => relation(`r${i}`, t.s, t.r, t.o, { confidence: t.c })),
    entries: c.entries.map((e, i) =>
      entry(`k${i}`, e.content, { category: e.category, importance: e.importance }),
    ),
  });

const blockText = (
  state: KnowledgeState,
  module: 'graph' | 'entities' | 'knowledge',
  c: Case,
  query?: string,
): string => {
  const result = knowledgeBlocks(state, {
    now: 0,
    sanitize: false,
    ...(query === undefined ? {} : { query }),
    [module]:
      module === 'knowledge' && c.maxContextChars !== undefined
        ? { maxContextChars: c.maxContextChars }
        : {},
  });
  expect(result.blocks.length).toBeLessThanOrEqual(1);
  return result.text;
};

describe('knowledgeBlocks prints what the reference prints', () => {
  for (const { case: c, reference } of outputs as unknown as {
    case: Case;
    reference: {
      entities: string;
      graph: string;
      knowledge: string;
      graphQueries: Record<string, string>;
    };
  }[]) {
    it(`${c.name}: entities, graph, knowledge, and the graph for each query`, () => {
      const state = stateOfCase(c);
      expect(blockText(state, 'entities', c)).toBe(reference.entities);
      expect(blockText(state, 'graph', c)).toBe(reference.graph);
      expect(blockText(state, 'knowledge', c)).toBe(reference.knowledge);
      for (const query of c.queries) {
        expect(blockText(state, 'graph', c, query), query).toBe(reference.graphQueries[query]);
      }
    });
  }
});

describe('knowledgeBlocks shows only facts in force', () => {
  const state = stateOf({
    entities: [
      entity('e1', 'Alice', 'person', {
        attributes: [
          attribute('a1', 'city', 'Paris', retired),
          attribute('a2', 'role', 'engineer'),
          attribute('a3', 'city', 'Rome'),
        ],
      }),
      entity('e2', 'Ghost', 'person', retired),
    ],
    relations: [
      relation('r1', 'Alice', 'works_at', 'Acme', retired),
      relation('r2', 'Alice', 'works_at', 'Globex'),
    ],
    entries: [
      entry('k1', 'old news', retired),
      entry('k2', 'expires after a day', { ttlDays: 1, recordedAt: 1000 }),
      entry('k3', 'kept'),
    ],
  });

  it('leaves out retired entities, attributes, relations and entries', () => {
    const { text, blocks } = knowledgeBlocks(state, {
      now: 0,
      graph: {},
      entities: {},
      knowledge: {},
    });
    expect(text).toBe(
      '[Known Relationships]\n- Alice --[works_at]--> Globex\n\n' +
        // the city keeps the place where it was first set, as the reference's dict does
        '[Known Entities]\n- Alice [person] (city: Rome, role: engineer)\n\n' +
        '[General Knowledge]\n-  expires after a day\n-  kept',
    );
    expect(blocks.map((b) => b.factIds)).toEqual([['r2'], ['e1', 'a3', 'a2'], ['k2', 'k3']]);
  });

  it('leaves out an entry once now > recordedAt + ttlDays days, and keeps it at that instant', () => {
    const at = (now: number) => knowledgeBlocks(state, { now, knowledge: {} }).blocks[0]?.factIds;
    expect(at(1000 + 86_400_000)).toEqual(['k2', 'k3']);
    expect(at(1000 + 86_400_000 + 1)).toEqual(['k3']);
  });

  it('gives no block for a module left out of the options, or with nothing in force', () => {
    expect(knowledgeBlocks(state, { now: 0 })).toEqual({ text: '', blocks: [] });
    const none = stateOf({ relations: [relation('r1', 'a', 'b', 'c', retired)] });
    expect(knowledgeBlocks(none, { now: 0, graph: {}, entities: {}, knowledge: {} })).toEqual({
      text: '',
      blocks: [],
    });
  });
});

describe('knowledgeBlocks joins the blocks', () => {
  it('in the order graph, entities, knowledge, with a blank line, whatever the order of the options', () => {
    const state = stateOf({
      entities: [entity('e1', 'Alice', 'person')],
      relations: [relation('r1', 'Alice', 'knows', 'Bob')],
      entries: [entry('k1', 'Likes tea', { importance: 0.9 })],
    });
    const result = knowledgeBlocks(state, { knowledge: {}, entities: {}, graph: {}, now: 0 });
    expect(result.blocks.map((b) => [b.module, b.header])).toEqual([
      ['graph', '[Known Relationships]'],
      ['entities', '[Known Entities]'],
      ['knowledge', '[Important Knowledge]'],
    ]);
    expect(result.text).toBe(
      '[Known Relationships]\n- Alice --[knows]--> Bob\n\n[Known Entities]\n- Alice [person]\n\n[Important Knowledge]\n-  Likes tea',
    );
  });

  it('counts tokens of what each block adds, the blank line before it included', () => {
    const state = stateOf({
      entities: [entity('e1', 'Alice', 'person')],
      relations: [relation('r1', 'Alice', 'knows', 'Bob')],
    });
    const chars = (text: string) => text.length;
    const { blocks } = knowledgeBlocks(state, {
      now: 0,
      graph: {},
      entities: {},
      countTokens: chars,
    });
    expect(blocks.map((b) => b.tokens)).toEqual([
      '[Known Relationships]\n- Alice --[knows]--> Bob'.length,
      '\n\n[Known Entities]\n- Alice [person]'.length,
    ]);
  });

  it('keeps the limits of the reference without a budget: the newest 15 triples, or maxContextTriples', () => {
    const relations = Array.from({ length: 20 }, (_, i) =>
      relation(`r${i}`, `S${i}`, 'rel', `O${i}`),
    );
    const ids = (options: { maxContextTriples?: number }) =>
      knowledgeBlocks(stateOf({ relations }), { now: 0, graph: options }).blocks[0]?.factIds;
    expect(ids({})).toEqual(relations.slice(5).map((r) => r.id));
    expect(ids({ maxContextTriples: 3 })).toEqual(['r17', 'r18', 'r19']);
  });

  it('reports as shown only the entries whose whole line survives the character cut', () => {
    const state = stateOf({
      entries: [
        entry('k1', 'a'.repeat(30), { importance: 0.9 }),
        entry('k2', 'b'.repeat(30), { importance: 0.9 }),
      ],
    });
    const [block] = knowledgeBlocks(state, { now: 0, knowledge: { maxContextChars: 80 } }).blocks;
    expect(block?.text).toBe(
      `[Important Knowledge]\n-  ${'a'.repeat(30)}\n-  ${'b'.repeat(5)}\n... (truncated)`,
    );
    expect(block?.text.length).toBe(80);
    expect(block?.factIds).toEqual(['k1']);
    expect(block?.header).toBe('[Important Knowledge]');
  });
});
