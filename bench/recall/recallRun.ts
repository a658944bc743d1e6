/**
 * Runs the recall benchmark: for each history size, the histories and questions of
 * `generateGroups`, each policy prepared once per history and budget, then each question's view
 * scored and timed.
 */
import { performance } from 'node:perf_hooks';
import type * as Library from '../../src/library';
import { generateGroups, type RecallGroup, type RecallInstance } from './dataset';
import {
  historyMessages,
  POLICIES,
  preparePolicy,
  registerBenchTokenizer,
  type PolicyName,
} from './policies';
import { scoreView } from './score';

/** One question's result under one policy and budget. */
export interface RecallOutcome {
  readonly sessions: number;
  readonly questionId: string;
  readonly type: RecallInstance['question_type'];
  readonly abstain: boolean;
  readonly policy: PolicyName;
  readonly budget: number;
  readonly found: boolean;
  readonly nearMiss: boolean;
  /** The view's tokens (the state's tokenizer: o200k_base). */
  readonly tokens: number;
  /** Building the question's view, milliseconds (the policy's work per call). */
  readonly ms: number;
}

/** What to run. */
export interface RecallRunOptions {
  readonly sizes: readonly {
    readonly sessions: number;
    readonly questions: number;
    readonly perHistory: number;
  }[];
  readonly budgets: readonly number[];
  readonly policies?: readonly PolicyName[];
  readonly seed?: number;
  /** Called after each history (for progress). */
  readonly onHistory?: (sessions: number, done: number, of: number) => void;
}

let registered = false;

/** Runs every question of every size under every policy and budget. */
export const runRecallBench = async (
  lib: typeof Library,
  options: RecallRunOptions,
): Promise<{ outcomes: RecallOutcome[]; groups: Map<number, RecallGroup[]> }> => {
  if (!registered) {
    registerBenchTokenizer(lib);
    registered = true;
  }
  const outcomes: RecallOutcome[] = [];
  const all = new Map<number, RecallGroup[]>();
  for (const size of options.sizes) {
    const groups = generateGroups({
      ...size,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    });
    all.set(size.sessions, groups);
    for (const [g, group] of groups.entries()) {
      const messages = historyMessages(lib, group);
      const now = (group.times[group.times.length - 1] as number) + 86_400_000;
      for (const policy of options.policies ?? POLICIES) {
        for (const budget of options.budgets) {
          const view = await preparePolicy(lib, policy, messages, budget, now);
          for (const instance of group.questions) {
            const t0 = performance.now();
            const sent = view(instance.question);
            const ms = performance.now() - t0;
            const score = scoreView(instance, sent.messages);
            outcomes.push({
              sessions: size.sessions,
              questionId: instance.question_id,
              type: instance.question_type,
              abstain: instance.question_id.endsWith('_abs'),
              policy,
              budget,
              found: score.found,
              nearMiss: score.nearMiss,
              tokens: sent.tokens ?? 0,
              ms,
            });
          }
        }
      }
      options.onHistory?.(size.sessions, g + 1, groups.length);
    }
  }
  return { outcomes, groups: all };
};
