/**
 * The facts the recall benchmark plants, by LongMemEval question type, and the questions asked
 * about them. Each evidence turn holds a distinctive key (an invented name or a number with its
 * unit) that nothing else in any history holds; the question is phrased differently from the
 * evidence (it shares a topic word or two with it, as a person's later question does, never the
 * sentence) and never holds a key. An abstention question asks about what the planted sessions
 * come near but never say.
 */
import type { Turn } from './filler';

/** LongMemEval's question types. */
export type QuestionType =
  | 'single-session-user'
  | 'single-session-assistant'
  | 'single-session-preference'
  | 'multi-session'
  | 'knowledge-update'
  | 'temporal-reasoning';

/** What a template makes: the evidence, per session, and the question. */
export interface MadeFact {
  readonly question: string;
  readonly answer: string;
  /** Per planted session, its evidence turns (oldest session first). */
  readonly turns: readonly Turn[][];
  readonly keys: readonly string[];
  readonly stale?: readonly string[];
  /** A question the same sessions do not answer. */
  readonly abstainQuestion: string;
}

/** A kind of planted fact. */
export interface FactTemplate {
  readonly type: QuestionType;
  make(next: () => number, used: Set<string>): MadeFact;
}

const SYLLABLES = [
  'bel',
  'mon',
  'qua',
  'ri',
  'vo',
  'sen',
  'dal',
  'ko',
  'ra',
  'lin',
  'tor',
  'vey',
  'mar',
  'zu',
  'fen',
  'ost',
  'ula',
  'bri',
  'cal',
  'dor',
  'eth',
  'gri',
  'hal',
  'jun',
  'kel',
  'lor',
  'nim',
  'pel',
  'rov',
  'sil',
  'tam',
  'vin',
  'wex',
  'yar',
  'zel',
];

/** An invented name no history holds (three syllables, capitalised), each once. */
export const inventName = (next: () => number, used: Set<string>): string => {
  for (;;) {
    const name = Array.from(
      { length: 3 },
      () => SYLLABLES[Math.floor(next() * SYLLABLES.length)] as string,
    ).join('');
    const key = name[0]?.toUpperCase() + name.slice(1);
    if (!used.has(key)) {
      used.add(key);
      return key;
    }
  }
};

/** A number with its unit that no other fact holds (`'3,417 kilometres'`). */
const inventAmount = (next: () => number, used: Set<string>, unit: string): string => {
  for (;;) {
    const value = `${1_000 + Math.floor(next() * 8_999)}`;
    const key = `${value.slice(0, 1)},${value.slice(1)} ${unit}`;
    if (!used.has(key)) {
      used.add(key);
      return key;
    }
  }
};

const pick = <T>(next: () => number, list: readonly T[]): T =>
  list[Math.floor(next() * list.length)] as T;

const user = (content: string, evidence = true): Turn => ({
  role: 'user',
  content,
  has_answer: evidence,
});
const assistant = (content: string, evidence = false): Turn => ({
  role: 'assistant',
  content,
  has_answer: evidence,
});
const ack = (): Turn => assistant('Thanks for telling me, I will keep that in mind.');

const ITEMS = [
  'espresso machine',
  'road bike',
  'standing desk',
  'rain jacket',
  'air fryer',
  'telescope',
];
const RELATIVES = ['sister', 'brother', 'cousin', 'neighbour', 'aunt', 'colleague'];
const PETS = ['puppy', 'kitten', 'parrot', 'rabbit', 'tortoise'];
/** Trips as the question names them, and as the assistant's answer does. */
const TRIPS = [
  ['weekend in Lisbon', 'Lisbon weekend'],
  ['trip to Kyoto', 'Kyoto trip'],
  ['holiday in Crete', 'Crete holiday'],
  ['visit to Vienna', 'Vienna visit'],
] as const;
const DISHES = ['sourdough bread', 'pizza dough', 'focaccia', 'brioche'];
const DEVICES = ['laptop', 'router', 'phone', 'smart television'];
const GENRES = ['science fiction', 'crime', 'historical', 'fantasy'];
const CUISINES = ['Ethiopian', 'Georgian', 'Peruvian', 'Korean'];
const ANIMALS = ['dog', 'cat', 'ferret', 'hamster'];
const VEHICLES = ['car', 'van', 'motorbike', 'camper'];

