/**
 * The inspector with masked tool results (issue #19 §2): the step's model view built with
 * `maskToolResults` tags each masked result (`masked`, with the original's position and index,
 * which the retained window still shows); the words for a masking; the stepper's cache per
 * masking; `--mask-keep-last` / `--mask-keep-turns` with `--at`, in text and `--json`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  encodeEnvelope,
  type MemoryAction,
  memoryActions,
  modelView,
  seek,
  validateTranscript,
  type ViewTarget,
} from 'conversation-memory';
import { parseArgs } from '../../src/inspector/cli/args';
import { runInspect } from '../../src/inspector/cli/inspect';
import {
  createStepper,
  modelViewAt,
  VIEW_TARGETS,
  viewChangeText,
  viewRows,
  windowAt,
} from '../../src/inspector/model';
import { configArb } from '../arbitraries/config';
import { toolConversationArb } from '../arbitraries/toolConversation';
import { maskLog } from '../support/inspectorLog';

const log = maskLog();
const last = log.length;

describe('modelViewAt with maskToolResults', () => {
  it('tags each masked result with the original position and index; the window keeps the original', () => {
    // keepLast 2: c4 (the current turn) and c3; c1 repeats c3, c2 is stale.
    const view = modelViewAt(log, last, 'openai', { keepLast: 2 });
    expect(view.mask).toEqual({ keepLast: 2 });
    expect(view.entries.map((e) => `${e.kind} ${e.position ?? '-'}`)).toEqual([
      'message 0',
      'message 1',
      'message 2',
      'masked 3',
      'message 4',
      'message 5',
      'message 6',
      'masked 7',
      'message 8',
      'message 9',
      'message 10',
      'message 11',
      'message 12',
      'message 13',
    ]);
    const masked = view.entries.filter((e) => e.kind === 'masked');
    expect(masked.map((e) => e.message.content)).toEqual([
      '[tool result masked: identical to the read_file result of {"call_id":"c3"} below]',
      '[tool result masked: read_file. To read it again, call read_tool_result with {"call_id":"c2"}]',
    ]);
    expect(masked.map((e) => e.index)).toEqual([3, 7]);
    // The retained window at the same step holds the originals at those positions.
    const window = windowAt(log, last);
    expect(window.entries[3]?.message.content).toBe('alpha '.repeat(20));
    expect(window.entries[7]?.message.content).toBe('bravo '.repeat(20));
    expect(
      validateTranscript(
        view.entries.map((e) => e.message),
        'openai',
      ),
    ).toEqual([]);
    // Plain JSON data.
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    // Without masking: no masked entry, no `mask` field.
    const plain = modelViewAt(log, last, 'openai');
    expect(plain.entries.some((e) => e.kind === 'masked')).toBe(false);
    expect('mask' in plain).toBe(false);
  });

  it('names each masking in a line: where, which call and tool, and why; ids and names escaped', () => {
    expect(modelViewAt(log, last, 'openai', { keepLast: 2 }).changes.map(viewChangeText)).toEqual([
      'masked #3 tool result of call c1 (read_file): repeat of call c3',
      'masked #7 tool result of call c2 (read_file): stale',
    ]);
    // A repeat is named only when its newer copy is sent verbatim: with c3 masked, c1 is stale.
    expect(modelViewAt(log, last, 'openai', { keepLast: 0 }).changes.map(viewChangeText)).toEqual([
      'masked #3 tool result of call c1 (read_file): stale',
      'masked #7 tool result of call c2 (read_file): stale',
      'masked #9 tool result of call c3 (read_file): stale',
    ]);
    expect(
      viewChangeText({
        type: 'view/masked',
        reason: 'repeat',
        index: 0,
        position: null,
        toolCallId: 'x\u001b[31m',
        toolName: 'evil\nname',
        sameAs: 'y\n',
        message: { role: 'tool', content: '' },
      }),
    ).toBe('masked a tool result of call x\\u001b[31m (evil\\nname): repeat of call y\\n');
  });

  it('the rows hold each window message once: a masked result is a sent row at its index', () => {
    const rows = viewRows(modelViewAt(log, last, 'anthropic', { keepTurns: 1 }));
    const indices = rows.flatMap((row) =>
      row.kind === 'sent'
        ? row.entry.index === null
          ? []
          : [row.entry.index]
        : [row.change.index],
    );
    expect(indices).toEqual(seek(log, last).messages.map((_, i) => i));
    expect(rows.filter((row) => row.kind === 'sent' && row.entry.kind === 'masked')).toHaveLength(
      3,
    );
  });

  it('the stepper caches a view per step, target and masking', () => {
    const stepper = createStepper(log);
    const masked = stepper.modelViewAt(last, 'openai', { keepLast: 1 });
    expect(masked).toEqual(modelViewAt(log, last, 'openai', { keepLast: 1 }));
    expect(stepper.modelViewAt(last, 'openai', { keepLast: 1 })).toBe(masked);
    const plain = stepper.modelViewAt(last, 'openai');
    expect(plain.entries.some((e) => e.kind === 'masked')).toBe(false);
    expect(stepper.modelViewAt(last, 'openai', { keepLast: 2 })).not.toEqual(masked);
    expect(stepper.modelViewAt(last, 'openai', { keepTurns: 1 })).not.toBe(
      stepper.modelViewAt(last, 'openai', { keepLast: 1 }),
    );
  });

  it('property: every step, every target, any masking: modelView of the state, masked results tagged', () => {
    fc.assert(
      fc.property(
        configArb,
        toolConversationArb(8),
        fc.record({ keepLast: fc.nat(3) }),
        fc.constantFrom<ViewTarget>(...VIEW_TARGETS),
        (config, messages, mask, target) => {
          let generated = createEventLog(config, { snapshotEvery: 3 });
          for (const message of messages) {
            const action: MemoryAction = memoryActions.messageAdded(message);
            generated = appendAction(generated, action);
          }
          const stepper = createStepper(generated, { states: 4, views: 3 });
          for (let n = 0; n <= generated.length; n++) {
            const state = seek(generated, n);
            const expected = modelView(state, { target, maskToolResults: mask });
            const view = modelViewAt(generated, n, target, mask);
            expect(view.entries.map((e) => e.message)).toEqual(expected.messages);
            expect(view.changes).toEqual(expected.changes);
            expect(stepper.modelViewAt(n, target, mask)).toEqual(view);
            const maskings = expected.changes.filter((c) => c.type === 'view/masked');
            const masked = view.entries.filter((e) => e.kind === 'masked');
            expect(masked.map((e) => [e.index, e.position])).toEqual(
              maskings.map((c) => [c.index, c.position]),
            );
            for (const entry of masked) {
              const original = state.messages[entry.index as number];
              expect(original?.role).toBe('tool');
              expect(original?.toolCallId).toBe(entry.message.toolCallId);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('inspect --at N --mask-keep-last N', () => {
  const files: Record<string, string> = { 'm.json': JSON.stringify(encodeEnvelope(log)) };
  const inspect = (...argv: string[]) =>
    runInspect({
      argv: ['inspect', ...argv],
      readText: (file) => files[file] as string,
      isTTY: false,
      env: {},
    });

  it('reads the flags with --at, and refuses them without it or with a wrong count', () => {
    expect(parseArgs(['inspect', 'm.json', '--at', '3', '--mask-keep-last', '2'])).toMatchObject({
      mask: { keepLast: 2 },
    });
    expect(
      parseArgs(['inspect', 'm.json', '--at=3', '--mask-keep-last=0', '--mask-keep-turns=2']),
    ).toMatchObject({ mask: { keepLast: 0, keepTurns: 2 } });
    expect(parseArgs(['inspect', 'm.json', '--at', '3'])).not.toHaveProperty('mask');
    const problem = (...argv: string[]) => {
      const args = parseArgs(['inspect', 'm.json', ...argv]);
      return args.kind === 'usage' ? args.problem : 'no problem';
    };
    expect(problem('--mask-keep-last', '1')).toBe(
      '--mask-keep-last and --mask-keep-turns mask the model view of --at N: use them with --at (the page has a field)',
    );
    expect(problem('--at', '1', '--mask-keep-last', '-1')).toBe(
      '--mask-keep-last expects a count (0, 1, 2, …), got "-1"',
    );
    expect(problem('--at', '1', '--mask-keep-turns')).toBe(
      '--mask-keep-turns expects a count (0, 1, 2, …), got nothing',
    );
    expect(problem('--at', '1', '--mask-keep-lst', '1')).toBe(
      'unknown option "--mask-keep-lst" (did you mean --mask-keep-last?)',
    );
  });

  it('text: the heading says what is kept; each masked result marked, each masking a line', () => {
    const { code, stdout } = inspect('m.json', '--at', String(last), '--mask-keep-last', '2');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines).toContain(
      'Model view (openai, tool results masked (keep last 2)): 14 messages, what the next provider call receives',
    );
    const masked = lines.filter((line) => line.includes('  masked  '));
    expect(masked).toHaveLength(2);
    expect(masked[0]).toMatch(/^ {4}#3 {2}masked {12}tool\(c1\) "\[tool result masked: identical/);
    expect(lines).toContain('  masked #3 tool result of call c1 (read_file): repeat of call c3');
    expect(lines).toContain('  masked #7 tool result of call c2 (read_file): stale');
    // The retained window above still shows the originals.
    expect(stdout).toContain('"alpha alpha alpha');
    // Without the flag: nothing masked.
    const plain = inspect('m.json', '--at', String(last)).stdout;
    expect(plain).not.toContain('masked');
  });

  it('--json: the view with its masking, masked entries and view/masked changes', () => {
    const { code, stdout } = inspect(
      'm.json',
      '--at',
      String(last),
      '--mask-keep-turns',
      '2',
      '--json',
    );
    expect(code).toBe(0);
    const { view } = JSON.parse(stdout) as { view: ReturnType<typeof modelViewAt> };
    expect(view).toEqual(modelViewAt(log, last, 'openai', { keepTurns: 2 }));
    expect(view.mask).toEqual({ keepTurns: 2 });
    expect(view.changes.map(viewChangeText)).toEqual([
      'masked #3 tool result of call c1 (read_file): repeat of call c3',
    ]);
    expect(view.entries.filter((e) => e.kind === 'masked').map((e) => e.position)).toEqual([3]);
  });
});
