import { sentenceDate } from './dates';
import { nameAt, nameEndingAt, phraseAt } from './phrases';
import { type Agreement, VERBS } from './verbs';
import { sentencesOf, userMessages, type Word, wordsOf } from './words';

/**
 * The patterns of the local extractor (rules 1 to 7 of `extractTriplesLocally`'s table). Each
 * pattern is tried at one word of a sentence and reads at most a few words around it, so a text
 * is read in one pass.
 */

/**
 * The subject of first-person statements until the user states a name (`I work at Acme` →
 * `User works_at Acme`).
 *
 * @example
 * ```ts
 * LOCAL_USER_ENTITY; // 'User'
 * ```
 */
export const LOCAL_USER_ENTITY = 'User';

/**
 * The entity types the local extractor guesses, by the pattern that found the name.
 *
 * @internal
 */
export type LocalEntityType = 'person' | 'organization' | 'location' | 'other';

/**
 * One fact found: `subject --[relation]--> object`, the types the pattern implies for its ends
 * (`undefined`: the end is not an entity, such as `developer` in `I am a developer`), and the
 * date of its sentence.
 *
 * @internal
 */
export interface Finding {
  readonly subject: string;
  readonly subjectType: LocalEntityType;
  readonly relation: string;
  readonly object: string;
  readonly objectType: LocalEntityType | undefined;
  readonly validFrom: number | undefined;
}

/**
 * A capitalised name the patterns did not use (rule 7): an entity of type `other`.
 *
 * @internal
 */
export interface LooseName {
  readonly name: string;
}

/** The most phrases one `like` reads (`I like tea, jazz and chess`). */
const LIKED_PHRASES = 5;
/** Words that may stand between a subject and its verb (`I really like`, `I now live in`). */
const ADVERBS = /* @__PURE__ */ new Set([
  'really',
  'also',
  'now',
  'still',
  'currently',
  'actually',
  'just',
]);
/** Auxiliaries before a verb (`I have worked`, `Alice is working`, `I've been living`). */
const AUXILIARIES = /* @__PURE__ */ new Set(['am', 'is', 'was', 'have', 'has', 'had', 'been']);
/** First-person subjects; the contracted ones hold an auxiliary. */
const FIRST_PERSON = /* @__PURE__ */ new Set(['i', "i'm", "i've"]);
/** What the patterns know while reading a sentence. */
interface Reading {
  readonly words: readonly Word[];
  /** The first person: {@link LOCAL_USER_ENTITY}, or the name the user stated. */
  user: string;
  /** The subject of the sentence's last fact, for `… and live in Paris`. */
  last: { readonly name: string; readonly type: LocalEntityType } | undefined;
}

/**
 * The subject of a verb at `verb`, reading back over at most three adverbs and auxiliaries: `I`
 * (`I`, `I'm`, `I've`), a name, or, after `and`, the sentence's last subject. The verb's form
 * decides which may stand: `work` takes the first person, `works` a name, `working` either after
 * an auxiliary (`I'm working`, `Alice is working`), `worked` either.
 */
const subjectOf = (
  reading: Reading,
  verb: number,
  agreement: Agreement,
): { readonly name: string; readonly type: LocalEntityType } | undefined => {
  const { words } = reading;
  let j = verb - 1;
  let auxiliary = false;
  for (let step = 0; step < 3; step++) {
    const word = words[j]?.lower ?? '';
    if (ADVERBS.has(word)) j--;
    else if (AUXILIARIES.has(word)) {
      auxiliary = true;
      j--;
    } else break;
  }
  const before = words[j]?.lower ?? '';
  if (before === 'and') return reading.last;
  if (FIRST_PERSON.has(before)) {
    if (before !== 'i') auxiliary = true;
    if (agreement === 'third' || (agreement === 'progressive' && !auxiliary)) return undefined;
    return { name: reading.user, type: 'person' };
  }
  if (agreement === 'first' || (agreement === 'progressive' && !auxiliary)) return undefined;
  const name = nameEndingAt(words, j);
  return name === undefined ? undefined : { name, type: 'person' };
};

type Found = Omit<Finding, 'validFrom'>;

/** Rule 1: `my name is X`, `my name's X`, `call me X`, `I'm X`, `I am X` (X capitalised). */
const statedName = (reading: Reading, i: number): Found | undefined => {
  const { words } = reading;
  const word = words[i]?.lower;
  let start: number | undefined;
  if (word === 'name' && words[i - 1]?.lower === 'my' && words[i + 1]?.lower === 'is')
    start = i + 2;
  else if (word === "name's" && words[i - 1]?.lower === 'my') start = i + 1;
  else if (word === 'call' && words[i + 1]?.lower === 'me') start = i + 2;
  else if (word === "i'm") start = i + 1;
  else if (word === 'i' && words[i + 1]?.lower === 'am') start = i + 2;
  if (start === undefined) return undefined;
  const found = nameAt(words, start, 3);
  if (found === undefined) return undefined;
  // `I'm X` is a name only when the clause ends after it: not `I'm Canadian by birth`.
  const next = words[found.end];
  const loose = word === "i'm" || word === 'i';
  if (loose && next !== undefined && !next.punct && next.lower !== 'and' && next.lower !== 'but')
    return undefined;
  return {
    subject: LOCAL_USER_ENTITY,
    subjectType: 'person',
    relation: 'name',
    object: found.name,
    objectType: 'person',
  };
};

