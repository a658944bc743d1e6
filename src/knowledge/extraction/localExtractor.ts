import { MemoryArgumentError } from '../../errors/memoryErrors';
import type { ExtractedEntity, ExtractedTriple } from '../../model/knowledge';
import { describeValue } from '../../util/describeValue';
import { findFacts, type Finding, type LocalEntityType } from './local/findFacts';

export { LOCAL_USER_ENTITY } from './local/findFacts';

/**
 * A deterministic extractor that needs no model: what `LocalProvider` answers to the reference's
 * extraction prompts, so the offline demo and the tests extract facts. It reads a rendered
 * conversation (`renderExtractionConversation`: `USER: …` lines) or a plain text.
 */

const checkText = (api: string, text: unknown): string => {
  if (typeof text !== 'string')
    throw new MemoryArgumentError(api, `text must be a string, received ${describeValue(text)}`);
  return text;
};

/** The relations of a subject that are also its attributes (one value per key). */
const ATTRIBUTE_RELATIONS = /* @__PURE__ */ new Set(['name', 'is_a', 'works_at', 'lives_in']);

/**
 * The facts a text states, found by patterns, in the order they are stated. Only the user's
 * messages are read (`USER: ` lines and the lines after them; text before any `ROLE: ` header
 * counts as the user's); replies are skipped, so an echo does not state a fact twice. Sentences
 * end at `.`, `!`, `?`, `;` and line breaks.
 *
 * **Rules** (X, Y: capitalised words, joined by `of`, `&`, `de`, `van`, … as in `Bank of
 * America`, at most 5 words; P: a phrase of at most 4 plain words after an optional article,
 * ending at punctuation, a preposition, a conjunction or a pronoun):
 *
 * | # | Pattern | Triple |
 * |---|---------|--------|
 * | 1 | `my name is X`, `my name's X`, `call me X`; `I'm X`, `I am X` when the clause ends after X | `User --[name]--> X` (the first person stays `User`) |
 * | 2 | `I'm a P`, `I am an P`, `X is a P` | `X --[is_a]--> P` |
 * | 3 | `I work at/for Y`, `X works at/for Y`, `I'm working at Y`, `I have worked at Y` | `X --[works_at]--> Y` |
 * | 4 | `I live in Y`, `X lives in Y`, `I moved to Y`, `X is moving to Y`, `relocated to Y` | `X --[lives_in]--> Y` |
 * | 5 | `I like/love/prefer/enjoy P`, `X likes/loves/prefers/enjoys P`; lists (`tea, jazz and chess`) give one triple each | `X --[likes]--> P` (they accumulate) |
 * | 6 | `on`, `since`, `from` or `in`, then `2024-03-01`, `March 2024`, `March 1, 2024`, `1 March 2024` or `2020` | the sentence's triples (not rule 1's) get `validFrom`, UTC midnight of that day (the 1st of a month, January 1st of a year) |
 * | 7 | Any other X not opening a sentence | an entity of type `other` (see {@link extractEntitiesLocally}) |
 *
 * The first person (`I`, `I'm`, `I've`) is always {@link LOCAL_USER_ENTITY} (a stated name is the
 * fact `User --[name]--> X`), so the user's facts keep one subject across extractions, each of
 * which reads only the messages it has not read. After `and`, a verb takes the sentence's last subject
 * (`I work at Acme and live in Paris`). A verb's form must agree with its subject (`I works`,
 * `Alice work` and `Cities like Paris` state nothing); negations (`I don't like`, `I used to
 * work at`) and other pronouns (`she works at`) state nothing. `May` and the other month and
 * weekday names are never names. Every triple has confidence 1; a triple stated twice is given
 * once (the first time), compared without letter case.
 *
 * Deterministic, and linear in the text: each pattern reads a few words around one word; no
 * regular expression can backtrack.
 *
 * @param text - a rendered conversation, or a plain text
 * @returns the triples, in the order first stated
 * @throws MemoryArgumentError when `text` is not a string
 * @example
 * ```ts
 * extractTriplesLocally('USER: My name is Alice. I work at Acme since March 2024.');
 * // [{ subject: 'User', relation: 'name', object: 'Alice', confidence: 1 },
 * //  { subject: 'User', relation: 'works_at', object: 'Acme', confidence: 1, validFrom: 1709251200000 }]
 * ```
 */
export const extractTriplesLocally = (text: string): readonly ExtractedTriple[] => {
  const triples: ExtractedTriple[] = [];
  const seen = new Set<string>();
  for (const fact of findFacts(checkText('extractTriplesLocally', text)).facts) {
    const key = JSON.stringify(
      [fact.subject, fact.relation, fact.object].map((s) => s.toLowerCase()),
    );
    if (seen.has(key)) continue;
    seen.add(key);
    triples.push(tripleOf(fact));
  }
  return triples;
};

const tripleOf = ({ subject, relation, object, validFrom }: Finding): ExtractedTriple =>
  validFrom === undefined
    ? { subject, relation, object, confidence: 1 }
    : { subject, relation, object, confidence: 1, validFrom };

interface Building {
  readonly name: string;
  type: LocalEntityType;
  readonly attributes: Map<string, string>;
}

/**
 * The entities a text names, found by the rules of {@link extractTriplesLocally}, each once
 * (compared without letter case; the first spelling is kept): the ends of the triples in the
 * order stated, then the other names in the order named.
 *
 * - the ends of the triples are typed by the rule that found them: the user ({@link LOCAL_USER_ENTITY}
 *   or the stated name), a subject of rules 3 to 5 and a name of rule 1 are `person`; an object
 *   of rule 3 is an `organization`, of rule 4 a `location`; a subject of rule 2 and a
 *   capitalised object of rule 5 are `other` (the phrases of rules 2 and 5 are not entities);
 * - the subject's single-valued facts as its attributes, the newest value of each key:
 *   `name`, `is_a`, `works_at`, `lives_in` (`likes` accumulates, so it is not an attribute);
 * - the other capitalised names (rule 7), as `other`.
 *
 * A name found by several rules keeps the first specific type (`person`, `organization`,
 * `location`) over `other`.
 *
 * @param text - a rendered conversation, or a plain text
 * @returns the entities
 * @throws MemoryArgumentError when `text` is not a string
 * @example
 * ```ts
 * extractEntitiesLocally('USER: I work at Acme and I met Bob.');
 * // [{ name: 'User', type: 'person', attributes: { works_at: 'Acme' } },
 * //  { name: 'Acme', type: 'organization', attributes: {} },
 * //  { name: 'Bob', type: 'other', attributes: {} }]
 * ```
 */
export const extractEntitiesLocally = (text: string): readonly ExtractedEntity[] => {
  const { facts, names } = findFacts(checkText('extractEntitiesLocally', text));
  const entities = new Map<string, Building>();
  const add = (name: string, type: LocalEntityType): Building => {
    const key = name.toLowerCase();
    const known = entities.get(key);
    if (known !== undefined) {
      if (known.type === 'other') known.type = type;
      return known;
    }
    const entity: Building = { name, type, attributes: new Map() };
    entities.set(key, entity);
    return entity;
  };
  for (const fact of facts) {
    const subject = add(fact.subject, fact.subjectType);
    if (fact.objectType !== undefined) add(fact.object, fact.objectType);
    if (ATTRIBUTE_RELATIONS.has(fact.relation)) subject.attributes.set(fact.relation, fact.object);
  }
  for (const { name } of names) add(name, 'other');
  return [...entities.values()].map(({ name, type, attributes }) => ({
    name,
    type,
    attributes: Object.fromEntries(attributes),
  }));
};
