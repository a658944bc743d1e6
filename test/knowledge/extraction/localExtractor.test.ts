import { describe, expect, it } from 'vitest';
import { isConversationMemoryError } from '../../../src/errors/errorBrand';
import {
  extractEntitiesLocally,
  extractTriplesLocally,
  LOCAL_USER_ENTITY,
} from '../../../src/knowledge/extraction/localExtractor';
import { renderExtractionConversation } from '../../../src/knowledge/extraction/prompts';
import type { ExtractedTriple } from '../../../src/model/knowledge';

/** `subject relation object` for each triple, to compare many at once. */
const facts = (text: string): string[] =>
  extractTriplesLocally(text).map(
    ({ subject, relation, object }) => `${subject} ${relation} ${object}`,
  );

const triple = (
  subject: string,
  relation: string,
  object: string,
  validFrom?: number,
): ExtractedTriple =>
  validFrom === undefined
    ? { subject, relation, object, confidence: 1 }
    : { subject, relation, object, confidence: 1, validFrom };

describe('extractTriplesLocally: the rules', () => {
  it('rule 1: a stated name links the user to it; the first person stays the user', () => {
    expect(LOCAL_USER_ENTITY).toBe('User');
    expect(facts('I work at Acme. My name is Alice. I live in Paris.')).toEqual([
      'User works_at Acme',
      'User name Alice',
      'User lives_in Paris',
    ]);
    expect(facts("My name's Ada Lovelace")).toEqual(['User name Ada Lovelace']);
    expect(facts('Call me Ishmael.')).toEqual(['User name Ishmael']);
    expect(facts("I'm Alice and I work at Acme")).toEqual([
      'User name Alice',
      'User works_at Acme',
    ]);
    expect(facts('I am Bob.')).toEqual(['User name Bob']);
  });

  it("rule 1: `I'm X` is a name only when the clause ends after X; lower case is not a name", () => {
    expect(facts('I am Canadian by birth.')).toEqual([]);
    expect(facts("i'm tired. my name is alice.")).toEqual([]);
  });

  it('rule 2: is_a, for the user and for a name', () => {
    expect(facts("I'm a software engineer at Acme.")).toEqual(['User is_a software engineer']);
    expect(facts('I am an architect')).toEqual(['User is_a architect']);
    expect(facts('My sister Carol is a doctor.')).toEqual(['Carol is_a doctor']);
    expect(facts('Bank of America is a bank.')).toEqual(['Bank of America is_a bank']);
    expect(facts('This is a test. It is a problem.')).toEqual([]);
  });

  it('rule 3: works_at, by tense and person', () => {
    expect(facts('I work at Acme.')).toEqual(['User works_at Acme']);
    expect(facts('I work for Globex Corporation')).toEqual(['User works_at Globex Corporation']);
    expect(facts('Alice works at Initech.')).toEqual(['Alice works_at Initech']);
    expect(facts("I'm working at Acme")).toEqual(['User works_at Acme']);
    expect(facts('I have worked at Acme')).toEqual(['User works_at Acme']);
    expect(facts("I've been working at Hooli")).toEqual(['User works_at Hooli']);
    expect(facts('Alice is working at Hooli')).toEqual(['Alice works_at Hooli']);
    expect(facts('I currently work at Procter & Gamble')).toEqual([
      'User works_at Procter & Gamble',
    ]);
  });

  it('rule 4: lives_in, by living and by moving', () => {
    expect(facts('I live in New York.')).toEqual(['User lives_in New York']);
    expect(facts('Bob lives in Paris')).toEqual(['Bob lives_in Paris']);
    expect(facts('I moved to Berlin.')).toEqual(['User lives_in Berlin']);
    expect(facts("I'm moving to Lisbon")).toEqual(['User lives_in Lisbon']);
    expect(facts('We relocated to Oslo; Carol relocated to Rome')).toEqual(['Carol lives_in Rome']);
  });

  it('rule 5: likes accumulate, one triple per listed phrase', () => {
    expect(facts('I like tea, jazz and chess.')).toEqual([
      'User likes tea',
      'User likes jazz',
      'User likes chess',
    ]);
    expect(facts('I really love Python and Rust')).toEqual([
      'User likes Python',
      'User likes Rust',
    ]);
    expect(facts('I prefer dark mode. I enjoy the mountains')).toEqual([
      'User likes dark mode',
      'User likes mountains',
    ]);
    expect(facts('Alice loves opera')).toEqual(['Alice likes opera']);
    expect(facts('I like dark mode and I work at Acme')).toEqual([
      'User likes dark mode',
      'User works_at Acme',
    ]);
  });

  it('states nothing for negations, other pronouns, disagreeing forms and idioms', () => {
    for (const text of [
      "I don't like spam.",
      'I do not live in Paris.',
      'I used to work at Acme.',
      'She works at Acme. He lives in Rome. They like tea.',
      'Cities like Paris are big.',
      'I works at Acme. Alice work at Acme.',
      "I'd like a coffee. I would like to swim. I like to swim.",
      'Working at Acme is fun.',
    ])
      expect(facts(text), text).toEqual([]);
  });

  it('after `and`, a verb takes the last subject of the sentence', () => {
    expect(facts('I work at Acme and live in Paris.')).toEqual([
      'User works_at Acme',
      'User lives_in Paris',
    ]);
    expect(facts('Alice works at Acme and lives in Rome. And lives in Oslo.')).toEqual([
      'Alice works_at Acme',
      'Alice lives_in Rome',
    ]);
  });

  it('rule 6: a date phrase dates the facts of its sentence, in UTC', () => {
    const march = Date.UTC(2024, 2, 1);
    expect(extractTriplesLocally('I moved to Berlin on 2024-03-01.')).toEqual([
      triple('User', 'lives_in', 'Berlin', march),
    ]);
    expect(extractTriplesLocally('I work at Acme since March 2024')).toEqual([
      triple('User', 'works_at', 'Acme', march),
    ]);
    expect(extractTriplesLocally('Since Mar 5, 2023 I live in Rome')).toEqual([
      triple('User', 'lives_in', 'Rome', Date.UTC(2023, 2, 5)),
    ]);
    expect(extractTriplesLocally('On 1st March 2020 I moved to Oslo. I like tea.')).toEqual([
      triple('User', 'lives_in', 'Oslo', Date.UTC(2020, 2, 1)),
      triple('User', 'likes', 'tea'),
    ]);
    expect(extractTriplesLocally('I live in Paris since 2019')).toEqual([
      triple('User', 'lives_in', 'Paris', Date.UTC(2019, 0, 1)),
    ]);
    expect(extractTriplesLocally('My name is Alice since 2019')).toEqual([
      triple('User', 'name', 'Alice'),
    ]);
  });

  it('rule 6: a day that does not exist dates nothing', () => {
    expect(extractTriplesLocally('I moved to Rome on 2023-02-30')).toEqual([
      triple('User', 'lives_in', 'Rome'),
    ]);
    expect(extractTriplesLocally('I moved to Rome on February 30, 2023')).toEqual([
      triple('User', 'lives_in', 'Rome'),
    ]);
  });

  it('gives a triple stated twice once, compared without letter case', () => {
    expect(facts('I work at Acme. I work at ACME. I work at Globex. I work at Acme.')).toEqual([
      'User works_at Acme',
      'User works_at Globex',
    ]);
  });
});

