import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  MAX_ANSWER_CHARS,
  MAX_ATTRIBUTE_VALUE_CHARS,
  MAX_ENTITY_ATTRIBUTES,
  MAX_EXTRACTED_ITEMS,
  MAX_EXTRACTED_NAME_CHARS,
} from '../../../src/knowledge/extraction/answerLimits';
import { readEntityAnswer } from '../../../src/knowledge/extraction/readEntityAnswer';
import { readTripleAnswer } from '../../../src/knowledge/extraction/readTripleAnswer';
import type { ExtractedEntity, ExtractedTriple } from '../../../src/model/knowledge';
import { textArb } from '../../arbitraries/text';

/** A name as the readers keep it: a trimmed, non-blank string within the bound. */
const isBoundedName = (value: unknown): boolean =>
  typeof value === 'string' &&
  value !== '' &&
  value === value.trim() &&
  value.length <= MAX_EXTRACTED_NAME_CHARS;

const checkEntity = (entity: ExtractedEntity): void => {
  expect(Object.keys(entity).sort()).toEqual(['attributes', 'name', 'type']);
  expect(isBoundedName(entity.name)).toBe(true);
  expect(isBoundedName(entity.type)).toBe(true);
  expect(Object.getPrototypeOf(entity.attributes)).toBe(Object.prototype);
  const entries = Object.entries(entity.attributes);
  expect(entries.length).toBeLessThanOrEqual(MAX_ENTITY_ATTRIBUTES);
  for (const [key, value] of entries) {
    expect(isBoundedName(key)).toBe(true);
    expect(typeof value).toBe('string');
    expect(value.length).toBeLessThanOrEqual(MAX_ATTRIBUTE_VALUE_CHARS);
  }
};

const checkTriple = (triple: ExtractedTriple): void => {
  for (const name of [triple.subject, triple.relation, triple.object])
    expect(isBoundedName(name)).toBe(true);
  expect(Number.isFinite(triple.confidence)).toBe(true);
  expect(triple.confidence).toBeGreaterThanOrEqual(0);
  expect(triple.confidence).toBeLessThanOrEqual(1);
  if ('validFrom' in triple) {
    expect(Number.isInteger(triple.validFrom)).toBe(true);
    expect(Number.isNaN(new Date(triple.validFrom ?? Number.NaN).getTime())).toBe(false);
  }
};

/** Checks what a read gave: a Left is our error; a Right holds only items within the bounds. */
const checkRead = (answer: string): void => {
  const entities = readEntityAnswer(answer);
  const triples = readTripleAnswer(answer);
  for (const result of [entities, triples]) {
    if (E.isLeft(result)) {
      expect(result.left.code).toBe('CM_KNOWLEDGE_EXTRACTION');
      expect(result.left.message.length).toBeLessThan(300);
      // eslint-disable-next-line no-control-regex -- no control character may reach a message
      expect(result.left.message).not.toMatch(/[\u0000-\u001f\u2028\u2029]/);
    } else {
      expect(answer.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
      expect(result.right.length).toBeLessThanOrEqual(MAX_EXTRACTED_ITEMS);
    }
  }
  if (E.isRight(entities)) entities.right.forEach(checkEntity);
  if (E.isRight(triples)) triples.right.forEach(checkTriple);
};

/** Values a model might put in a field: names, blanks, long text, numbers, lists, objects. */
const fieldArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: textArb, weight: 4 },
  {
    arbitrary: fc.constantFrom('Alice', ' Acme ', '', '  ', 'works_at', '0.8', '2024-03-01'),
    weight: 4,
  },
  { arbitrary: fc.string({ minLength: 190, maxLength: 1100 }), weight: 1 },
  { arbitrary: fc.oneof(fc.double(), fc.integer(), fc.boolean(), fc.constant(null)), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
);

const itemArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    arbitrary: fc.record(
      {
        name: fieldArb,
        entity_type: fieldArb,
        attributes: fc.oneof(fieldArb, fc.dictionary(fc.string({ maxLength: 8 }), fieldArb)),
        subject: fieldArb,
        relation: fieldArb,
        object: fieldArb,
        confidence: fieldArb,
        valid_from: fieldArb,
      },
      { requiredKeys: [] },
    ),
    weight: 6,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
);

/** An answer as a model might write it: a list or a wrapped list, fenced or not, or junk. */
const answerArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: textArb, weight: 2 },
  { arbitrary: fc.json(), weight: 1 },
  {
    arbitrary: fc
      .tuple(
        fc.array(itemArb, { maxLength: 8 }),
        fc.constantFrom('list', 'wrapped'),
        fc.constantFrom('', '```json\n', '```\n', '  \n'),
        fc.constantFrom('', '\n```', '```\n\n', ' '),
      )
      .map(([items, shape, open, close]) => {
        // Values fast-check made that JSON cannot hold (-0, NaN) are written as JSON writes them.
        const list = JSON.stringify(items);
        return `${open}${shape === 'list' ? list : `{"items": ${list}}`}${close}`;
      }),
    weight: 5,
  },
);

describe('readEntityAnswer / readTripleAnswer (property)', () => {
  it('never throw for any string, and give Right only with items within the bounds', () => {
    fc.assert(fc.property(answerArb, (answer) => checkRead(answer)));
  });

  it('never throw for any value a JavaScript caller passes', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        checkRead(value as string);
      }),
    );
  });

  it('read every item that has a non-blank name within the bound, in order', () => {
    const nameArb = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(' Alice ', '\tBob\n', 'x'.repeat(MAX_EXTRACTED_NAME_CHARS + 1)),
    );
    fc.assert(
      fc.property(fc.array(fc.record({ name: nameArb }), { maxLength: 20 }), (items) => {
        const expected = items
          .map(({ name }) => name.trim())
          .filter((name) => name !== '' && name.length <= MAX_EXTRACTED_NAME_CHARS);
        const read = readEntityAnswer(`\`\`\`json\n${JSON.stringify(items)}\n\`\`\``);
        expect(E.isRight(read) && read.right.map((entity) => entity.name)).toEqual(expected);
      }),
    );
  });
});
