/**
 * Scripted conversations for the knowledge benchmark (offline, deterministic): a user tells the
 * assistant about three people over 50 turns: facts stated, restated, updated (a move, a new
 * employer, a new job, sometimes back to an earlier value) and contradicted (a correction),
 * interleaved with unrelated requests, some of which name a person. Each user turn gets a short
 * assistant reply.
 *
 * Every user sentence is checked against the local extractor when it is written: it must give
 * exactly the facts the script says it states (unrelated turns: none), so the benchmark measures
 * the memories, not the extractor. Same seed, same conversation.
 */
import { extractTriplesLocally } from '../../src/library';
import { createRandom } from '../fixtures';
import { factKey, FactTruth, type Triple } from './factTruth';

/**
 * What a user turn does to the facts: states one for the first time, restates one in force,
 * updates one (a new value), contradicts one (a correction), or states nothing.
 *
 * @example
 * ```ts
 * const kind: TurnKind = 'updated';
 * ```
 */
export type TurnKind = 'stated' | 'restated' | 'updated' | 'contradicted' | 'unrelated';

/**
 * One turn of a scripted conversation: the user's message, the assistant's reply, and the facts
 * the user's message states (what the local extractor reads from it).
 *
 * @example
 * ```ts
 * const turn: ScriptedTurn = {
 *   kind: 'stated', user: 'Priya works at Globex.', assistant: 'Noted.',
 *   states: [{ subject: 'Priya', relation: 'works_at', object: 'Globex' }],
 * };
 * ```
 */
export interface ScriptedTurn {
  readonly kind: TurnKind;
  readonly user: string;
  readonly assistant: string;
  readonly states: readonly Triple[];
}

/**
 * A scripted conversation: its seed, the people it talks about, its turns, and the facts in force
 * at its end (the ground truth).
 *
 * @example
 * ```ts
 * const { people, turns, finalFacts } = scriptConversation(1);
 * ```
 */
export interface ScriptedConversation {
  readonly seed: number;
  readonly people: readonly string[];
  readonly turns: readonly ScriptedTurn[];
  readonly finalFacts: readonly Triple[];
}

/** A list written as `a|b|c`. */
const listOf = (text: string): readonly string[] => text.split('|');

/** Names, employers, cities, jobs and tastes the script draws from. */
const PEOPLE = listOf(
  'Priya|Kwame|Ingrid|Tomás|Mei|Rafael|Aisha|Lars|Yuki|Omar|' +
    'Elena|Diego|Nadia|Felix|Sofia|Hamid|Chloe|Bruno|Leila|Viktor',
);
const EMPLOYERS = listOf(
  'Globex|Initech|Hooli|Acme|Stark Industries|Wayne Enterprises|Umbrella|' +
    'Soylent|Cyberdyne|Bank of America|Vandelay Industries|Wonka',
);
const CITIES = listOf(
  'Lisbon|Oslo|Berlin|Nairobi|Seoul|Lima|Cairo|Montréal|São Paulo|Zürich|New York|Kyoto',
);
const JOBS = listOf(
  'nurse|teacher|software engineer|pharmacist|architect|chef|data analyst|' +
    'lawyer|photographer|pilot',
);
const LIKES = listOf(
  'jazz|chess|hiking|tea|sushi|board games|cycling|opera|gardening|football|pottery|climbing',
);

/** Requests that state no fact; `{X}` is one of the people. */
const UNRELATED = [
  "What's the weather like in Paris tomorrow?",
  'Can you recommend a quiet restaurant near the station?',
  'Please summarize the report I sent you this morning.',
  'I need to book a train to Berlin for Friday.',
  'How do I convert a CSV file to JSON in Python?',
  'Translate "good morning" into Portuguese, please.',
  'Suggest a good name for a black cat.',
  'Write a two-line poem about autumn rain.',
  'Which is faster for short trips, the tram or the bus?',
  'Remind me to call {X} about the invoice.',
  'What should I get {X} for the birthday next week?',
  'Where does {X} work these days',
  'Is {X} still in town',
  'Draft a short thank-you note to {X}.',
  'Lunch with {X} was fun today.',
  'How many minutes should I boil an egg?',
  'Explain the difference between a list and a tuple.',
  'Give me three ideas for a rainy weekend.',
] as const;

/** Replies to a turn that states a fact, and to a request. */
const NOTED = ['Noted.', 'Got it, thanks for telling me.', 'Thanks, I will keep that in mind.'];
const ANSWERS = [
  'Sure, I can help with that.',
  'Here is a short answer: it depends on the schedule.',
  'Done. Anything else?',
];