describe('extractTriplesLocally: the conversation', () => {
  it("reads the user's messages only, continuation lines included", () => {
    const conversation = renderExtractionConversation([
      { role: 'user', content: 'Hi!\nI work at Acme.' },
      { role: 'assistant', content: 'You said: "I live in Paris". Bob works at Initech.' },
      { role: 'system', content: '[Conversation Summary] User: I like tea.' },
      { role: 'tool', content: 'Carol lives in Rome', toolCallId: 'c1' },
      { role: 'user', content: 'I moved to Berlin' },
    ]);
    expect(facts(conversation)).toEqual(['User works_at Acme', 'User lives_in Berlin']);
  });

  it('keeps the user as the subject across the messages of one text (one subject across extractions)', () => {
    expect(facts('USER: My name is Alice\nASSISTANT: Hi Alice\nUSER: I live in Rome')).toEqual([
      'User name Alice',
      'User lives_in Rome',
    ]);
  });

  it('refuses a value that is not a string with our error', () => {
    for (const extract of [extractTriplesLocally, extractEntitiesLocally]) {
      let caught: unknown;
      try {
        extract(42 as unknown as string);
      } catch (error) {
        caught = error;
      }
      expect(isConversationMemoryError(caught) && caught.code).toBe('CM_ARGUMENT');
      expect((caught as Error).message).toContain('text must be a string, received 42');
    }
  });
});

describe('extractEntitiesLocally', () => {
  it('types names by the rule that found them, with the single-valued facts as attributes', () => {
    expect(
      extractEntitiesLocally(
        "USER: I'm Alice and I work at Bank of America. I live in New York and I like Jazz. I'm a pilot. I met Bob.",
      ),
    ).toEqual([
      {
        name: 'User',
        type: 'person',
        attributes: {
          name: 'Alice',
          works_at: 'Bank of America',
          lives_in: 'New York',
          is_a: 'pilot',
        },
      },
      { name: 'Alice', type: 'person', attributes: {} },
      { name: 'Bank of America', type: 'organization', attributes: {} },
      { name: 'New York', type: 'location', attributes: {} },
      { name: 'Jazz', type: 'other', attributes: {} },
      { name: 'Bob', type: 'other', attributes: {} },
    ]);
  });

  it('keeps the newest value of an attribute and the first specific type of a name', () => {
    expect(
      extractEntitiesLocally('I met Paris. I live in Paris. I moved to Rome. I work at Rome.'),
    ).toEqual([
      { name: 'User', type: 'person', attributes: { lives_in: 'Rome', works_at: 'Rome' } },
      { name: 'Paris', type: 'location', attributes: {} },
      { name: 'Rome', type: 'location', attributes: {} },
    ]);
  });

  it('skips a name that opens a sentence, pronouns, months and weekdays', () => {
    expect(
      extractEntitiesLocally(
        'Yesterday I saw Carol. On Monday in May I met The Beatles. New York is big.',
      ),
    ).toEqual([
      { name: 'Carol', type: 'other', attributes: {} },
      { name: 'Beatles', type: 'other', attributes: {} },
    ]);
  });

  it('gives nothing for a text without names or facts', () => {
    expect(extractEntitiesLocally('')).toEqual([]);
    expect(extractEntitiesLocally('ASSISTANT: Alice works at Acme')).toEqual([]);
    expect(extractTriplesLocally('hello there, how are you?')).toEqual([]);
  });
});
