/**
 * The MCP graph's searches against plain definitions (issue #33): `recall`'s indexed BM25 gives
 * the scores `bm25Scores` gives over the same texts; `search_nodes`' one-string scan finds what
 * the reference's field-by-field test finds, never a match across two fields.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25Scores } from '../../src/knowledge/retrieval/bm25';
import { createEntities } from '../../src/mcp/graph/graphChanges';
import { recallObservations } from '../../src/mcp/graph/graphExtras';
import { searchNodes } from '../../src/mcp/graph/graphReads';
import { createKnowledge } from 'conversation-memory/knowledge';

const WORDS = ['tea', 'teas', 'Lisbon', 'code', 'coding', 'the', 'Σ', 'a\u0000b', 'b', 'Ada'];
const textArb = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' '));
const entitiesArb = fc.array(
  fc.record({
    name: textArb,
    entityType: textArb,
    observations: fc.array(textArb, { maxLength: 4 }),
  }),
  { maxLength: 8 },
);

describe('MCP graph searches', () => {
  it('recall scores what plain BM25 scores over "name observation"', () => {
    fc.assert(
      fc.property(entitiesArb, textArb, (entities, query) => {
        const state = createEntities(createKnowledge(), entities, 0).state;
        const docs = state.entities.flatMap((e) =>
          e.attributes.map((a) => ({ name: e.name, text: `${e.name} ${a.value}`, value: a.value })),
        );
        const scores = bm25Scores(
          query,
          docs.map((d) => d.text),
        );
        const expected = docs
          .map((d, i) => ({ ...d, score: scores[i] as number, i }))
          .filter((d) => d.score > 0)
          .sort((a, b) => b.score - a.score || a.i - b.i)
          .slice(0, 5);
        const got = recallObservations(state, query, 5);
        expect(got.map((r) => r.score)).toEqual(
          expected.map(
            (d) => expect.closeTo(Math.round(d.score * 1e6) / 1e6, 6) as unknown as number,
          ),
        );
      }),
    );
  });

  it("search_nodes finds what the reference's field-by-field test finds", () => {
    const queryArb = fc.oneof(
      textArb,
      fc.constantFrom('\u0000', 'a\u0000', 'tea\u0000ada', 'S', 'σ', 'ς'),
    );
    fc.assert(
      fc.property(entitiesArb, queryArb, (entities, query) => {
        const state = createEntities(createKnowledge(), entities, 0).state;
        const wanted = query.toLowerCase();
        const expected = state.entities
          .filter(
            (e) =>
              e.name.toLowerCase().includes(wanted) ||
              e.type.toLowerCase().includes(wanted) ||
              e.attributes.some((a) => a.value.toLowerCase().includes(wanted)),
          )
          .map((e) => e.name);
        expect(searchNodes(state, query).entities.map((e) => e.name)).toEqual(expected);
      }),
    );
  });
});