/** Rule 2: `X is a Y`, `I'm a Y`, `I am an Y` (Y a phrase: `software engineer`). */
const isA = (reading: Reading, i: number): Found | undefined => {
  const { words } = reading;
  const article = words[i]?.lower;
  if (article !== 'a' && article !== 'an') return undefined;
  const verb = words[i - 1]?.lower;
  let subject: { readonly name: string; readonly type: LocalEntityType } | undefined;
  if (verb === "i'm" || (verb === 'am' && words[i - 2]?.lower === 'i')) {
    subject = { name: reading.user, type: 'person' };
  } else if (verb === 'is') {
    if (words[i - 2]?.lower === 'and') subject = reading.last;
    else {
      const name = nameEndingAt(words, i - 2);
      subject = name === undefined ? undefined : { name, type: 'other' };
    }
  }
  const object = subject === undefined ? undefined : phraseAt(words, i + 1);
  if (subject === undefined || object === undefined) return undefined;
  return {
    subject: subject.name,
    subjectType: subject.type,
    relation: 'is_a',
    object: object.phrase,
    objectType: undefined,
  };
};

/** Rules 3 to 5: `works at/for X`, `lives in X`/`moved to X`, `likes/loves/prefers/enjoys X`. */
const verbFacts = (reading: Reading, i: number): Found[] => {
  const { words } = reading;
  const verb = VERBS().get(words[i]?.lower ?? '');
  if (verb === undefined) return [];
  const subject = subjectOf(reading, i, verb.agreement);
  if (subject === undefined) return [];
  const fact = (object: string, objectType: LocalEntityType | undefined): Found => ({
    subject: subject.name,
    subjectType: subject.type,
    relation: verb.relation,
    object,
    objectType,
  });
  if (verb.relation !== 'likes') {
    if (!verb.preposition.includes(words[i + 1]?.lower ?? '')) return [];
    const object = nameAt(words, i + 2);
    if (object === undefined) return [];
    return [fact(object.name, verb.relation === 'works_at' ? 'organization' : 'location')];
  }
  // `I like tea, jazz and chess`: one fact per phrase, a capitalised one is also an entity.
  const liked: Found[] = [];
  let at = i + 1;
  while (liked.length < LIKED_PHRASES) {
    const name = nameAt(words, at);
    const phrase = name === undefined ? phraseAt(words, at) : undefined;
    const end = name?.end ?? phrase?.end;
    if (end === undefined) break;
    liked.push(fact(name?.name ?? phrase?.phrase ?? '', name === undefined ? undefined : 'other'));
    const joiner = words[end]?.lower;
    if (joiner !== ',' && joiner !== 'and' && joiner !== 'or') break;
    at = words[end + 1]?.lower === 'and' ? end + 2 : end + 1;
  }
  return liked;
};

/**
 * Reads the facts and the loose names of a rendered conversation (or a plain text), in the
 * order they are stated. The first person is always {@link LOCAL_USER_ENTITY}: a stated name is
 * the fact `User --[name]--> X`, so the user's facts keep one subject across extractions (each
 * reads only the messages past its cursor, so a name stated in an earlier run is not seen again).
 *
 * @internal
 */
export const findFacts = (
  conversation: string,
): { readonly facts: readonly Finding[]; readonly names: readonly LooseName[] } => {
  const facts: Finding[] = [];
  const names: LooseName[] = [];
  const user = LOCAL_USER_ENTITY;
  for (const message of userMessages(conversation)) {
    for (const sentence of sentencesOf(message)) {
      const words = wordsOf(sentence);
      if (words.length === 0) continue;
      const reading: Reading = { words, user, last: undefined };
      const found: Found[] = [];
      for (let i = 0; i < words.length; i++) {
        const here = [statedName(reading, i), isA(reading, i), ...verbFacts(reading, i)];
        for (const fact of here) {
          if (fact === undefined) continue;
          found.push(fact);
          if (fact.relation !== 'name')
            reading.last = { name: fact.subject, type: fact.subjectType };
        }
      }
      const validFrom = sentenceDate(words);
      const used = new Set<string>();
      for (const fact of found) {
        facts.push({ ...fact, validFrom: fact.relation === 'name' ? undefined : validFrom });
        used.add(fact.subject.toLowerCase()).add(fact.object.toLowerCase());
      }
      // Rule 7: other capitalised names, except one that opens the sentence.
      for (let i = nameAt(words, 0)?.end ?? 1; i < words.length;) {
        const name = nameAt(words, i);
        if (name === undefined) {
          i++;
          continue;
        }
        if (!used.has(name.name.toLowerCase())) names.push({ name: name.name });
        i = name.end;
      }
    }
  }
  return { facts, names };
};
