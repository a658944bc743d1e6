import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError } from '../../../src/errors/errorBrand';
import { KnowledgeExtractionError } from '../../../src/errors/knowledgeErrors';
import {
  MAX_ANSWER_CHARS,
  MAX_ATTRIBUTE_VALUE_CHARS,
  MAX_ENTITY_ATTRIBUTES,
  MAX_EXTRACTED_ITEMS,
  MAX_EXTRACTED_NAME_CHARS,
} from '../../../src/knowledge/extraction/answerLimits';
import { readEntityAnswer } from '../../../src/knowledge/extraction/readEntityAnswer';
import { readTripleAnswer } from '../../../src/knowledge/extraction/readTripleAnswer';

const right = <A>(result: E.Either<KnowledgeExtractionError, A>): A => {
  if (E.isLeft(result)) throw new Error(`expected a Right, got ${result.left.message}`);
  return result.right;
};

const left = <A>(result: E.Either<KnowledgeExtractionError, A>): KnowledgeExtractionError => {
  if (E.isRight(result)) throw new Error(`expected a Left, got ${JSON.stringify(result.right)}`);
  return result.left;
};

const entity = (item: unknown) => right(readEntityAnswer(JSON.stringify([item])));
const triple = (item: unknown) => right(readTripleAnswer(JSON.stringify([item])));
const base = { subject: 'Alice', relation: 'works_at', object: 'Acme' };

describe('readEntityAnswer: the reference defaults', () => {
  it('reads a plain list in the reference keys', () => {
    expect(
      entity({ name: 'Alice', entity_type: 'person', attributes: { role: 'engineer' } }),
    ).toEqual([{ name: 'Alice', type: 'person', attributes: { role: 'engineer' } }]);
  });

  it("defaults a missing, non-string or blank entity_type to 'other'", () => {
    for (const entity_type of [undefined, null, 7, '', '   ', ['person'], 'x'.repeat(201)])
      expect(entity({ name: 'Alice', entity_type })).toEqual([
        { name: 'Alice', type: 'other', attributes: {} },
      ]);
  });

  it('reads attributes that are not an object as {}', () => {
    for (const attributes of [undefined, null, 'tall', 3, ['a', 'b'], true])
      expect(entity({ name: 'Alice', attributes })[0]?.attributes).toEqual({});
  });

  it('keeps string values, writes numbers and booleans as strings, drops the rest', () => {
    expect(
      entity({
        name: 'Alice',
        attributes: { role: 'engineer', age: 30, ratio: 0.5, active: true, gone: false },
      })[0]?.attributes,
    ).toEqual({ role: 'engineer', age: '30', ratio: '0.5', active: 'true', gone: 'false' });
    expect(
      entity({ name: 'Alice', attributes: { a: null, b: [1], c: { d: 1 }, e: 'kept' } })[0]
        ?.attributes,
    ).toEqual({ e: 'kept' });
  });

  it('skips items without a non-blank string name, as the reference skips them', () => {
    const answer = JSON.stringify([
      { entity_type: 'person' },
      { name: '' },
      { name: '   ' },
      { name: 42 },
      { name: null },
      'Alice',
      ['Alice'],
      null,
      { name: 'Bob' },
    ]);
    expect(right(readEntityAnswer(answer))).toEqual([
      { name: 'Bob', type: 'other', attributes: {} },
    ]);
  });

  it('trims names, types and attribute keys', () => {
    expect(
      entity({ name: '  Alice \n', entity_type: ' person ', attributes: { ' role ': 'x' } }),
    ).toEqual([{ name: 'Alice', type: 'person', attributes: { role: 'x' } }]);
  });

  it('keeps a "__proto__" attribute as an own key, and never changes a prototype', () => {
    const [read] = right(readEntityAnswer('[{"name": "A", "attributes": {"__proto__": "x"}}]'));
    expect(Object.getPrototypeOf(read?.attributes)).toBe(Object.prototype);
    expect(Object.keys(read?.attributes ?? {})).toEqual(['__proto__']);
    expect(read?.attributes['__proto__']).toBe('x');
  });
});