/** Sentences per relation and turn kind; `{X}` the person, `{Y}` the new object, `{OLD}` the old. */
const SENTENCES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  works_at: {
    stated: ['{X} works at {Y}.', 'My friend {X} works for {Y}.'],
    restated: ['As I said, {X} works at {Y}.', '{X} still works at {Y}, by the way.'],
    updated: [
      '{X} now works at {Y}.',
      '{X} got a new job. {X} works at {Y} now.',
      '{X} has worked at {Y} since March 2025.',
    ],
    contradicted: [
      'No wait, {X} works for {Y}, not {OLD}.',
      'Sorry, I mixed that up: {X} works at {Y}.',
    ],
  },
  lives_in: {
    stated: ['{X} lives in {Y}.', 'My colleague {X} lives in {Y}.'],
    restated: ['{X} still lives in {Y}.', 'Yes, {X} lives in {Y}.'],
    updated: ['{X} moved to {Y}.', '{X} relocated to {Y} last month.'],
    contradicted: ['Actually, {X} lives in {Y}, not {OLD}.'],
  },
  is_a: {
    stated: ['{X} is {a} {Y}.'],
    restated: ['Like I said, {X} is {a} {Y}.'],
    updated: ['{X} is {a} {Y} now.'],
    contradicted: ['Sorry, I was wrong: {X} is {a} {Y}.'],
  },
  likes: {
    stated: ['{X} loves {Y}.', '{X} enjoys {Y}.'],
    restated: ['{X} really likes {Y}.'],
  },
};

const OBJECTS: Readonly<Record<string, readonly string[]>> = {
  works_at: EMPLOYERS,
  lives_in: CITIES,
  is_a: JOBS,
  likes: LIKES,
};
const RELATIONS = ['works_at', 'lives_in', 'is_a', 'likes'] as const;

const fill = (template: string, person: string, object: string, old = ''): string =>
  template
    .replaceAll('{X}', person)
    .replaceAll('{Y}', object)
    .replaceAll('{OLD}', old)
    .replaceAll('{a}', /^[aeiou]/i.test(object) ? 'an' : 'a');

/** The user sentence, checked: the local extractor must read exactly `states` from it. */
const checked = (user: string, states: readonly Triple[]): string => {
  const read = extractTriplesLocally(`USER: ${user}`).map(factKey);
  const expected = states.map(factKey);
  if (read.length !== expected.length || read.some((key, i) => key !== expected[i])) {
    throw new Error(
      `scripted sentence ${JSON.stringify(user)} reads as ${JSON.stringify(read)}, expected ${JSON.stringify(expected)}`,
    );
  }
  return user;
};

/**
 * Writes the scripted conversation of `seed`: three people, `turns` user turns (about 40%
 * unrelated), each with a short assistant reply, and the facts in force at the end.
 *
 * @param seed - the generator's seed (one conversation per seed)
 * @param turns - user turns (default 50)
 * @returns the conversation and its ground truth
 * @throws Error when a sentence does not read as intended (a change in the local extractor)
 * @example
 * ```ts
 * const conversation = scriptConversation(7);
 * conversation.turns.length; // 50
 * ```
 */
export const scriptConversation = (seed: number, turns = 50): ScriptedConversation => {
  const random = createRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const people: string[] = [];
  while (people.length < 3) {
    const person = pick(PEOPLE);
    if (!people.includes(person)) people.push(person);
  }
  const truth = new FactTruth();
  /** Every object a (person, relation) has had, oldest first. */
  const history = new Map<string, string[]>();
  const script: ScriptedTurn[] = [];
  const turn = (kind: TurnKind, user: string, states: readonly Triple[]): void => {
    for (const fact of states) {
      truth.state(fact);
      const key = `${fact.subject}\u0000${fact.relation}`;
      history.set(key, [...(history.get(key) ?? []), fact.object]);
    }
    const assistant = pick(kind === 'unrelated' ? ANSWERS : NOTED);
    script.push({ kind, user: checked(user, states), assistant, states });
  };
  while (script.length < turns) {
    if (random() < 0.4) {
      turn('unrelated', pick(UNRELATED).replaceAll('{X}', pick(people)), []);
      continue;
    }
    const person = pick(people);
    const relation = pick(RELATIONS);
    const sentences = SENTENCES[relation] as Readonly<Record<string, readonly string[]>>;
    const said = history.get(`${person}\u0000${relation}`) ?? [];
    const inForce = truth
      .currentAbout(person)
      .filter((fact) => fact.relation === relation)
      .map((fact) => fact.object);
    const fresh = (OBJECTS[relation] as readonly string[]).filter((o) => !inForce.includes(o));
    const fact = (object: string): Triple => ({ subject: person, relation, object });
    const roll = random();
    if (inForce.length === 0 || (relation === 'likes' && roll < 0.5)) {
      const object = pick(fresh);
      turn('stated', fill(pick(sentences['stated'] ?? []), person, object), [fact(object)]);
    } else if (roll < 0.5 || relation === 'likes') {
      const object = pick(inForce);
      turn('restated', fill(pick(sentences['restated'] ?? []), person, object), [fact(object)]);
    } else {
      const old = inForce[0] as string;
      // Now and then back to an earlier value (Lisbon, Oslo, Lisbon again).
      const earlier = said.filter((o) => o !== old);
      const object = earlier.length > 0 && random() < 0.25 ? pick(earlier) : pick(fresh);
      const kind = roll < 0.8 ? 'updated' : 'contradicted';
      turn(kind, fill(pick(sentences[kind] ?? []), person, object, old), [fact(object)]);
    }
  }
  return { seed, people, turns: script, finalFacts: truth.current() };
};
