import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';
import { windowAt } from '../../src/inspector/model';
import { redundantLog } from '../support/inspectorLog';

describe('the inspector under prune: redundant', () => {
  it('names the rule and the twin each redundant message repeats (model, CLI text, --json)', () => {
    const log = redundantLog();
    const view = windowAt(log, log.length);
    expect(view.trimmed.map((t) => [t.position, t.rule, t.duplicateOf])).toEqual([
      [1, 'redundant', 4],
      [2, 'redundant', 5],
    ]);
    const file = JSON.stringify(encodeEnvelope(log));
    const run = (argv: string[]) =>
      runInspect({
        argv: ['inspect', 'log.json', ...argv],
        readText: () => file,
        isTTY: false,
        env: {},
      });
    const text = run(['--at', String(log.length)]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/prune redundant \(threshold 0\.9, embedder lexical\)/);
    expect(text.stdout).toMatch(/#1 +\d+ +redundant of #4 /);
    expect(text.stdout).toMatch(/#2 +\d+ +redundant of #5 /);
    const json = JSON.parse(run(['--at', String(log.length), '--json']).stdout) as {
      window: { trimmed: { position: number; rule: string; duplicateOf?: number }[] };
    };
    expect(json.window.trimmed.map((t) => t.duplicateOf)).toEqual([4, 5]);
  });
});
