import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  encodeEnvelope,
  memoryActions,
  PROVIDER_SAFE,
} from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';
import { actionLabel } from '../../src/inspector/model/actionLabel';
import { timelineRows, windowAt } from '../../src/inspector/model';
import { pageDataOf } from '../../src/inspector/page/data';
import { readInput } from '../../src/inspector/model/readInput';
import { assistant, call, tool, user } from '../helpers';

/** A recorded conversation whose config changes twice: a tighter limit, then a new policy. */
const reconfiguredLog = () =>
  [
    memoryActions.messagesAdded([user('one'), user('two'), user('three')]),
    memoryActions.reconfigured({ maxMessages: 2, tokenizer: 'o200k_base' }),
    memoryActions.messagesAdded([assistant(null, call('c1')), tool('4', 'c1'), assistant('4.')]),
    memoryActions.reconfigured({ ...PROVIDER_SAFE, maxMessages: 4 }),
  ].reduce(appendAction, createEventLog({ maxMessages: 10, tokenizer: 'heuristic' }));

const run = (argv: string[]) => {
  const text = JSON.stringify(encodeEnvelope(reconfiguredLog()));
  return runInspect({ argv, readText: () => text, isTTY: false, env: { NO_COLOR: '1' } });
};

describe('the inspector on a log with memory/reconfigured actions', () => {
  it('labels the action with the fields it changes', () => {
    expect(
      actionLabel(memoryActions.reconfigured({ maxMessages: 2, tokenizer: 'heuristic' })),
    ).toBe('reconfigure maxMessages=2, tokenizer="heuristic"');
    expect(actionLabel(memoryActions.reconfigured({ maxTokens: null, pinSystem: true }))).toBe(
      'reconfigure maxTokens=null, pinSystem=true',
    );
    expect(actionLabel(memoryActions.reconfigured({}))).toBe('reconfigure (no change)');
  });

  it('prints the timeline and each step, the trims a reconfigure caused included', () => {
    const timeline = run(['inspect', 'log.json']);
    expect(timeline.code).toBe(0);
    expect(timeline.stdout).toMatch(
      / 2 {2}reconfigure maxMessages=2, tokenizer=.* 2\/2 .*messageLimit 1/,
    );
    expect(timeline.stdout).toMatch(
      / 4 {2}reconfigure maxMessages=4, toolPairs="strict".*startOn 1/,
    );
    const step = run(['inspect', 'log.json', '--at', '2']);
    expect(step.code).toBe(0);
    expect(step.stdout).toContain('step 2 of 4: reconfigure maxMessages=2, tokenizer="o200k_base"');
    expect(step.stdout).toMatch(
      /trimmed at this step: 1 \(messageLimit 1\)\n +#0 .*messageLimit +user "one"/,
    );
    for (const at of ['0', '1', '3', '4']) {
      expect(run(['inspect', 'log.json', '--at', at]).code).toBe(0);
      expect(run(['inspect', 'log.json', '--json', '--at', at]).code).toBe(0);
    }
    const view = windowAt(reconfiguredLog(), 2);
    expect(view.trimmed.map((entry) => [entry.position, entry.rule])).toEqual([
      [0, 'messageLimit'],
    ]);
    expect(timelineRows(reconfiguredLog())).toHaveLength(5);
  });

  it('builds the page data', () => {
    const inspected = readInput(encodeEnvelope(reconfiguredLog()));
    if (inspected._tag === 'Left') throw inspected.left;
    const data = pageDataOf('log.json', inspected.right);
    expect(JSON.stringify(data)).toContain('reconfigure');
  });
});
