import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import type { CompletionRequest, Message } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { readEntityAnswer } from '../../src/knowledge/extraction/readEntityAnswer';
import { readTripleAnswer } from '../../src/knowledge/extraction/readTripleAnswer';
import {
  entityExtractionPrompt,
  renderExtractionConversation,
  tripleExtractionPrompt,
} from '../../src/knowledge/extraction/prompts';
import { assistant, user } from '../helpers';

// The reference's prompts, copied by hand from selectools (entity_memory.py lines 67-74 and
// 147; knowledge_graph.py lines 298-305 and 384), not from our constants.
const REFERENCE_ENTITY_PROMPT =
  'Extract named entities from the following conversation messages. Return a JSON array of objects with keys: name, entity_type, attributes. entity_type should be one of: person, organization, technology, location, concept, other. attributes should be a dict of known facts. Only extract entities that are clearly identifiable. Return ONLY the JSON array, no other text.\n\n';
const REFERENCE_ENTITY_SYSTEM = 'You extract named entities from text. Always return valid JSON.';
const REFERENCE_TRIPLE_PROMPT =
  "Extract relationship triples from the following conversation messages. Return a JSON array of objects with keys: subject, relation, object, confidence. confidence should be a float from 0.0 to 1.0. Relations should be concise verb phrases (e.g. 'works_at', 'knows', 'prefers', 'is_a'). Only extract clearly stated relationships. Return ONLY the JSON array, no other text.\n\n";
const REFERENCE_TRIPLE_SYSTEM =
  'You extract relationship triples from text. Always return valid JSON.';

const conversation: Message[] = [
  user('Hi, my name is Alice.'),
  assistant('Nice to meet you, Alice.'),
  user('I work at Acme since March 2024 and I live in Paris. I like jazz.'),
];
const rendered =
  'USER: Hi, my name is Alice.\nASSISTANT: Nice to meet you, Alice.\n' +
  'USER: I work at Acme since March 2024 and I live in Paris. I like jazz.';

/** The request the reference's extractor sends (`max_tokens=500`, `gpt-4o-mini`). */
const referenceRequest = (system: string, prompt: string, maxTokens = 500): CompletionRequest => ({
  model: 'gpt-4o-mini',
  systemPrompt: system,
  messages: [user(prompt)],
  maxTokens,
});

const answer = async (request: CompletionRequest): Promise<string> =>
  (await new LocalProvider().complete(request)).message.content ?? '';

