/**
 * The recall benchmark's data: histories of timestamped chat sessions with facts planted in them
 * and questions about those facts, in LongMemEval's JSON shape (Wu et al., 2024:
 * `question_id`, `question_type`, `question`, `answer`, `question_date`, `haystack_session_ids`,
 * `haystack_dates`, `haystack_sessions` of `{ role, content, has_answer? }` turns,
 * `answer_session_ids`; abstention ids end in `_abs`), plus our `evidence_keys`: the distinctive
 * values a view must hold for the question to be answerable from it.
 *
 * Deterministic: everything comes from a seeded generator (mulberry32). Questions share
 * histories in groups (each group's history holds its questions' evidence sessions at seeded
 * places among filler sessions; every question of the group is asked after the last session),
 * so a 500-session history is built once for 20 questions.
 */
import { PLANTED_FACTS, type FactTemplate, type QuestionType } from './facts';
import { fillerSession, type Turn } from './filler';

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** One LongMemEval instance (with our `evidence_keys`). */
export interface RecallInstance {
  readonly question_id: string;
  readonly question_type: QuestionType;
  readonly question: string;
  readonly answer: string;
  readonly question_date: string;
  readonly haystack_session_ids: readonly string[];
  readonly haystack_dates: readonly string[];
  readonly haystack_sessions: readonly (readonly Turn[])[];
  readonly answer_session_ids: readonly string[];
  /** Every key a view must hold (for a knowledge update: the latest value only). */
  readonly evidence_keys: readonly string[];
  /** For a knowledge update: the stale value (a view holding only it answers wrongly). */
  readonly stale_keys?: readonly string[];
  /** For an abstention question: the keys of the near miss its sessions state instead. */
  readonly near_miss_keys?: readonly string[];
}

/** A history shared by a group of questions. */
export interface RecallGroup {
  readonly sessionIds: readonly string[];
  readonly dates: readonly string[];
  readonly sessions: readonly (readonly Turn[])[];
  /** Each session's time, epoch milliseconds (its turns are a minute apart). */
  readonly times: readonly number[];
  readonly questions: readonly RecallInstance[];
}

/**
 * LongMemEval_S's question types and counts (500 questions), abstention being 30 of them spread
 * over the types; scaled to `n` questions by largest remainders.
 */
const PROPORTIONS: readonly [QuestionType, number][] = [
  ['single-session-user', 70],
  ['single-session-assistant', 56],
  ['single-session-preference', 30],
  ['multi-session', 133],
  ['knowledge-update', 78],
  ['temporal-reasoning', 133],
];
const ABSTENTION_SHARE = 30 / 500;

/** How many questions of each type `n` questions hold (and how many of them abstain). */
export const questionPlan = (n: number): { type: QuestionType; abstain: boolean }[] => {
  const exact = PROPORTIONS.map(([type, count]) => ({ type, share: (count / 500) * n }));
  const counts = exact.map((e) => Math.floor(e.share));
  let left = n - counts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, rest: e.share - Math.floor(e.share) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    counts[i] = (counts[i] as number) + 1;
    left--;
  }
  const plan = exact.flatMap((e, i) =>
    Array.from({ length: counts[i] as number }, () => ({ type: e.type, abstain: false })),
  );
  // Abstention: every k-th question of the plan, so it spreads over the types.
  const abstaining = Math.max(1, Math.round(n * ABSTENTION_SHARE));
  for (let j = 0; j < abstaining; j++) {
    const at = Math.floor(((j + 0.5) * plan.length) / abstaining);
    (plan[at] as { abstain: boolean }).abstain = true;
  }
  return plan;
};

/** `2023/05/20 (Sat) 02:21`, LongMemEval's date format (UTC). */
export const longMemEvalDate = (ms: number): string => {
  const d = new Date(ms);
  const pad = (x: number) => String(x).padStart(2, '0');
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} (${day}) ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};

/** Options of {@link generateGroups}. */
export interface DatasetOptions {
  /** Sessions per history (50 or 500 in the benchmark). */
  readonly sessions: number;
  readonly questions: number;
  /** Questions per shared history (default 20). */
  readonly perHistory?: number;
  readonly seed?: number;
}

const START = Date.UTC(2023, 0, 2, 9, 0);
const DAY = 86_400_000;

/**
 * The benchmark's histories and questions: `questions` questions in LongMemEval's proportions,
 * `perHistory` to a history of `sessions` sessions. Each question's evidence sessions are placed
 * at seeded places over the whole history (most of them far from its end); facts planted for one
 * question never state another's keys.
 */
