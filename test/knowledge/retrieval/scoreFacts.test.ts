import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError } from '../../../src/errors/errorBrand';
import { BM25_B, BM25_K1 } from '../../../src/knowledge/retrieval/bm25';
import { knowledgeBlocks } from '../../../src/knowledge/retrieval/knowledgeBlocks';
import { scoreFacts } from '../../../src/knowledge/retrieval/scoreFacts';
import { entity, entry, relation, stateOf } from './facts';

const LN2 = Math.log(2);

describe('scoreFacts: BM25', () => {
  it('uses k1 = 1.2 and b = 0.75', () => {
    expect([BM25_K1, BM25_B]).toEqual([1.2, 0.75]);
    // N = 2, the term in one text: idf = ln(1 + 1.5 / 1.5) = ln 2; equal lengths: norm 1
    const [twice] = scoreFacts('acme', [{ text: 'acme acme' }, { text: 'bob carol' }]);
    expect(twice).toBeCloseTo((LN2 * 2 * 2.2) / (2 + 1.2), 12);
    // lengths 1 and 3 (average 2): norm = 0.25 + 0.75 / 2
    const [short] = scoreFacts('acme', [{ text: 'acme' }, { text: 'bob carol dave' }]);
    expect(short).toBeCloseTo((LN2 * 2.2) / (1 + 1.2 * 0.625), 12);
  });

  it('scores 0 a text that shares no word, ignores stop words, one-letter words and repeats', () => {
    const docs = [{ text: 'Alice works_at Acme' }, { text: 'Bob knows Carol' }];
    expect(scoreFacts('the of is a I', docs)).toEqual([0, 0]);
    expect(scoreFacts('acme acme acme', docs)).toEqual(scoreFacts('acme', docs));
    expect(scoreFacts('ACME?', docs)[0]).toBeGreaterThan(0);
    expect(scoreFacts('ACME?', docs)[1]).toBe(0);
    // works_at gives the word "works"
    expect(scoreFacts('who works there', docs)[0]).toBeGreaterThan(0);
  });

  it('ranks a rare word above a common one', () => {
    const docs = [
      { text: 'alice likes tea' },
      { text: 'bob likes coffee' },
      { text: 'carol likes tea' },
    ];
    const [alice, bob] = scoreFacts('likes coffee', docs);
    expect(bob).toBeGreaterThan(alice as number);
  });

  it('gives one finite score ≥ 0 per text, and 0 exactly when no search word is shared', () => {
    const word = fc.constantFrom(
      'alice',
      'acme',
      'rome',
      'tea',
      'the',
      'works',
      'a',
      'Zoë',
      '東京',
    );
    const text = fc.array(word, { maxLength: 6 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 8 }), (query, texts) => {
        const scores = scoreFacts(
          query,
          texts.map((t) => ({ text: t })),
        );
        expect(scores).toHaveLength(texts.length);
        const stop = new Set(['the', 'a']);
        const words = (t: string) =>
          new Set(
            t
              .toLowerCase()
              .split(' ')
              .filter((w) => w !== '' && !stop.has(w)),
          );
        texts.forEach((t, i) => {
          const shared = [...words(query)].some((w) => words(t).has(w));
          expect(Number.isFinite(scores[i])).toBe(true);
          expect((scores[i] as number) > 0).toBe(shared);
        });
      }),
    );
  });
});

describe('scoreFacts: the entity boost', () => {
  it('lifts a fact naming an entity of the query above every other', () => {
    const scores = scoreFacts('what about Alice and tea', [
      { text: 'tea tea tea', names: [] },
      { text: 'xyz', names: ['Alice'] },
    ]);
    expect(scores[1]).toBeGreaterThan(scores[0] as number);
  });

  it('needs the words of the name side by side, in any case, and an alias counts', () => {
    const docs = [{ text: 'city', names: ['New York', 'NYC'] }];
    const [named, other] = scoreFacts('new york!', [...docs, { text: 'city city' }]);
    expect(named).toBeGreaterThan(other as number);
    expect(scoreFacts('a new city in york', [...docs, { text: 'city city' }])[0]).toBeLessThan(
      scoreFacts('a new city in york', [...docs, { text: 'city city' }])[1] as number,
    );
    expect(scoreFacts('nyc', [{ text: 'a', names: ['NYC'] }, { text: 'b' }])[0]).toBeGreaterThan(0);
  });
});