/** The templates, a few per type. */
export const PLANTED_FACTS: readonly FactTemplate[] = [
  {
    type: 'single-session-user',
    make: (next, used) => {
      const item = pick(next, ITEMS);
      const shop = inventName(next, used);
      return {
        question: `Which shop did my new ${item} come from?`,
        answer: shop,
        turns: [
          [user(`I finally picked up the ${item} at ${shop}, the shop by the station.`), ack()],
        ],
        keys: [shop],
        abstainQuestion: `Which shop did my new ${item === 'telescope' ? 'microscope' : 'telescope'} come from?`,
      };
    },
  },
  {
    type: 'single-session-user',
    make: (next, used) => {
      const relative = pick(next, RELATIVES);
      const pet = pick(next, PETS);
      const name = inventName(next, used);
      const other = pick(
        next,
        RELATIVES.filter((r) => r !== relative),
      );
      return {
        question: `What is the name of my ${relative}'s ${pet}?`,
        answer: name,
        turns: [[user(`My ${relative} just brought home a ${pet}, they call it ${name}.`), ack()]],
        keys: [name],
        abstainQuestion: `What is the name of my ${other}'s ${pet}?`,
      };
    },
  },
  {
    type: 'single-session-assistant',
    make: (next, used) => {
      const [trip, answered] = pick(next, TRIPS);
      const place = inventName(next, used);
      return {
        question: `Which guesthouse did you suggest for my ${trip}?`,
        answer: place,
        turns: [
          [
            user(`I need somewhere quiet to stay for my ${trip}.`, false),
            assistant(
              `For your ${answered} I would book the ${place} guesthouse: it is close to the old town and very quiet at night.`,
              true,
            ),
          ],
        ],
        keys: [place],
        abstainQuestion: `Which restaurant did you suggest for my ${trip}?`,
      };
    },
  },
  {
    type: 'single-session-assistant',
    make: (next, used) => {
      const device = pick(next, DEVICES);
      const setting = inventName(next, used);
      return {
        question: `What setting did you tell me to change on my ${device}?`,
        answer: setting,
        turns: [
          [
            user(`My ${device} keeps dropping the connection every evening.`, false),
            assistant(
              `On a ${device} that drops out, open the advanced options and turn off the setting called ${setting}.`,
              true,
            ),
          ],
        ],
        keys: [setting],
        abstainQuestion: `What cable did you tell me to buy for my ${device}?`,
      };
    },
  },
  {
    type: 'single-session-assistant',
    make: (next, used) => {
      const dish = pick(next, DISHES);
      const flour = inventName(next, used);
      return {
        question: `Which flour did you recommend for my ${dish}?`,
        answer: flour,
        turns: [
          [
            user(`My ${dish} never rises properly, what am I doing wrong?`, false),
            assistant(
              `For ${dish}, use ${flour} flour, which has more protein, and give it a slower rise.`,
              true,
            ),
          ],
        ],
        keys: [flour],
        abstainQuestion: `Which oven temperature did you recommend for my ${dish}?`,
      };
    },
  },
  {
    type: 'single-session-preference',
    make: (next, used) => {
      const genre = pick(next, GENRES);
      const author = inventName(next, used);
      return {
        question: 'Can you recommend a novel for my holiday reading?',
        answer: `Something ${genre}, in the vein of ${author}.`,
        turns: [
          [
            user(
              `Honestly I only read ${genre} novels these days; ${author} is my favourite writer.`,
            ),
            ack(),
          ],
        ],
        keys: [author],
        abstainQuestion: 'Can you recommend a podcast for my commute?',
      };
    },
  },
  {
    type: 'single-session-preference',
    make: (next, used) => {
      const cuisine = pick(next, CUISINES);
      const dish = inventName(next, used);
      return {
        question: `Any ideas for a dinner party menu this weekend?`,
        answer: `${cuisine} dishes, vegetarian, such as ${dish}.`,
        turns: [
          [
            user(
              `Whenever friends come over for dinner I cook vegetarian and ${cuisine}; ${dish} is what every party guest asks for.`,
            ),
            ack(),
          ],
        ],
        keys: [dish],
        abstainQuestion: 'Any ideas for a birthday present for my boss?',
      };
    },
  },
  {
    type: 'multi-session',
    make: (next, used) => {
      const count = 2 + Math.floor(next() * 3);
      const names = Array.from({ length: count }, () => inventName(next, used));
      return {
        question: 'How many pets have I adopted, and what are their names?',
        answer: `${count}: ${names.join(', ')}`,
        turns: names.map((name) => [
          user(
            `We adopted a ${pick(next, ANIMALS)} from the shelter today, another pet for the family; its name is ${name}.`,
          ),
          ack(),
        ]),
        keys: names,
        abstainQuestion: 'How many horses have I ridden, and what were their names?',
      };
    },
  },
  {
    type: 'multi-session',
    make: (next, used) => {
      const count = 2 + Math.floor(next() * 3);
      const names = Array.from({ length: count }, () => inventName(next, used));
      return {
        question: 'Which courses have I enrolled in so far?',
        answer: names.join(', '),
        turns: names.map((name) => [
          user(
            `Good news: the community college has me enrolled for the ${name} course, classes start soon.`,
          ),
          ack(),
        ]),
        keys: names,
        abstainQuestion: 'Which courses have I taught so far?',
      };
    },
  },
  {
    type: 'knowledge-update',
    make: (next, used) => {
      const vehicle = pick(next, VEHICLES);
      const [old, latest] = [inventName(next, used), inventName(next, used)];
      return {
        question: `Where is my ${vehicle} parked these days?`,
        answer: `At the ${latest} garage.`,
        turns: [
          [user(`My ${vehicle} is parked at the ${old} garage for now.`), ack()],
          [
            user(
              `Update: I moved my ${vehicle} to the ${latest} garage, it is parked there from now on.`,
            ),
            ack(),
          ],
        ],
        keys: [latest],
        stale: [old],
        abstainQuestion: `Where is my boat moored these days?`,
      };
    },
  },
  {
    type: 'knowledge-update',
    make: (next, used) => {
      const [old, latest] = [inventName(next, used), inventName(next, used)];
      return {
        question: 'Who is my dentist now?',
        answer: `Dr. ${latest}`,
        turns: [
          [user(`For now my dentist is Dr. ${old}, at the practice near the station.`), ack()],
          [user(`I changed practices; Dr. ${latest} is now the dentist I see.`), ack()],
        ],
        keys: [latest],
        stale: [old],
        abstainQuestion: 'Who is my physiotherapist now?',
      };
    },
  },
  {
    type: 'temporal-reasoning',
    make: (next, used) => {
      const plan = inventName(next, used);
      const [first, total] = [
        inventAmount(next, used, 'metres'),
        inventAmount(next, used, 'kilometres'),
      ];
      return {
        question: 'How long did my marathon training plan take from start to finish?',
        answer: 'The time between the two sessions that mention it.',
        turns: [
          [
            user(
              `Today I started the ${plan} plan for the marathon, a first training run of ${first}.`,
            ),
            ack(),
          ],
          [
            user(
              `Today I finished the ${plan} plan for the marathon: ${total} of training in total!`,
            ),
            ack(),
          ],
        ],
        keys: [first, total],
        abstainQuestion: 'How long did my swimming course take from start to finish?',
      };
    },
  },
  {
    type: 'temporal-reasoning',
    make: (next, used) => {
      const house = inventName(next, used);
      const [viewing, moving] = [inventName(next, used), inventName(next, used)];
      return {
        question: 'How many days passed between viewing the flat and moving in?',
        answer: 'The time between the two sessions that mention it.',
        turns: [
          [
            user(
              `We went to a viewing of a flat on ${house} Street today with the agent, ${viewing}.`,
            ),
            ack(),
          ],
          [
            user(
              `Moving day! The ${moving} removal van got everything into the flat on ${house} Street.`,
            ),
            ack(),
          ],
        ],
        keys: [viewing, moving],
        abstainQuestion: 'How many days passed between buying the car and selling it?',
      };
    },
  },
];
