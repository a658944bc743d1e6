import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  encodeEnvelope,
  getHistory,
  getPositions,
  memoryActions,
  seek,
  toDict,
  userMessage,
  type MemoryAction,
} from 'conversation-memory';
import { ENVELOPE_VERSION } from 'conversation-memory/store-kit';
import { summaryMessage } from '../../src/view/summaryMessage';
import { SUMMARY_MESSAGE_PREFIX } from '../../src/agent/prompts';
import { parseInput, readInput, timelineRows, windowAt } from '../../src/inspector/model';
import { memoryActionArb } from '../arbitraries/actions';
import { configArb } from '../arbitraries/config';
import { recordedLog } from '../support/inspectorLog';

const log = recordedLog();
const rows = timelineRows(log);

const read = (input: unknown) => {
  const result = readInput(input);
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

const problemsOf = (input: unknown) => {
  const result = readInput(input);
  if (E.isRight(result)) throw new Error('expected a decoding failure');
  return result.left;
};

describe('timelineRows', () => {
  it('one row per step from step 0, each matching the state seek gives', () => {
    expect(rows).toHaveLength(log.length + 1);
    rows.forEach((row, n) => {
      const state = seek(log, n);
      expect(row.step).toBe(n);
      expect(row.messages).toBe(state.messages.length);
      expect(row.tokens).toBe(state.totalTokens);
      expect([row.maxMessages, row.maxTokens]).toEqual([5, 40]);
    });
    expect(rows[0]).toMatchObject({ action: null, label: 'start', summary: null });
    expect(rows[0]?.trimmed).toEqual({ count: 0, byRule: {}, positions: [] });
  });

  it('labels each action on one line, escaping control characters', () => {
    expect(rows[1]?.label).toBe('add system "You are a travel assistant."');
    expect(rows[5]?.label).toBe('add assistant → get_weather(c1)');
    expect(rows[6]?.label).toBe('add tool(c1) "Paris: 18°C, cloudy"');
    expect(rows[8]?.label).toBe('summary applied "The user is Alice."');
    expect(rows[9]?.label).toBe('add 3 messages');
    expect(rows[16]?.label).toContain('\\u001b[31m');
    expect(rows[16]?.label).not.toContain('\u001b');
  });

  it('counts the trims of each step by rule: message limit, token limit, tool-pair boundary, startOn', () => {
    const trims = rows.filter((row) => row.trimmed.count > 0).map((row) => [row.step, row.trimmed]);
    expect(trims).toEqual([
      [6, { count: 2, byRule: { messageLimit: 1, startOn: 1 }, positions: [1, 2] }],
      [9, { count: 4, byRule: { messageLimit: 3, startOn: 1 }, positions: [3, 4, 5, 6] }],
      [10, { count: 3, byRule: { tokenLimit: 3 }, positions: [7, 8, 9] }],
      [11, { count: 2, byRule: { tokenLimit: 1, startOn: 1 }, positions: [10, 11] }],
      [15, { count: 2, byRule: { toolPairBoundary: 2 }, positions: [13, 14] }],
    ]);
  });

  it('reports summary changes, and a clear as trims by the rule "clear"', () => {
    expect(rows[8]?.summary).toEqual({
      summary: 'The user is Alice.',
      previous: null,
      coverage: null,
    });
    expect(rows.filter((row) => row.summary !== null).map((row) => row.step)).toEqual([8]);
    const cleared = timelineRows(appendAction(log, memoryActions.cleared()));
    expect(cleared[cleared.length - 1]).toMatchObject({
      label: 'clear',
      messages: 0,
      trimmed: { count: 4, byRule: { clear: 4 }, positions: [0, 12, 15, 16] },
      summary: { summary: null, previous: 'The user is Alice.', coverage: null },
    });
  });

  it('rows and windows are plain JSON data', () => {
    expect(JSON.parse(JSON.stringify(rows))).toEqual(rows);
    const view = windowAt(log, 9);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });
});

describe('windowAt', () => {
  it('injects the summary at index 0 as the agent does, marks the pinned system message and the tool group', () => {
    const view = windowAt(log, 9);
    expect(view.row).toEqual(rows[9]);
    expect(view.entries.map((e) => [e.kind, e.position, e.tokens, e.pinned, e.group])).toEqual([
      ['summary', null, 10, false, null],
      ['message', 0, 6, true, null],
      ['message', 7, 2, false, null],
      ['message', 8, 0, false, 8],
      ['message', 9, 4, false, 8],
    ]);
    expect(view.entries[0]?.message).toEqual(summaryMessage('The user is Alice.'));
    expect(view.entries[0]?.message.content).toBe(`${SUMMARY_MESSAGE_PREFIX} The user is Alice.`);
    expect(view.summary).toBe('The user is Alice.');
  });

  it('lists the messages trimmed at the step with their rule and tokens', () => {
    expect(windowAt(log, 9).trimmed.map((t) => [t.position, t.rule, t.tokens])).toEqual([
      [3, 'messageLimit', 4],
      [4, 'messageLimit', 0],
      [5, 'messageLimit', 4],
      [6, 'startOn', 5],
    ]);
    expect(windowAt(log, 15).trimmed.map((t) => [t.position, t.rule, t.message.role])).toEqual([
      [13, 'toolPairBoundary', 'assistant'],
      [14, 'toolPairBoundary', 'tool'],
    ]);
    expect(windowAt(log, 10).trimmed.map((t) => t.rule)).toEqual(Array(3).fill('tokenLimit'));
    expect(windowAt(log, 7).trimmed).toEqual([]);
    expect(windowAt(log, 0)).toMatchObject({ entries: [], trimmed: [], row: rows[0] });
  });

  it('counts a message added and trimmed by the same step', () => {
    let small = createEventLog({ maxMessages: 1, tokenizer: 'heuristic' });
    small = appendAction(
      small,
      memoryActions.messagesAdded([userMessage('12345678'), userMessage('abcd')]),
    );
    expect(windowAt(small, 1).trimmed).toEqual([
      { message: userMessage('12345678'), position: 0, rule: 'messageLimit', tokens: 2 },
    ]);
  });

  it('refuses a step outside 0..length', () => {
    // By code and name, not class: the model is imported from src/ even when TEST_DIST points the
    // package name at dist/, whose error classes are other classes.
    let thrown: unknown;
    try {
      windowAt(log, log.length + 1);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'CM_ARGUMENT', name: 'MemoryArgumentError' });
    expect(() => windowAt(log, -1)).toThrow(/n must be an integer from 0 to 16/);
    expect(() => windowAt(log, 1.5)).toThrow(RangeError);
  });

  it("property: the window's messages are getHistory(seek(log, n)) after the injected summary; rows agree", () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(memoryActionArb, { maxLength: 20 }),
        fc.integer({ min: 1, max: 5 }),
        fc.nat(),
        (config, actions: MemoryAction[], every, pick) => {
          const generated = actions.reduce(
            appendAction,
            createEventLog(config, { snapshotEvery: every }),
          );
          const n = pick % (generated.length + 1);
          const state = seek(generated, n);
          const view = windowAt(generated, n);
          const injected = summaryMessage(state.summary);
          expect(view.entries.map((e) => e.message)).toEqual([
            ...(injected === undefined ? [] : [injected]),
            ...getHistory(state),
          ]);
          const stored = view.entries.filter((e) => e.kind === 'message');
          expect(stored.map((e) => e.position)).toEqual(getPositions(state));
          expect(stored.map((e) => e.tokens)).toEqual(state.tokenCounts);
          expect(view.row).toEqual(timelineRows(generated)[n]);
          expect(view.trimmed.map((t) => t.position)).toEqual(view.row.trimmed.positions);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('readInput', () => {
  const state = log.head;

  it('reads every input kind; a state is a one-step timeline', () => {
    expect(read(encodeEnvelope(log))).toMatchObject({ kind: 'log', session: null });
    expect(read(encodeEnvelope(log)).log.length).toBe(16);
    const kinds = [
      [encodeEnvelope(state), 'state'],
      [JSON.parse(JSON.stringify(state)), 'rawState'],
      [toDict(state), 'dict'],
    ] as const;
    for (const [input, kind] of kinds) {
      const inspected = read(input);
      expect(inspected.kind).toBe(kind);
      expect(timelineRows(inspected.log)).toHaveLength(1);
      expect(getHistory(inspected.log.head)).toEqual(getHistory(state));
    }
    const session = read({
      session_id: 's1',
      namespace: 'u1',
      created_at: 1764500000.5,
      updated_at: 1764500100,
      memory: toDict(state),
      revision: 3,
    });
    expect(session).toMatchObject({
      kind: 'session',
      session: {
        sessionId: 's1',
        namespace: 'u1',
        createdAt: 1764500000.5,
        updatedAt: 1764500100,
        revision: 3,
      },
    });
    expect(session.log.head.summary).toBe('The user is Alice.');
  });

  it('names the path inside the input of what is wrong', () => {
    const dict = JSON.parse(JSON.stringify(toDict(state)));
    dict.messages[3].role = 'USER';
    expect(problemsOf(dict).problems[0]).toMatch(/^messages\[3\]\.role: /);
    expect(
      problemsOf({ session_id: 's1', namespace: null, created_at: 1, updated_at: 2, memory: dict })
        .problems[0],
    ).toMatch(/^memory\.messages\[3\]\.role: /);
    expect(problemsOf({ session_id: 's1', created_at: 1, updated_at: 2 }).problems).toEqual([
      'memory: missing',
    ]);
    expect(
      problemsOf({ session_id: 's1', created_at: 'x', updated_at: 2, memory: {} }).problems[0],
    ).toMatch(/^created_at: /);
    const envelope = JSON.parse(JSON.stringify(encodeEnvelope(log)));
    envelope.data.actions[2].payload.role = 42;
    expect(problemsOf(envelope).problems[0]).toMatch(/^data\.actions\[2\]\.payload/);
    expect(problemsOf({ hello: 'world' }).problems[0]).toMatch(/^schema: /);
  });

  it('says when an envelope is newer than this version, and when text is not JSON', () => {
    const newer = { ...encodeEnvelope(state), version: ENVELOPE_VERSION + 1 };
    const error = problemsOf(newer);
    expect(error.kind).toBe('version');
    expect(error.problems[0]).toMatch(/newer conversation-memory \(envelope version 2\)/);
    const truncated = JSON.stringify(encodeEnvelope(log)).slice(0, 100);
    const parsed = parseInput(truncated);
    expect(E.isLeft(parsed) && parsed.left.problems[0]).toMatch(
      /^\(root\): not JSON \(truncated\?\)/,
    );
    const good = parseInput(JSON.stringify(encodeEnvelope(log)));
    expect(E.isRight(good) && good.right.log.length).toBe(16);
  });
});