describe('scoreFacts: a pluggable scorer', () => {
  it('replaces BM25 and still gets the boost', () => {
    const calls: [string, readonly string[]][] = [];
    const embedder = (query: string, texts: readonly string[]) => {
      calls.push([query, texts]);
      return texts.map((t) => (t.includes('coffee') ? 0.9 : 0.1));
    };
    const docs = [{ text: 'tea' }, { text: 'coffee' }, { text: 'x', names: ['Bob'] }];
    const scores = scoreFacts('Bob drinks', docs, { score: embedder });
    // lifted by (highest − lowest + 1)
    [0.1, 0.9, 0.1 + 0.8 + 1].forEach((expected, i) => expect(scores[i]).toBeCloseTo(expected, 12));
    expect(calls).toEqual([['Bob drinks', ['tea', 'coffee', 'x']]]);
  });

  it('throws a MemoryArgumentError for a result that is not one finite number per text', () => {
    const docs = [{ text: 'a' }, { text: 'b' }];
    const bad = [() => [1], () => [1, Number.NaN], () => 'no', () => [1, '2']] as never[];
    for (const score of bad) {
      let caught: unknown;
      try {
        scoreFacts('q', docs, { score });
      } catch (error) {
        caught = error;
      }
      expect(isConversationMemoryError(caught) && caught.code).toBe('CM_ARGUMENT');
      expect((caught as Error).message).toMatch(
        /^\[conversation-memory\] scoreFacts: score must return/,
      );
    }
  });
});

describe('knowledgeBlocks scopes the blocks to the query', () => {
  const state = stateOf({
    entities: [
      entity('e1', 'Alice', 'person', { lastMentioned: 1, aliases: ['Ally'] }),
      entity('e2', 'Acme', 'organization', { lastMentioned: 3 }),
      entity('e3', 'Bob', 'person', { lastMentioned: 2 }),
    ],
    relations: [
      relation('r1', 'Alice', 'works_at', 'Acme', { subjectId: 'e1', objectId: 'e2' }),
      relation('r2', 'Bob', 'knows', 'Carol', { subjectId: 'e3' }),
      relation('r3', 'Carol', 'lives_in', 'Rome'),
    ],
    entries: [
      entry('k1', 'Likes hiking in the mountains', { importance: 0.9 }),
      entry('k2', 'Ally is vegetarian', { importance: 0.5 }),
      entry('k3', 'Prefers email', { importance: 0.6 }),
    ],
  });

  it('puts the best-scored facts in first when the budget is short, then shows the reference order', () => {
    const chars = (text: string) => text.length;
    const budget = '[Known Entities]\n- Acme [organization]\n- Bob [person]'.length;
    const scoped = knowledgeBlocks(state, {
      now: 0,
      query: 'is bob at acme?',
      countTokens: chars,
      entities: { budget },
    });
    expect(scoped.text).toBe('[Known Entities]\n- Acme [organization]\n- Bob [person]');
    const alice = knowledgeBlocks(state, {
      now: 0,
      query: 'and ally?',
      countTokens: chars,
      entities: { budget },
    });
    // Alice first (by her alias), then Bob fills the rest, where Acme no longer fits
    expect(alice.blocks[0]?.factIds).toEqual(['e3', 'e1']);
    // without a query, the most recently mentioned go first
    const none = knowledgeBlocks(state, { now: 0, countTokens: chars, entities: { budget } });
    expect(none.blocks[0]?.factIds).toEqual(['e2', 'e3']);
  });

  it('gives an entry naming an entity of the query (by an alias here) the first place', () => {
    const budget = '[General Knowledge]\n-  Ally is vegetarian'.length;
    const chars = (text: string) => text.length;
    const { blocks } = knowledgeBlocks(state, {
      now: 0,
      query: 'what does Ally eat',
      countTokens: chars,
      knowledge: { budget },
    });
    expect(blocks[0]?.factIds).toEqual(['k2']);
  });

  it('keeps only the relations that match, through the entities they resolve to as well', () => {
    const graph = (query: string) =>
      knowledgeBlocks(state, { now: 0, query, graph: {} }).blocks[0]?.factIds ?? [];
    expect(graph('where does Ally work')).toEqual(['r1']);
    expect(graph('who knows bob')).toEqual(['r2']);
    expect(graph('tell me about carol')).toEqual(['r2', 'r3']);
  });

  it('falls back to the reference keyword match when no relation scores, and gives no block when that fails too', () => {
    const graph = (query: string) =>
      knowledgeBlocks(state, { now: 0, query, graph: {} }).blocks[0]?.factIds ?? [];
    // "rom" is no word of any fact, but the reference finds it inside "Rome"
    expect(graph('rom')).toEqual(['r3']);
    expect(graph('quantum physics')).toEqual([]);
    // an empty query is no query: the newest triples
    expect(graph('')).toEqual(['r1', 'r2', 'r3']);
  });

  it('keeps the best maxContextTriples matches (ties: the newest), where the reference keeps the first', () => {
    const relations = Array.from({ length: 20 }, (_, i) =>
      relation(`r${i}`, `S${i}`, 'rel', `O${i}`),
    );
    const ids = knowledgeBlocks(stateOf({ relations }), { now: 0, query: 'rel', graph: {} })
      .blocks[0]?.factIds;
    expect(ids).toEqual(relations.slice(5).map((r) => r.id));
  });

  it('calls an application scorer in place of BM25', () => {
    const score = (_query: string, texts: readonly string[]) =>
      texts.map((t) => (t.includes('Rome') ? 1 : 0));
    const { blocks } = knowledgeBlocks(state, { now: 0, query: 'anything', graph: {}, score });
    expect(blocks[0]?.factIds).toEqual(['r3']);
  });
});
