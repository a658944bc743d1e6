/**
 * The recall index (issue #32 §2, cost): its MaxScore search returns exactly BM25's best messages
 * (checked against the knowledge retrieval's plain `bm25Scores` over the same texts); an index
 * extended message by message equals one built at once, and an older version of a shared index
 * keeps seeing only its own messages; a log grown by `appendAction` (the cached path) recalls
 * what a JSON copy of it (indexed from scratch) recalls, after every action.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  memoryActions,
  modelView,
  userMessage,
  assistantMessage,
  type EventLog,
  type Message,
  type MemoryAction,
} from 'conversation-memory';
import { bm25Scores } from '../../src/knowledge/retrieval/bm25';
import {
  emptyRecallIndex,
  extendRecallIndex,
  searchRecallIndex,
} from '../../src/view/recall/recallIndex';
import { searchableText } from '../../src/view/recall/recallText';
import { searchWords } from '../../src/knowledge/retrieval/searchWords';

const WORDS = [
  'cake',
  'bakery',
  'sister',
  'train',
  'rain',
  'Lisbon',
  'Noor',
  'cakes',
  'baking',
  'the',
  'red',
  'car',
];
const textArb = fc
  .array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 })
  .map((w) => w.join(' '));
const messageArb: fc.Arbitrary<Message> = fc
  .tuple(fc.boolean(), textArb)
  .map(([user, text]) => (user ? userMessage(text || 'x') : assistantMessage(text || 'y')));

describe('recall index', () => {
  it('finds exactly the best BM25 scores (MaxScore is exact), for any limit', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { minLength: 1, maxLength: 60 }),
        textArb,
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 60 }),
        (messages, query, limit, skipFrom) => {
          const entries = messages.map((message, position) => ({ message, position }));
          const index = extendRecallIndex(emptyRecallIndex(), entries);
          const skip = (position: number) => position >= skipFrom && position % 3 === 0;
          const hits = searchRecallIndex(index, query, limit, skip);
          // The plain scores, over the messages the index holds (those with a searchable word).
          const docs = entries.filter((e) => searchWords(searchableText(e.message)).length > 0);
          const scores = bm25Scores(
            query,
            docs.map((e) => searchableText(e.message)),
          );
          const expected = docs
            .map((e, i) => ({ position: e.position, score: scores[i] as number }))
            .filter((d) => d.score > 0 && !skip(d.position))
            .sort((a, b) => b.score - a.score || b.position - a.position)
            .slice(0, limit);
          expect(hits.map((h) => h.score)).toEqual(
            expected.map((d) => expect.closeTo(d.score, 9) as unknown as number),
          );
          // Equal scores go to the newer message; every hit scores what BM25 gives its message.
          expect(hits.map((h) => h.position)).toEqual(expected.map((d) => d.position));
          for (const hit of hits) {
            const i = docs.findIndex((e) => e.position === hit.position);
            expect(hit.score).toBeCloseTo(scores[i] as number, 9);
          }
        },
      ),
    );
  });

  it('past its postings budget, finds the best BM25 scores among the messages that hold its rarest words (the newest, when the rarest alone is past it)', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { minLength: 1, maxLength: 60 }),
        textArb,
        fc.integer({ min: 1, max: 40 }),
        (messages, query, walked) => {
          const entries = messages.map((message, position) => ({ message, position }));
          const index = extendRecallIndex(emptyRecallIndex(), entries);
          const hits = searchRecallIndex(index, query, 5, () => false, walked);
          const docs = entries.filter((e) => searchWords(searchableText(e.message)).length > 0);
          const words = docs.map((e) => new Set(searchWords(searchableText(e.message))));
          // The query's words in the index, commonest first (ties: query order), then the rarest
          // walked while their postings stay within the budget (the rarest always).
          const terms = [...new Set(searchWords(query))]
            .map((term) => ({ term, df: words.filter((w) => w.has(term)).length }))
            .filter((t) => t.df > 0)
            .sort((a, b) => b.df - a.df);
          const walkedTerms = new Set<string>();
          let total = 0;
          for (let i = terms.length - 1; i >= 0; i--) {
            const { term, df } = terms[i] as { term: string; df: number };
            if (walkedTerms.size > 0 && total + df > walked) break;
            walkedTerms.add(term);
            total += df;
          }
          // The rarest word alone past the budget: only its newest `walked` messages are walked.
          const rarest = terms[terms.length - 1]?.term;
          const holding = (term: string | undefined) =>
            docs.map((_, i) => i).filter((i) => (words[i] as Set<string>).has(term ?? ''));
          const found = new Set(
            total > walked
              ? holding(rarest).slice(-walked)
              : [...walkedTerms].flatMap((term) => holding(term)),
          );
          const scores = bm25Scores(
            query,
            docs.map((e) => searchableText(e.message)),
          );
          const expected = docs
            .map((e, i) => ({ position: e.position, score: scores[i] as number, i }))
            .filter((d) => found.has(d.i))
            .sort((a, b) => b.score - a.score || b.position - a.position)
            .slice(0, 5);
          expect(hits.map((h) => h.position)).toEqual(expected.map((d) => d.position));
        },
      ),
    );
  });

  it('an index extended in steps equals one built at once; an older version sees its own', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 40 }),
        textArb,
        fc.nat(40),
        (messages, query, cut) => {
          const entries = messages.map((message, position) => ({ message, position }));
          const atOnce = extendRecallIndex(emptyRecallIndex(), entries);
          let stepped = emptyRecallIndex();
          for (const entry of entries) stepped = extendRecallIndex(stepped, [entry]);
          const search = (index: typeof atOnce) =>
            searchRecallIndex(index, query, 5, () => false).map((h) => [h.position, h.score]);
          expect(search(stepped)).toEqual(search(atOnce));
          // An older version shares the documents and must see only its first ones; extending it
          // (a fork) must not change what the newer one sees.
          const older = extendRecallIndex(emptyRecallIndex(), entries.slice(0, cut));
          const shared = extendRecallIndex(older, entries.slice(cut));
          const olderAlone = extendRecallIndex(emptyRecallIndex(), entries.slice(0, cut));
          expect(search(older)).toEqual(search(olderAlone));
          const forked = extendRecallIndex(older, [
            { message: userMessage('cake cake cake'), position: 999 },
          ]);
          expect(searchRecallIndex(forked, 'cake', 1, () => false)[0]?.position).toBe(999);
          expect(search(shared)).toEqual(search(atOnce));
          expect(search(older)).toEqual(search(olderAlone));
        },
      ),
    );
  });

  it('a log grown by appendAction recalls what a JSON copy of it recalls, after every action', () => {
    const actionArb: fc.Arbitrary<MemoryAction> = fc.oneof(
      { weight: 12, arbitrary: messageArb.map((m) => memoryActions.messageAdded(m)) },
      { weight: 1, arbitrary: fc.constant(memoryActions.cleared()) },
    );
    fc.assert(
      fc.property(fc.array(actionArb, { maxLength: 70 }), textArb, (actions, query) => {
        let log: EventLog = createEventLog({ maxMessages: 4 }, { snapshotEvery: 8 });
        for (const action of actions) {
          log = appendAction(log, action);
          const options = (source: EventLog) => ({ recall: { source, budget: 500, query } });
          const cached = modelView(log.head, options(log));
          const fresh = modelView(log.head, options(JSON.parse(JSON.stringify(log)) as EventLog));
          expect(cached).toEqual(fresh);
        }
      }),
      { numRuns: 40 },
    );
  });
});
