import { describe, expect, it } from 'vitest';
import { encodeEnvelope, type EventLog } from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';
import { windowAt } from '../../src/inspector/model';
import { recordedLog, steppedLog } from '../support/inspectorLog';

const positionsAt = (log: EventLog, step: number): (number | null)[] =>
  windowAt(log, step).entries.map((entry) => entry.position);

const inspect = (log: EventLog, argv: readonly string[]) => {
  const file = JSON.stringify(encodeEnvelope(log));
  return runInspect({
    argv: ['inspect', 'log.json', ...argv],
    readText: () => file,
    isTTY: false,
    env: {},
  });
};

describe('the inspector under trimTo (issue #29)', () => {
  it('names trimTo in the header when it is not 1, and shows the step as one trim', () => {
    const log = steppedLog();
    // The fifth add (step 5) is one step: three messages leave in one effect.
    expect(positionsAt(log, 4)).toEqual([0, 1, 2, 3]);
    expect(positionsAt(log, 5)).toEqual([3, 4]);
    expect(positionsAt(log, 6)).toEqual([3, 4, 5]);
    expect(windowAt(log, 5).trimmed.map((t) => [t.position, t.rule])).toEqual([
      [0, 'messageLimit'],
      [1, 'messageLimit'],
      [2, 'messageLimit'],
    ]);
    const text = inspect(log, []);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/, toolPairs reference, trimTo 0\.5$/);
    expect(inspect(log, ['--at', '5']).stdout).toMatch(/#0 .*messageLimit/);
  });

  it('says nothing of trimTo at its default', () => {
    const text = inspect(recordedLog(), []);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).not.toMatch(/trimTo/);
  });
});
