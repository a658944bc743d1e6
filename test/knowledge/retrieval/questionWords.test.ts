// A question meets the facts it asks about: stems (`work` / `works_at`, `living` / `lives_in`)
// and the first person (`I`, `my` name the `User` entity).
import { describe, expect, it } from 'vitest';
import { knowledgeBlocks } from '../../../src/knowledge/retrieval/knowledgeBlocks';
import { stemWord } from '../../../src/knowledge/retrieval/searchWords';
import { createKnowledge } from '../../../src/knowledge/createKnowledge';
import { factsExtracted } from '../../../src/knowledge/factsExtracted';

const state = factsExtracted(createKnowledge(), {
  source: 'relations',
  at: 1,
  from: 0,
  to: 1,
  triples: [
    { subject: 'User', relation: 'works_at', object: 'Globex', confidence: 1 },
    { subject: 'Bob', relation: 'likes', object: 'chess', confidence: 1 },
  ],
}).state;

describe('question words', () => {
  it('stems both sides', () => {
    expect(['work', 'works', 'working', 'worked'].map(stemWord)).toEqual([
      'work',
      'work',
      'work',
      'work',
    ]);
    expect(['lives', 'living', 'live'].map(stemWord)).toEqual(['liv', 'liv', 'liv']);
    expect(stemWord('glass')).toBe('glass');
  });

  it('"Where do I work?" finds the user\'s works_at, first', () => {
    const { text } = knowledgeBlocks(state, { query: 'Where do I work?', now: 2, graph: {} });
    expect(text.split('\n')[1]).toBe('- User --[works_at]--> Globex');
  });

  it('"What does Bob enjoy?" does not pull the user\'s facts by the first person', () => {
    const { text } = knowledgeBlocks(state, { query: 'Does Bob like chess?', now: 2, graph: {} });
    expect(text.split('\n')[1]).toBe('- Bob --[likes]--> chess');
  });
});
