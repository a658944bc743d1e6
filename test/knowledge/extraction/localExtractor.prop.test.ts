import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import { MAX_EXTRACTED_NAME_CHARS } from '../../../src/knowledge/extraction/answerLimits';
import {
  extractEntitiesLocally,
  extractTriplesLocally,
} from '../../../src/knowledge/extraction/localExtractor';
import { readEntityAnswer } from '../../../src/knowledge/extraction/readEntityAnswer';
import { readTripleAnswer } from '../../../src/knowledge/extraction/readTripleAnswer';
import { textArb } from '../../arbitraries/text';

const isBoundedName = (value: string): boolean =>
  value !== '' && value === value.trim() && value.length <= MAX_EXTRACTED_NAME_CHARS;

/** Text made of the pieces the patterns look for, in any order, with names of any length. */
const fragmentArb = fc.oneof(
  fc.constantFrom(
    'I',
    "I'm",
    'I am',
    'my name is',
    'call me',
    'work at',
    'works for',
    'working at',
    'live in',
    'lives in',
    'moved to',
    'like',
    'loves',
    'prefer',
    'a',
    'an',
    'is',
    'and',
    'or',
    ',',
    '.',
    ';',
    '!',
    '\n',
    'USER:',
    'ASSISTANT:',
    'on',
    'since',
    'in',
    'March',
    '2024',
    '2024-03-01',
    '1st',
    'of',
    '&',
    'The',
    'Bank',
    'Alice',
    'Bob Smith',
    'Acme',
    'tea',
    'dark mode',
    '’',
  ),
  fc
    .string({ minLength: 1, maxLength: 8 })
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1)),
  fc
    .constantFrom('A', 'x')
    .chain((unit) => fc.integer({ min: 150, max: 260 }).map((count) => unit.repeat(count))),
);
const sentenceArb = fc.oneof(
  fc.array(fragmentArb, { maxLength: 30 }).map((parts) => parts.join(' ')),
  textArb,
);

describe('the local extractor (property)', () => {
  it('never throws, is deterministic, and gives only names the readers accept', () => {
    fc.assert(
      fc.property(sentenceArb, (text) => {
        const triples = extractTriplesLocally(text);
        const entities = extractEntitiesLocally(text);
        expect(extractTriplesLocally(text)).toEqual(triples);
        expect(extractEntitiesLocally(text)).toEqual(entities);
        for (const { subject, relation, object, confidence, validFrom } of triples) {
          expect([subject, relation, object].every(isBoundedName)).toBe(true);
          expect(confidence).toBe(1);
          if (validFrom !== undefined) expect(Number.isInteger(validFrom)).toBe(true);
        }
        for (const { name, type, attributes } of entities) {
          expect(isBoundedName(name)).toBe(true);
          expect(['person', 'organization', 'location', 'other']).toContain(type);
          expect(Object.values(attributes).every(isBoundedName)).toBe(true);
        }
      }),
    );
  });

  it('gives what the readers read back unchanged, in the reference keys', () => {
    fc.assert(
      fc.property(sentenceArb, (text) => {
        const triples = extractTriplesLocally(text);
        const entities = extractEntitiesLocally(text);
        const tripleAnswer = JSON.stringify(
          triples.map(({ subject, relation, object, confidence, validFrom }) => ({
            subject,
            relation,
            object,
            confidence,
            valid_from: validFrom,
          })),
        );
        const entityAnswer = JSON.stringify(
          entities.map(({ name, type, attributes }) => ({ name, entity_type: type, attributes })),
        );
        expect(readTripleAnswer(tripleAnswer)).toEqual(E.right(triples));
        expect(readEntityAnswer(entityAnswer)).toEqual(E.right(entities));
      }),
    );
  });

  it('reads 100 KB of hostile text in one pass (no backtracking regular expression)', () => {
    const size = 100_000;
    const fill = (unit: string): string =>
      unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const hostile = [
      fill('a'),
      fill('A'),
      fill('A '),
      fill('Bank of '),
      fill('I work at '),
      fill('I like tea, '),
      fill('my name is Alice '),
      fill("I'm "),
      fill('USER: \n'),
      fill('on 2024-03-01 '),
      fill('.'),
      fill('```'),
      fill('1'),
      fill('\u00e9\u0301'),
      fill('😀'),
      `USER: ${fill('I am a ')}`,
      `I like ${fill('x-')}`,
    ];
    for (const text of hostile) {
      const triples = extractTriplesLocally(text);
      const entities = extractEntitiesLocally(text);
      expect(triples.length).toBeLessThanOrEqual(size);
      expect(entities.length).toBeLessThanOrEqual(size);
    }
    // Facts repeated across 100 KB are given once each.
    expect(extractTriplesLocally(fill('I work at Acme. '))).toHaveLength(1);
    expect(extractEntitiesLocally(fill('I met Bob. '))).toEqual([
      { name: 'Bob', type: 'other', attributes: {} },
    ]);
  });
});
