/**
 * The inspector's words, shared by the CLI and the page: how steps are counted, what a step added
 * to the summary (a diff, not the whole summary), what a summary chunk covers when part of its
 * range is still in the window, the did-you-mean of the CLI's options, and JSON output that
 * cannot reorder or break a terminal line yet parses back to the same strings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinSummary, MAX_SUMMARY_CHARS } from '../../src/core/applySummary';
import { escapeJsonText, escapeText } from '../../src/util/escapeText';
import { codePointLength } from '../../src/util/codePoints';
import { parseArgs } from '../../src/inspector/cli/args';
import { closestName, editDistance } from '../../src/inspector/cli/closestName';
import { coverageText } from '../../src/inspector/model/coverageText';
import { stepOfText, stepsText } from '../../src/inspector/model/stepsText';
import { summaryDiff } from '../../src/inspector/model/summaryDiff';

describe('steps: step 0 is the initial state, step n the state after the nth action', () => {
  it('a log of N actions has steps 0 to N, and its last step is "step N of N"', () => {
    expect(stepsText(16)).toBe('16 actions (steps 0–16)');
    expect(stepsText(1)).toBe('1 action (steps 0–1)');
    expect(stepsText(0)).toBe('no actions (step 0 only)');
    expect(stepOfText(16, 16)).toBe('step 16 of 16');
  });
});

describe('summaryDiff: what a step did to the summary', () => {
  it('the chunk appended, not the whole summary; a replacement and a clear say so', () => {
    expect(summaryDiff(null, 'Alice.')).toEqual({ kind: 'added', text: 'Alice.', dropped: 0 });
    expect(summaryDiff('Alice.', 'Alice. Lyon in May.')).toEqual({
      kind: 'added',
      text: 'Lyon in May.',
      dropped: 0,
    });
    expect(summaryDiff('Alice.', 'Bob.')).toEqual({ kind: 'replaced' });
    expect(summaryDiff('Alice.', 'Alice.')).toEqual({ kind: 'replaced' });
    expect(summaryDiff('Alice.', null)).toEqual({ kind: 'cleared' });
  });

  it('past the 4,000-character cap: the new chunk, and how much of the old summary was cut', () => {
    const previous = 'a'.repeat(3990);
    const summary = joinSummary(previous, 'Lyon in May.');
    expect(codePointLength(summary)).toBe(MAX_SUMMARY_CHARS);
    expect(summaryDiff(previous, summary)).toEqual({
      kind: 'added',
      text: 'Lyon in May.',
      dropped: 3,
    });
  });

  const textArb = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.string({ unit: fc.constantFrom('a', ' ', 'b', '😀'), maxLength: 60 }),
  );
  const longArb = fc.oneof(
    textArb,
    fc
      .tuple(fc.constantFrom(1000, 3990, 4000, 4100), fc.constantFrom('a', 'ab ', 'x😀'))
      .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length))),
  );

  it('property: applySummary/commitSummary joins read back as added text that rebuilds the summary', () => {
    fc.assert(
      fc.property(
        fc.option(longArb, { nil: null }),
        fc.oneof(textArb, longArb).filter((t) => t !== ''),
        (previous, text) => {
          const summary = joinSummary(previous, text);
          const diff = summaryDiff(previous, summary);
          if (diff.kind === 'replaced') {
            // Only a chunk of the cap's length or more can hide the old summary entirely.
            expect(codePointLength(text)).toBeGreaterThanOrEqual(MAX_SUMMARY_CHARS - 1);
            return;
          }
          expect(diff.kind).toBe('added');
          if (diff.kind !== 'added') return;
          expect(diff.text).not.toBe('');
          expect(text.endsWith(diff.text)).toBe(true);
          if (previous === null || previous === '') {
            // No summary before: the summary is the chunk (its newest 4,000 code points).
            expect(diff).toEqual({ kind: 'added', text: summary, dropped: 0 });
          } else if (summary.length < previous.length + 1 + text.length) {
            // Cut from the front: the kept part of the old summary, then the chunk.
            const joined = `${previous} `;
            const kept = summary.slice(0, summary.length - diff.text.length);
            expect(joined.endsWith(kept)).toBe(true);
            expect(diff.dropped).toBe(
              codePointLength(joined.slice(0, joined.length - kept.length)),
            );
          } else {
            expect(diff).toEqual({ kind: 'added', text, dropped: 0 });
          }
        },
      ),
    );
  });
});

describe('coverageText: what a committed chunk covers', () => {
  it('a range with no gap; a gap that is a message still in the window; gaps it cannot name', () => {
    expect(coverageText({ from: 1, to: 2, count: 2 }, [])).toBe('covers #1–#2 (2 messages)');
    expect(coverageText({ from: 4, to: 4, count: 1 }, [])).toBe('covers #4 (1 message)');
    expect(coverageText({ from: 0, to: 3, count: 3 }, [2, 4, 5, 6])).toBe(
      'covers #0–#1, #3 (3 messages; #2 is in the window)',
    );
    expect(coverageText({ from: 0, to: 3, count: 3 }, [])).toBe(
      'covers 3 messages between #0 and #3',
    );
    expect(coverageText({ from: 0, to: 6, count: 3 }, [2, 3, 9])).toBe(
      'covers 3 messages between #0 and #6 (#2–#3 are in the window)',
    );
  });

  it('property: never says it covers a position in the window; lists exactly the covered ones when it can', () => {
    // Each position of a range: covered, still in the window (pinned), or trimmed but not held.
    const fateArb = fc.constantFrom('covered', 'window', 'other');
    fc.assert(
      fc.property(fc.nat(50), fc.array(fateArb, { minLength: 1, maxLength: 30 }), (from, fates) => {
        const all = fates.map((fate, i) => ({ fate, position: from + i }));
        const covered = all.filter((p) => p.fate === 'covered').map((p) => p.position);
        fc.pre(covered.length > 0);
        const coverage = {
          from: covered[0] as number,
          to: covered[covered.length - 1] as number,
          count: covered.length,
        };
        const window = all.filter((p) => p.fate === 'window').map((p) => p.position);
        const text = coverageText(coverage, window);
        const listed = /^covers (.*?) \(/.exec(`${text} (`)?.[1] ?? '';
        const named = [...listed.matchAll(/#(\d+)(?:–#(\d+))?/g)].flatMap(([, a, b]) => {
          const start = Number(a);
          const end = b === undefined ? start : Number(b);
          return Array.from({ length: end - start + 1 }, (_, k) => start + k);
        });
        const inRange = (p: number) => p >= coverage.from && p <= coverage.to;
        const unexplained = all.some((p) => p.fate === 'other' && inRange(p.position));
        if (!listed.startsWith(`${covered.length} message`) && !listed.includes('…')) {
          expect(unexplained).toBe(false);
          expect(named).toEqual(covered);
        } else if (!listed.includes('…')) {
          expect(listed).toBe(
            `${covered.length} message${covered.length === 1 ? '' : 's'} between #${coverage.from} and #${coverage.to}`,
          );
        }
        for (const p of window.filter(inRange)) expect(named).not.toContain(p);
        expect(text).toContain(`${covered.length} message`);
      }),
    );
  });
});

describe('did you mean: misspelt options and commands', () => {
  const OPTIONS = ['--at', '--json', '--html', '--help', '--version'];

  it('names the nearest option or command', () => {
    expect(parseArgs(['inspect', 'log.json', '--htm', 'out.html'])).toEqual({
      kind: 'usage',
      problem: 'unknown option "--htm" (did you mean --html?)',
    });
    expect(parseArgs(['inspect', 'log.json', '--jsno'])).toMatchObject({
      problem: 'unknown option "--jsno" (did you mean --json?)',
    });
    expect(parseArgs(['inspect', 'log.json', '--htm=out.html'])).toMatchObject({
      problem: 'unknown option "--htm=out.html" (did you mean --html?)',
    });
    expect(parseArgs(['inpsect', 'log.json'])).toEqual({
      kind: 'usage',
      problem: 'unknown command "inpsect" (did you mean inspect?)',
    });
    expect(parseArgs(['inspect', 'log.json', '--colour'])).toEqual({
      kind: 'usage',
      problem: 'unknown option "--colour"',
    });
    expect(parseArgs(['inspect', 'log.json', '--x'])).toMatchObject({
      problem: 'unknown option "--x"',
    });
  });

  it('echoes what was typed escaped, never raw', () => {
    expect(parseArgs(['inspect', 'log.json', '--\u001b[31m\u202e'])).toEqual({
      kind: 'usage',
      problem: 'unknown option "--\\u001b[31m\\u202e"',
    });
  });

  it('property: one typo away from an option (inserted, deleted, replaced or swapped letter) suggests it', () => {
    const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split(''));
    const typoArb = fc
      .tuple(
        fc.constantFrom(...OPTIONS),
        fc.nat(),
        letter,
        fc.constantFrom('ins', 'del', 'sub', 'swap'),
      )
      .map(([option, at, char, edit]) => {
        const name = option.slice(2);
        const i = at % (name.length + (edit === 'ins' ? 1 : 0));
        const typed =
          edit === 'ins'
            ? name.slice(0, i) + char + name.slice(i)
            : edit === 'del'
              ? name.slice(0, i) + name.slice(i + 1)
              : edit === 'sub'
                ? name.slice(0, i) + char + name.slice(i + 1)
                : name.slice(0, i) + (name[i + 1] ?? '') + (name[i] ?? '') + name.slice(i + 2);
        return { option, typed: `--${typed}` };
      });
    fc.assert(
      fc.property(typoArb, ({ option, typed }) => {
        fc.pre(!OPTIONS.includes(typed) && typed !== '--');
        const parsed = parseArgs(['inspect', 'log.json', typed]);
        expect(parsed).toMatchObject({ kind: 'usage' });
        expect(parsed.kind === 'usage' && parsed.problem).toMatch(
          new RegExp(`\\(did you mean ${option}\\?\\)$`),
        );
      }),
    );
  });

  it('property: a suggestion is a known name at most 2 edits away; far names get none', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (typed) => {
        const name = closestName(typed, OPTIONS);
        const bare = typed.replace(/^-+/, '').toLowerCase();
        const nearest = Math.min(...OPTIONS.map((o) => editDistance(bare, o.slice(2))));
        if (nearest > 2) expect(name).toBeNull();
        if (name !== null) {
          expect(OPTIONS).toContain(name);
          expect(editDistance(bare, name.slice(2))).toBe(nearest);
        }
      }),
    );
  });

  it('editDistance counts insertions, deletions, substitutions and swaps', () => {
    expect(editDistance('htm', 'html')).toBe(1);
    expect(editDistance('jsno', 'json')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ca', 'abc')).toBe(3);
  });
});

describe('escapeJsonText: --json output safe on a terminal', () => {
  const hostileArb = fc.constantFrom(
    '\u009b31m',
    '\u202e',
    '\u2066',
    '\u200f',
    '\u007f',
    '\u0085',
    '\u2028',
    '\u001b[2J',
    '\n',
    '\ud800',
  );
  const stringArb = fc
    .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), hostileArb), { maxLength: 6 })
    .map((parts) => parts.join(''));
  const valueArb = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      stringArb,
      fc.integer(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(stringArb, tie('value'), { maxKeys: 4 }),
    ),
  })).value;

  it('property: parses back to the same value; no character that escapeText escapes is left raw, except the indentation newlines', () => {
    fc.assert(
      fc.property(valueArb, fc.constantFrom(0, 2), (value, indent) => {
        const json = escapeJsonText(JSON.stringify(value, null, indent));
        expect(JSON.parse(json)).toEqual(value);
        for (const char of json.replace(/\n/g, '')) expect(escapeText(char, 10)).toBe(char);
      }),
    );
  });

  it('escapes exactly the characters escapeText escapes that JSON.stringify leaves raw', () => {
    const wrong: string[] = [];
    let escaped = 0;
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      const inJson = JSON.stringify(char);
      const unsafe = escapeText(char, 10) !== char;
      const rawInJson = inJson === `"${char}"`;
      const changed = escapeJsonText(inJson) !== inJson;
      if (changed) escaped++;
      if (changed !== (unsafe && rawInJson)) wrong.push(`U+${code.toString(16)}`);
    }
    expect(wrong).toEqual([]);
    // DEL and the C1 controls, U+2028/U+2029, and the bidi controls.
    expect(escaped).toBe(33 + 2 + 2 + 5 + 4);
  });
});
