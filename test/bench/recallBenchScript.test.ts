// The recall benchmark (bench/recall/) on a fast subset: its dataset holds what its README says
// (LongMemEval's proportions and JSON shape, deterministic, evidence phrased differently from the
// question but sharing two words with it, keys nowhere else), and recall finds what oldest-first
// loses, never losing what oldest-first finds, within the budget.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/library';
import { searchWords } from '../../src/knowledge/retrieval/searchWords';
import { generateGroups, instancesOf, questionPlan } from '../../bench/recall/dataset';
import { runRecallBench } from '../../bench/recall/recallRun';

const small = { sessions: 24, questions: 12, perHistory: 6 };

/** Every run of `n` consecutive lower-case words of `text`. */
const wordRuns = (text: string, n: number): Set<string> => {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return new Set(words.slice(n - 1).map((_, i) => words.slice(i, i + n).join(' ')));
};

describe('recall benchmark', () => {
  it('plans LongMemEval_S proportions, 6% abstention spread over the types', () => {
    const plan = questionPlan(500);
    const count = (type: string) => plan.filter((q) => q.type === type).length;
    expect([
      count('single-session-user'),
      count('single-session-assistant'),
      count('single-session-preference'),
      count('multi-session'),
      count('knowledge-update'),
      count('temporal-reasoning'),
    ]).toEqual([70, 56, 30, 133, 78, 133]);
    const abstaining = plan.filter((q) => q.abstain);
    expect(abstaining).toHaveLength(30);
    expect(new Set(abstaining.map((q) => q.type)).size).toBeGreaterThanOrEqual(5);
  });

  it('is deterministic: the same seed gives the same data, another seed other data', () => {
    const json = (seed: number) => JSON.stringify(instancesOf(generateGroups({ ...small, seed })));
    expect(json(7)).toBe(json(7));
    expect(json(8)).not.toBe(json(7));
  });

  it('plants evidence phrased differently from its question, with keys found nowhere else', () => {
    const instances = instancesOf(generateGroups({ sessions: 30, questions: 60, perHistory: 20 }));
    for (const instance of instances) {
      const turns = instance.haystack_sessions.flat();
      const evidence = turns.filter((turn) => turn.has_answer === true);
      const question = instance.question.toLowerCase();
      for (const key of [...instance.evidence_keys, ...(instance.stale_keys ?? [])]) {
        expect(question).not.toContain(key.toLowerCase());
        // The key is stated only by this question's evidence (and, for a stale key, its session).
        const holding = turns.filter((turn) => turn.content.includes(key));
        expect(holding.length).toBeGreaterThan(0);
        if (instance.evidence_keys.includes(key)) {
          expect(holding.every((turn) => turn.has_answer === true)).toBe(true);
        }
      }
      if (instance.question_id.endsWith('_abs')) {
        expect(instance.evidence_keys).toEqual([]);
        expect(evidence).toEqual([]);
        continue;
      }
      const asked = new Set(searchWords(instance.question));
      const questionRuns = wordRuns(instance.question, 3);
      for (const turn of evidence) {
        expect(question).not.toContain(turn.content.toLowerCase());
        // No three words of the question side by side in its evidence (topic words, not phrases).
        const copied = [...wordRuns(turn.content, 3)].filter((run) => questionRuns.has(run));
        expect(copied, `${instance.question} / ${turn.content}`).toEqual([]);
        const shared = new Set(searchWords(turn.content).filter((word) => asked.has(word)));
        expect(shared.size, `${instance.question} / ${turn.content}`).toBeGreaterThanOrEqual(2);
      }
      expect(instance.answer_session_ids.length).toBeGreaterThan(0);
      expect(
        instance.answer_session_ids.every((id) => instance.haystack_session_ids.includes(id)),
      ).toBe(true);
    }
  });

  it('--write writes LongMemEval JSON that reads back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recall-bench-'));
    try {
      const file = join(dir, 'data.json');
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'bench/recall/recall.bench.ts',
          '--sizes',
          '12',
          '--questions',
          '6',
          '--write',
          file,
        ],
        { stdio: 'pipe' },
      );
      const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
      expect(data).toHaveLength(6);
      for (const instance of data) {
        expect(Object.keys(instance)).toEqual(
          expect.arrayContaining([
            'question_id',
            'question_type',
            'question',
            'answer',
            'question_date',
            'haystack_session_ids',
            'haystack_dates',
            'haystack_sessions',
            'answer_session_ids',
          ]),
        );
        expect(instance['question_date']).toMatch(
          /^\d{4}\/\d\d\/\d\d \([A-Z][a-z]{2}\) \d\d:\d\d$/,
        );
        const sessions = instance['haystack_sessions'] as { role: string; content: string }[][];
        expect(sessions).toHaveLength((instance['haystack_session_ids'] as string[]).length);
        expect(sessions.flat().every((t) => t.role === 'user' || t.role === 'assistant')).toBe(
          true,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('recall finds what oldest-first loses and loses nothing it finds, within the budget', async () => {
    const { outcomes } = await runRecallBench(lib, {
      sizes: [{ sessions: 40, questions: 12, perHistory: 6 }],
      budgets: [4_000],
      policies: ['oldest-first', 'recall'],
    });
    const of = (policy: string) => outcomes.filter((o) => o.policy === policy && !o.abstain);
    const oldest = of('oldest-first');
    const recall = of('recall');
    for (const o of oldest) {
      if (o.found) expect(recall.find((r) => r.questionId === o.questionId)?.found).toBe(true);
    }
    const found = (list: typeof oldest) => list.filter((o) => o.found).length;
    expect(found(recall)).toBeGreaterThan(found(oldest));
    expect(found(recall) / recall.length).toBeGreaterThanOrEqual(0.8);
    for (const o of outcomes) expect(o.tokens).toBeLessThanOrEqual(4_000);
    // (Abstention has no keys to check here: that no history answers it is asserted on the data.)
  }, 60_000);
});