export const generateGroups = (options: DatasetOptions): RecallGroup[] => {
  const { sessions, questions, perHistory = 20, seed = 2024 } = options;
  const next = seeded(seed * 7919 + sessions);
  const plan = questionPlan(questions);
  // Shuffle the plan so that each group mixes the types.
  for (let i = plan.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [plan[i], plan[j]] = [plan[j] as (typeof plan)[number], plan[i] as (typeof plan)[number]];
  }
  const used = new Set<string>();
  const groups: RecallGroup[] = [];
  for (let g = 0; g * perHistory < plan.length; g++) {
    const part = plan.slice(g * perHistory, (g + 1) * perHistory);
    // A history holds one fact of each template at most, while the type has unused ones: a
    // person plants one marathon plan, not five (LongMemEval gives each question its own history).
    const inHistory = new Set<FactTemplate>();
    const planted = part.map(({ type, abstain }, k) =>
      plantFact(type, abstain, next, used, `g${g}q${k}`, inHistory),
    );
    const evidenceCount = planted.reduce((sum, p) => sum + p.sessions.length, 0);
    const fillerCount = Math.max(0, sessions - evidenceCount);
    // Where each planted session goes: after `at` filler sessions, in order per question.
    const ordered = planted
      .flatMap((p, question) =>
        Array.from({ length: p.sessions.length }, () => next())
          .sort((a, b) => a - b)
          .map((place, index) => ({ question, index, place })),
      )
      .map((slot) => ({ ...slot, at: Math.floor(slot.place * (fillerCount + 1)) }))
      .sort((a, b) => a.at - b.at || a.place - b.place);
    const all: { id: string; turns: Turn[]; planted?: { question: number; index: number } }[] = [];
    let filled = 0;
    for (const slot of ordered) {
      while (filled < slot.at) {
        all.push({ id: `s${g}_${all.length}`, turns: fillerSession(next) });
        filled++;
      }
      all.push({
        id: `s${g}_${all.length}`,
        turns: planted[slot.question]?.sessions[slot.index] as Turn[],
        planted: { question: slot.question, index: slot.index },
      });
    }
    while (filled < fillerCount) {
      all.push({ id: `s${g}_${all.length}`, turns: fillerSession(next) });
      filled++;
    }
    const span = Math.max(1, all.length);
    const times = all.map(
      (_, i) => START + Math.floor((i * 400 * DAY) / span) + (i % 7) * 3_600_000,
    );
    const dates = times.map(longMemEvalDate);
    const last = (times[times.length - 1] as number) + DAY;
    const instances = planted.map((p, k): RecallInstance => {
      const answerSessions = all.filter((s) => s.planted?.question === k).map((s) => s.id);
      return {
        question_id: `${p.id}${p.abstain ? '_abs' : ''}`,
        question_type: p.type,
        question: p.question,
        answer: p.answer,
        question_date: longMemEvalDate(last),
        haystack_session_ids: all.map((s) => s.id),
        haystack_dates: dates,
        haystack_sessions: all.map((s) =>
          s.turns.map((turn) =>
            s.planted?.question === k || turn.has_answer !== true
              ? turn
              : { role: turn.role, content: turn.content },
          ),
        ),
        answer_session_ids: p.abstain ? [] : answerSessions,
        evidence_keys: p.keys,
        ...(p.stale.length > 0 ? { stale_keys: p.stale } : {}),
        ...(p.abstain ? { near_miss_keys: p.nearMiss } : {}),
      };
    });
    groups.push({
      sessionIds: all.map((s) => s.id),
      dates,
      sessions: all.map((s) => s.turns),
      times,
      questions: instances,
    });
  }
  return groups;
};

/** A question with its planted sessions (oldest first) and keys. */
interface Planted {
  readonly id: string;
  readonly type: QuestionType;
  readonly abstain: boolean;
  readonly question: string;
  readonly answer: string;
  readonly sessions: readonly Turn[][];
  readonly keys: readonly string[];
  readonly stale: readonly string[];
  readonly nearMiss: readonly string[];
}

const plantFact = (
  type: QuestionType,
  abstain: boolean,
  next: () => number,
  used: Set<string>,
  id: string,
  inHistory: Set<FactTemplate>,
): Planted => {
  const ofType = PLANTED_FACTS.filter((t) => t.type === type);
  const fresh = ofType.filter((t) => !inHistory.has(t));
  const templates = fresh.length > 0 ? fresh : ofType;
  const template = templates[Math.floor(next() * templates.length)] as FactTemplate;
  inHistory.add(template);
  const made = template.make(next, used);
  // Each evidence exchange goes between two exchanges of a filler session.
  const sessions = made.turns.map((evidence) => {
    const filler = fillerSession(next);
    const at = 2 * Math.floor(next() * (filler.length / 2 + 1));
    return [
      ...filler.slice(0, at),
      ...evidence.map((turn) => ({ ...turn, has_answer: !abstain && turn.has_answer === true })),
      ...filler.slice(at),
    ];
  });
  if (!abstain) {
    return { id, type, abstain, ...made, sessions, stale: made.stale ?? [], nearMiss: [] };
  }
  // Abstention: the same sessions (a near miss), a question about what they never say.
  return {
    id,
    type,
    abstain,
    question: made.abstainQuestion,
    answer: 'The conversation does not say.',
    sessions,
    keys: [],
    stale: [],
    nearMiss: [...made.keys, ...(made.stale ?? [])],
  };
};

/** The instances of every group, in order. */
export const instancesOf = (groups: readonly RecallGroup[]): RecallInstance[] =>
  groups.flatMap((group) => group.questions);
