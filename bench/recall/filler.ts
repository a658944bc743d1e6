/**
 * Filler sessions for the recall benchmark: everyday chat on a dozen topics (a user asks, the
 * assistant answers at length, as in LongMemEval's haystacks), drawn from a seeded generator.
 * The topics use the questions' everyday words (dinner, trip, course, flat, pet, dentist,
 * training…), so those words are common distractors; no filler turn holds an invented name or a
 * number with a unit, so none holds an evidence key.
 */

/** One turn of a session, LongMemEval's shape. */
export interface Turn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
  /** On an evidence turn: `true`. */
  readonly has_answer?: boolean;
}

/** A topic: its nouns and the activities around them. */
interface Topic {
  readonly nouns: readonly string[];
  readonly verbs: readonly string[];
}

const TOPICS: readonly Topic[] = [
  {
    nouns: ['trip', 'flight', 'hotel', 'guesthouse', 'beach', 'museum', 'train', 'holiday'],
    verbs: ['book', 'plan', 'visit', 'pack for'],
  },
  {
    nouns: ['dinner', 'recipe', 'bread', 'dough', 'oven', 'sauce', 'menu', 'flour'],
    verbs: ['cook', 'bake', 'prepare', 'season'],
  },
  {
    nouns: ['project', 'meeting', 'deadline', 'report', 'team', 'manager', 'presentation'],
    verbs: ['finish', 'schedule', 'review', 'present'],
  },
  {
    nouns: ['dentist', 'doctor', 'appointment', 'sleep', 'back pain', 'vitamins'],
    verbs: ['book', 'manage', 'improve', 'track'],
  },
  {
    nouns: ['training', 'run', 'marathon', 'gym', 'yoga class', 'swimming'],
    verbs: ['start', 'keep up', 'recover from', 'plan'],
  },
  {
    nouns: ['flat', 'garden', 'kitchen', 'sofa', 'paint', 'moving boxes', 'landlord'],
    verbs: ['clean', 'fix', 'decorate', 'organise'],
  },
  {
    nouns: ['course', 'exam', 'lecture', 'notes', 'essay', 'class'],
    verbs: ['study for', 'prepare', 'enrol in', 'finish'],
  },
  {
    nouns: ['pet', 'dog', 'cat', 'vet', 'leash', 'food bowl'],
    verbs: ['feed', 'walk', 'train', 'groom'],
  },
  {
    nouns: ['laptop', 'phone', 'router', 'app', 'password', 'backup'],
    verbs: ['set up', 'update', 'reset', 'repair'],
  },
  {
    nouns: ['budget', 'savings', 'rent', 'bank', 'taxes', 'insurance'],
    verbs: ['sort out', 'compare', 'pay', 'plan'],
  },
  {
    nouns: ['novel', 'book club', 'library', 'podcast', 'film', 'series'],
    verbs: ['read', 'finish', 'recommend', 'watch'],
  },
  {
    nouns: ['birthday', 'party', 'present', 'wedding', 'family dinner', 'garage sale'],
    verbs: ['organise', 'host', 'plan', 'wrap'],
  },
];

const QUESTIONS = [
  'Can you help me {verb} the {noun}? I keep putting it off.',
  'What is the best way to {verb} the {noun} without spending the whole weekend on it?',
  'I have to {verb} the {noun} soon, any tips on where to begin?',
  'Quick question about the {noun}: should I {verb} it now or wait until next month?',
  'My friend says I should {verb} the {noun} differently, what do you think?',
  'How long does it usually take to {verb} a {noun}?',
];

const SENTENCES = [
  'When it comes to the {noun}, it helps to start small and build a routine you can keep.',
  'Most people find it easier to {verb} the {noun} in short sessions rather than one long push.',
  'Write down what you want from the {noun} first, then pick the one step that matters most.',
  'If you {verb} the {noun} early in the day, you will have more energy for the rest of it.',
  'A common mistake is to {verb} the {noun} all at once and then give up when it gets hard.',
  'It is worth checking what others recommend, but your own situation with the {noun} matters more.',
  'Set a simple goal for the week and look back on Sunday at how the {noun} went.',
  'Do not worry if the first attempt is not perfect; the second time you {verb} it will be easier.',
  'Keep a short list of what worked and what did not, so next time you can skip the guesswork.',
  'If you are unsure, ask someone who has done it before to walk you through the {noun}.',
  'Budget a little more time than you think you need, because the {noun} rarely goes to plan.',
  'Small improvements add up: a few minutes a day on the {noun} is better than a long session once a month.',
  'Try to {verb} the {noun} with a friend, since it is more fun and you are less likely to skip it.',
  'Remember to take breaks, and do not compare your progress with anyone else.',
];

const pick = <T>(next: () => number, list: readonly T[]): T =>
  list[Math.floor(next() * list.length)] as T;

const fill = (template: string, topic: Topic, next: () => number): string =>
  template
    .replaceAll('{noun}', () => pick(next, topic.nouns))
    .replaceAll('{verb}', () => pick(next, topic.verbs));

/**
 * One filler session: six to nine exchanges on one or two topics, the user's question then an
 * answer of twelve to eighteen sentences (about 2,300 tokens in all, as LongMemEval's sessions).
 */
export const fillerSession = (next: () => number): Turn[] => {
  const topics = [pick(next, TOPICS), pick(next, TOPICS)];
  const exchanges = 6 + Math.floor(next() * 4);
  const turns: Turn[] = [];
  for (let i = 0; i < exchanges; i++) {
    const topic = topics[i % 2] as Topic;
    turns.push({ role: 'user', content: fill(pick(next, QUESTIONS), topic, next) });
    const count = 12 + Math.floor(next() * 7);
    const answer = Array.from({ length: count }, () => fill(pick(next, SENTENCES), topic, next));
    turns.push({ role: 'assistant', content: answer.join(' ') });
  }
  return turns;
};