describe('readTripleAnswer: the reference defaults', () => {
  it('reads a plain list in the reference keys', () => {
    expect(triple({ ...base, confidence: 0.7 })).toEqual([{ ...base, confidence: 0.7 }]);
  });

  it('defaults a missing, null or non-numeric confidence to 1', () => {
    for (const confidence of [undefined, null, 'high', '', true, false, [0.5], { v: 1 }, '0x10'])
      expect(triple({ ...base, confidence })).toEqual([{ ...base, confidence: 1 }]);
    // 1e400 is Infinity once parsed: not finite.
    expect(
      right(readTripleAnswer(`[{"subject":"A","relation":"r","object":"B","confidence":1e400}]`)),
    ).toEqual([{ subject: 'A', relation: 'r', object: 'B', confidence: 1 }]);
  });

  it("reads a numeric string as the reference's float() does, and clamps to [0, 1]", () => {
    expect(triple({ ...base, confidence: '0.8' })[0]?.confidence).toBe(0.8);
    expect(triple({ ...base, confidence: ' 1e-1 ' })[0]?.confidence).toBe(0.1);
    expect(triple({ ...base, confidence: 1.7 })[0]?.confidence).toBe(1);
    expect(triple({ ...base, confidence: -2 })[0]?.confidence).toBe(0);
    expect(Object.is(triple({ ...base, confidence: -0 })[0]?.confidence, 0)).toBe(true);
  });

  it('skips items missing a subject, relation or object, or with one blank or not a string', () => {
    const items = [
      { relation: 'r', object: 'B' },
      { subject: 'A', object: 'B' },
      { subject: 'A', relation: 'r' },
      { subject: ' ', relation: 'r', object: 'B' },
      { subject: 'A', relation: 1, object: 'B' },
      { subject: 'A', relation: 'r', object: null },
      { subject: ' A ', relation: ' knows ', object: ' B ' },
    ];
    expect(right(readTripleAnswer(JSON.stringify(items)))).toEqual([
      { subject: 'A', relation: 'knows', object: 'B', confidence: 1 },
    ]);
  });

  it('reads valid_from as an ISO day, an ISO time with a zone, or epoch milliseconds', () => {
    const day = Date.UTC(2024, 2, 1);
    expect(triple({ ...base, valid_from: '2024-03-01' })[0]?.validFrom).toBe(day);
    expect(triple({ ...base, valid_from: '2024-03-01T09:30:00Z' })[0]?.validFrom).toBe(
      day + 9.5 * 3_600_000,
    );
    expect(triple({ ...base, valid_from: '2024-03-01T01:00+01:00' })[0]?.validFrom).toBe(day);
    expect(triple({ ...base, valid_from: day })[0]?.validFrom).toBe(day);
  });

  it('ignores a valid_from that is not a real, unambiguous date', () => {
    for (const valid_from of [
      '2024-02-30',
      '2024-13-01',
      '2024-03-01T09:30', // no zone: the machine's zone would decide
      'March 2024',
      '2024-03-01T25:00Z',
      1.5,
      9e15,
      true,
      null,
    ]) {
      const [read] = triple({ ...base, valid_from });
      expect(read).toEqual({ ...base, confidence: 1 });
      expect(read && 'validFrom' in read).toBe(false);
    }
  });
});

describe('the answer around the list', () => {
  const list = '[{"name": "Alice"}]';
  const alice = [{ name: 'Alice', type: 'other', attributes: {} }];

  it('strips white space and markdown code fences, with or without a language tag', () => {
    for (const answer of [
      `  ${list}\n`,
      `\`\`\`json\n${list}\n\`\`\``,
      `\`\`\`\n${list}\n\`\`\``,
      `\`\`\`JSON\r\n${list}\r\n\`\`\`  \n`,
      `\`\`\`json ${list}\`\`\``,
      `\n\n\`\`\`json\n${list}\n\`\`\`\n\n`,
    ])
      expect(right(readEntityAnswer(answer))).toEqual(alice);
  });

  it('reads an object holding one list (the reference returned [] for it)', () => {
    expect(right(readEntityAnswer(`{"entities": ${list}}`))).toEqual(alice);
    expect(right(readEntityAnswer(`{"entities": ${list}, "note": "done"}`))).toEqual(alice);
    expect(
      right(readTripleAnswer('{"triples": [{"subject":"A","relation":"r","object":"B"}]}')),
    ).toEqual([{ subject: 'A', relation: 'r', object: 'B', confidence: 1 }]);
  });

  it('reads an empty list as no facts', () => {
    expect(right(readEntityAnswer('[]'))).toEqual([]);
    expect(right(readTripleAnswer('```json\n[]\n```'))).toEqual([]);
  });
});