describe('LocalProvider rule 0: extraction requests', () => {
  it('our prompts are the reference prompts, verbatim', () => {
    expect(renderExtractionConversation(conversation)).toBe(rendered);
    expect(entityExtractionPrompt(rendered)).toBe(REFERENCE_ENTITY_PROMPT + rendered);
    expect(tripleExtractionPrompt(rendered)).toBe(REFERENCE_TRIPLE_PROMPT + rendered);
  });

  it('answers the reference entity extraction with a list readEntityAnswer reads', async () => {
    const text = await answer(
      referenceRequest(REFERENCE_ENTITY_SYSTEM, REFERENCE_ENTITY_PROMPT + rendered),
    );
    expect(JSON.parse(text)).toEqual([
      {
        name: 'User',
        entity_type: 'person',
        attributes: { name: 'Alice', works_at: 'Acme', lives_in: 'Paris' },
      },
      { name: 'Alice', entity_type: 'person', attributes: {} },
      { name: 'Acme', entity_type: 'organization', attributes: {} },
      { name: 'Paris', entity_type: 'location', attributes: {} },
    ]);
    expect(readEntityAnswer(text)).toEqual(
      E.right([
        {
          name: 'User',
          type: 'person',
          attributes: { name: 'Alice', works_at: 'Acme', lives_in: 'Paris' },
        },
        { name: 'Alice', type: 'person', attributes: {} },
        { name: 'Acme', type: 'organization', attributes: {} },
        { name: 'Paris', type: 'location', attributes: {} },
      ]),
    );
  });

  it('answers the reference triple extraction with a list readTripleAnswer reads, dates kept', async () => {
    const text = await answer(
      referenceRequest(REFERENCE_TRIPLE_SYSTEM, REFERENCE_TRIPLE_PROMPT + rendered),
    );
    const march = Date.UTC(2024, 2, 1);
    expect(JSON.parse(text)).toEqual([
      { subject: 'User', relation: 'name', object: 'Alice', confidence: 1 },
      {
        subject: 'User',
        relation: 'works_at',
        object: 'Acme',
        confidence: 1,
        valid_from: '2024-03-01',
      },
      {
        subject: 'User',
        relation: 'lives_in',
        object: 'Paris',
        confidence: 1,
        valid_from: '2024-03-01',
      },
      { subject: 'User', relation: 'likes', object: 'jazz', confidence: 1 },
    ]);
    expect(readTripleAnswer(text)).toEqual(
      E.right([
        { subject: 'User', relation: 'name', object: 'Alice', confidence: 1 },
        { subject: 'User', relation: 'works_at', object: 'Acme', confidence: 1, validFrom: march },
        {
          subject: 'User',
          relation: 'lives_in',
          object: 'Paris',
          confidence: 1,
          validFrom: march,
        },
        { subject: 'User', relation: 'likes', object: 'jazz', confidence: 1 },
      ]),
    );
  });

  it('gives only whole items that fit in maxTokens, so the reply stays valid JSON', async () => {
    const prompt = REFERENCE_TRIPLE_PROMPT + rendered;
    const full = await answer(referenceRequest(REFERENCE_TRIPLE_SYSTEM, prompt));
    const all = E.getOrElseW(() => [])(readTripleAnswer(full));
    expect(all).toHaveLength(4);
    let previous = -1;
    for (let maxTokens = 1; maxTokens <= 100; maxTokens++) {
      const text = await answer(referenceRequest(REFERENCE_TRIPLE_SYSTEM, prompt, maxTokens));
      expect(Array.from(text).length).toBeLessThanOrEqual(maxTokens * 4);
      const read = readTripleAnswer(text);
      expect(E.isRight(read)).toBe(true);
      const items = E.getOrElseW(() => [])(read);
      expect(all.slice(0, items.length)).toEqual(items);
      expect(items.length).toBeGreaterThanOrEqual(previous);
      previous = items.length;
    }
    expect(previous).toBe(4);
  });

  it('reads a user prompt without the template as the conversation, and no message as none', async () => {
    expect(await answer(referenceRequest(REFERENCE_TRIPLE_SYSTEM, 'USER: I live in Rome'))).toBe(
      '[{"subject":"User","relation":"lives_in","object":"Rome","confidence":1}]',
    );
    expect(await answer({ ...referenceRequest(REFERENCE_ENTITY_SYSTEM, ''), messages: [] })).toBe(
      '[]',
    );
    expect(
      await answer({
        ...referenceRequest(REFERENCE_ENTITY_SYSTEM, ''),
        messages: [user(`${REFERENCE_ENTITY_PROMPT}USER: I met Bob.`), assistant('[]')],
      }),
    ).toBe('[]');
  });

  it('keeps the other rules for any other system prompt', async () => {
    const text = await answer({
      ...referenceRequest('You extract named entities.', REFERENCE_ENTITY_PROMPT + rendered),
    });
    // Rule 6 on the whole prompt (it states `my name is Alice`), not an extraction.
    expect(text).toBe('Nice to meet you, Alice.');
    expect(await answer(referenceRequest('', 'my name is Ada'))).toBe('Nice to meet you, Ada.');
  });

  it('streams the same answer', async () => {
    const request = referenceRequest(REFERENCE_ENTITY_SYSTEM, REFERENCE_ENTITY_PROMPT + rendered);
    const parts: string[] = [];
    for await (const part of new LocalProvider().stream(request))
      if (part.type === 'text-delta') parts.push(part.text);
    expect(parts.join('')).toBe(await answer(request));
  });
});
