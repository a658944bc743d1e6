/**
 * The inspector with recall (issue #32 §2): the model view at a step, with a recall budget, shows
 * the recall block (`recalled`) quoting what the log trimmed before that step and the question
 * needs; the stepper gives the same; `--recall-budget` with `--at`, in text and `--json`.
 */
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from 'conversation-memory';
import { parseArgs } from '../../src/inspector/cli/args';
import { runInspect } from '../../src/inspector/cli/inspect';
import { createStepper, modelViewAt, viewChangeText } from '../../src/inspector/model';
import { RECALL_FACT, recallLog } from '../support/recallLog';

const log = recallLog();
const last = log.length;

describe('modelViewAt with a recall budget', () => {
  it('shows the recall block before the question, quoting the trimmed fact with its date', () => {
    const view = modelViewAt(log, last, 'openai', undefined, 200);
    const kinds = view.entries.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'recalled')).toHaveLength(1);
    expect(kinds.at(-2)).toBe('recalled');
    const block = view.entries.at(-2);
    expect(block?.message.content).toBe(
      `[Earlier in this conversation]\n[2024-03-02 10:15] User: ${RECALL_FACT}`,
    );
    const change = view.changes.find((c) => c.type === 'view/recalled');
    expect(change === undefined ? '' : viewChangeText(change)).toBe(
      'recalled #0 (35 tokens) for "Which bakery made the cake for my sister?"',
    );
    // Without a budget, nothing is recalled; the window alone has no trace of the fact.
    const plain = modelViewAt(log, last, 'openai');
    expect(plain.entries.some((e) => e.kind === 'recalled')).toBe(false);
    expect(JSON.stringify(plain.entries)).not.toContain('Belmonte');
  });

  it('recalls only what was trimmed before the step', () => {
    // At step 6 the fact is still in the window: nothing to recall.
    const early = modelViewAt(log, 6, 'openai', undefined, 200);
    expect(early.entries.some((e) => e.kind === 'recalled')).toBe(false);
  });

  it('the stepper gives the same view, and keeps one per budget', () => {
    const stepper = createStepper(log);
    expect(stepper.modelViewAt(last, 'openai', undefined, 200)).toEqual(
      modelViewAt(log, last, 'openai', undefined, 200),
    );
    expect(stepper.modelViewAt(last, 'openai').entries.some((e) => e.kind === 'recalled')).toBe(
      false,
    );
  });
});

describe('inspect --at N --recall-budget B', () => {
  const files: Record<string, string> = { 'r.json': JSON.stringify(encodeEnvelope(log)) };
  const inspect = (...argv: string[]) =>
    runInspect({
      argv: ['inspect', ...argv],
      readText: (file) => files[file] as string,
      isTTY: false,
      env: {},
    });

  it('reads the flag with --at, and refuses it without --at or with a wrong budget', () => {
    expect(parseArgs(['inspect', 'r.json', '--at', '3', '--recall-budget', '200'])).toMatchObject({
      recall: 200,
    });
    const problem = (...argv: string[]) => {
      const args = parseArgs(['inspect', 'r.json', ...argv]);
      return args.kind === 'usage' ? args.problem : 'no problem';
    };
    expect(problem('--recall-budget', '100')).toBe(
      '--recall-budget recalls in the model view of --at N: use it with --at (the page has a field)',
    );
    expect(problem('--at', '1', '--recall-budget', '0')).toBe(
      '--recall-budget expects a number of tokens (1, 2, …), got "0"',
    );
    expect(problem('--at', '1', '--recal-budget', '5')).toBe(
      'unknown option "--recal-budget" (did you mean --recall-budget?)',
    );
  });

  it('text and --json show the recall block and its change', () => {
    const text = inspect('r.json', '--at', String(last), '--recall-budget', '200');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/ recalled {8}.*Earlier in this conversation/);
    expect(text.stdout).toContain(
      '  recalled #0 (35 tokens) for "Which bakery made the cake for my sister?"',
    );
    const json = inspect('r.json', '--at', String(last), '--recall-budget', '200', '--json');
    expect(json.code).toBe(0);
    expect(json.stdout).toMatch(/"kind": "recalled"/);
    expect(inspect('r.json', '--at', String(last)).stdout).not.toContain('recalled');
  });
});