describe('a bad answer is a Left that names the problem', () => {
  it('refuses text that is not JSON, showing a short escaped excerpt only', () => {
    const answer = `Sure! Here are the entities:\u001b[31m\n${'x'.repeat(5000)}`;
    const error = left(readEntityAnswer(answer));
    expect(error).toBeInstanceOf(KnowledgeExtractionError);
    expect(isConversationMemoryError(error)).toBe(true);
    expect(error.code).toBe('CM_KNOWLEDGE_EXTRACTION');
    expect(error.source).toBe('entities');
    expect(error.name).toBe('KnowledgeExtractionError');
    expect(error.message).toMatch(
      /^\[conversation-memory\] readEntityAnswer: the answer is not valid JSON, received "Sure! Here are the entities:\\u001b\[31m\\n/,
    );
    expect(error.message).not.toContain('\u001b');
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(200);
    expect(error.cause).toBeUndefined();
  });

  it('refuses JSON that is not a list nor an object holding exactly one list', () => {
    const cases: [string, string][] = [
      ['{"entities": []', 'not valid JSON'],
      ['"Alice"', 'received "Alice"'],
      ['42', 'received 42'],
      ['null', 'received null'],
      ['{}', 'received an object holding no array'],
      ['{"a": [], "b": []}', 'received an object holding 2 arrays'],
      ['', 'not valid JSON, received ""'],
      ['```json\n```', 'not valid JSON'],
    ];
    for (const [answer, problem] of cases) {
      const error = left(readTripleAnswer(answer));
      expect(error.source).toBe('relations');
      expect(error.message).toContain('readTripleAnswer: ');
      expect(error.message).toContain(problem);
    }
  });

  it('refuses a list longer than MAX_EXTRACTED_ITEMS, and reads one of that length', () => {
    const items = (count: number) =>
      JSON.stringify(Array.from({ length: count }, () => ({ name: 'A' })));
    expect(right(readEntityAnswer(items(MAX_EXTRACTED_ITEMS)))).toHaveLength(MAX_EXTRACTED_ITEMS);
    expect(left(readEntityAnswer(items(MAX_EXTRACTED_ITEMS + 1))).message).toContain(
      `the answer has ${MAX_EXTRACTED_ITEMS + 1} items, more than MAX_EXTRACTED_ITEMS (${MAX_EXTRACTED_ITEMS})`,
    );
  });

  it('refuses an answer longer than MAX_ANSWER_CHARS before parsing it', () => {
    const padded = `[${' '.repeat(MAX_ANSWER_CHARS)}]`;
    expect(left(readEntityAnswer(padded)).message).toContain(
      `the answer has ${MAX_ANSWER_CHARS + 2} characters, more than MAX_ANSWER_CHARS`,
    );
    expect(right(readEntityAnswer(`[${' '.repeat(MAX_ANSWER_CHARS - 2)}]`))).toEqual([]);
  });

  it('refuses a value that is not a string (a JavaScript caller), without throwing', () => {
    for (const answer of [undefined, null, 42, { toString: () => '[]' }]) {
      const error = left(readTripleAnswer(answer as unknown as string));
      expect(error.message).toContain('the answer must be a string, received');
    }
  });
});

describe('the bounds on items', () => {
  it('skips an item whose name is longer than MAX_EXTRACTED_NAME_CHARS', () => {
    const long = 'n'.repeat(MAX_EXTRACTED_NAME_CHARS + 1);
    const fits = 'n'.repeat(MAX_EXTRACTED_NAME_CHARS);
    expect(
      right(readEntityAnswer(JSON.stringify([{ name: long }, { name: ` ${fits} ` }]))),
    ).toEqual([{ name: fits, type: 'other', attributes: {} }]);
    expect(triple({ ...base, object: long })).toEqual([]);
    expect(triple({ ...base, relation: long })).toEqual([]);
  });

  it('drops attribute values longer than MAX_ATTRIBUTE_VALUE_CHARS and keys longer than a name', () => {
    const attributes = {
      long: 'v'.repeat(MAX_ATTRIBUTE_VALUE_CHARS + 1),
      fits: 'v'.repeat(MAX_ATTRIBUTE_VALUE_CHARS),
      ['k'.repeat(MAX_EXTRACTED_NAME_CHARS + 1)]: 'x',
      '  ': 'blank key',
    };
    expect(entity({ name: 'A', attributes })[0]?.attributes).toEqual({
      fits: 'v'.repeat(MAX_ATTRIBUTE_VALUE_CHARS),
    });
  });

  it('keeps the first MAX_ENTITY_ATTRIBUTES attributes', () => {
    const attributes = Object.fromEntries(
      Array.from({ length: MAX_ENTITY_ATTRIBUTES + 5 }, (_, i) => [`k${i}`, `v${i}`]),
    );
    const kept = entity({ name: 'A', attributes })[0]?.attributes ?? {};
    expect(Object.keys(kept)).toEqual(Object.keys(attributes).slice(0, MAX_ENTITY_ATTRIBUTES));
  });
});
