import { either as E } from 'fp-ts';
import { escapeText } from '../../internal/escapeText';
import { parseInput } from '../model/readInput';
import { pageDataOf } from '../page/data';
import { renderPage } from '../page/embed';
import { timelineRows } from '../model/timelineRows';
import { windowAt } from '../model/windowAt';
import { parseArgs, USAGE } from './args';
import { headerText, timelineText, windowText } from './formatText';
import { createStyle, wantsColour } from './style';
import type { Inspected } from '../model/types';

/**
 * What the CLI needs from its runtime: the command line, a way to read a file's text (throwing
 * when it cannot), whether stdout is a terminal, and the environment; for `--html`, the built
 * page, a way to write a file (throwing when it cannot) and to tell whether two names are the
 * same file.
 *
 * @example
 * ```ts
 * const io: InspectIo = { argv: ['inspect', 'log.json'], readText: (f) => readFileSync(f, 'utf8'), isTTY: false, env: {} };
 * ```
 */
export interface InspectIo {
  readonly argv: readonly string[];
  readonly readText: (file: string) => string;
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The built page (one HTML file with its data slot); throws when this build has none. */
  readonly pageTemplate?: () => string;
  readonly writeText?: (file: string, text: string) => void;
  readonly sameFile?: (a: string, b: string) => boolean;
}

/**
 * What the CLI prints and its exit code: 0, 1 for a file that cannot be read or decoded (one line
 * on stderr naming the file and the path inside it), 2 for a usage error (with the usage text).
 *
 * @example
 * ```ts
 * const result: InspectResult = { code: 2, stdout: '', stderr: 'conversation-memory: missing FILE\n' };
 * ```
 */
export interface InspectResult {
  readonly code: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

const PROGRAM = 'conversation-memory';

const usage = (problem: string): InspectResult => ({
  code: 2,
  stdout: '',
  stderr: `${PROGRAM}: ${problem}\n\n${USAGE}`,
});

const failure = (file: string, problem: string): InspectResult => ({
  code: 1,
  stdout: '',
  stderr: `${PROGRAM} inspect: ${escapeText(file, 200)}: ${problem}\n`,
});

const reason = (error: unknown): string =>
  escapeText(error instanceof Error ? error.message : String(error), 300);

/** `--html OUT`: the page for `file`, written to `out` (refused when `out` is `file`). */
const writePage = (
  io: InspectIo,
  file: string,
  out: string,
  inspected: Inspected,
): InspectResult => {
  const same = io.sameFile ?? ((a: string, b: string) => a === b);
  if (same(file, out)) {
    return failure(file, `--html ${escapeText(out, 200)} is the input file: not written over`);
  }
  if (io.pageTemplate === undefined || io.writeText === undefined) {
    return failure(file, '--html: this build of the CLI carries no inspector page');
  }
  let html: string;
  try {
    html = renderPage(io.pageTemplate(), pageDataOf(file, inspected));
  } catch (error) {
    return failure(file, `--html: cannot make the page: ${reason(error)}`);
  }
  try {
    io.writeText(out, html);
  } catch (error) {
    return failure(file, `--html: cannot write ${escapeText(out, 200)}: ${reason(error)}`);
  }
  const steps = inspected.log.length + 1;
  return {
    code: 0,
    stdout: `wrote ${escapeText(out, 200)}: the inspector page, ${steps} step${steps === 1 ? '' : 's'}\n`,
    stderr: '',
  };
};

/**
 * Runs `conversation-memory inspect FILE [--at N] [--json | --html OUT]`: reads the file (never
 * writes it), prints its timeline, or the window at step N, as text or JSON, or writes the
 * inspector page for it to OUT (never over FILE). Colours only when stdout is a terminal and
 * `NO_COLOR` is unset.
 *
 * @param io - the command line and the runtime
 * @returns what to print and the exit code
 * @example
 * ```ts
 * const { code, stdout } = runInspect({ argv: ['inspect', 'log.json', '--json'], readText, isTTY: false, env: {} });
 * ```
 */
export const runInspect = (io: InspectIo): InspectResult => {
  const args = parseArgs(io.argv);
  if (args.kind === 'help') return { code: 0, stdout: USAGE, stderr: '' };
  if (args.kind === 'usage') return usage(args.problem);
  let text: string;
  try {
    text = io.readText(args.file);
  } catch (error) {
    return failure(args.file, `cannot read the file: ${reason(error)}`);
  }
  const read = parseInput(text);
  if (E.isLeft(read)) {
    const { problems, problemCount } = read.left;
    const more =
      problemCount > 1
        ? ` (and ${problemCount - 1} more problem${problemCount > 2 ? 's' : ''})`
        : '';
    return failure(args.file, `${escapeText(problems[0] ?? 'invalid input', 400)}${more}`);
  }
  const inspected = read.right;
  const { log } = inspected;
  if (args.at !== null && args.at > log.length) {
    return usage(
      `--at ${args.at} is out of range: ${headerText(args.file, inspected, createStyle(false))}; steps are 0 to ${log.length}`,
    );
  }
  if (args.html !== null) return writePage(io, args.file, args.html, inspected);
  const style = createStyle(wantsColour(io.isTTY, io.env));
  const about = { file: args.file, kind: inspected.kind, session: inspected.session };
  if (args.at !== null) {
    const view = windowAt(log, args.at);
    return {
      code: 0,
      stdout: args.json
        ? `${JSON.stringify({ ...about, window: view }, null, 2)}\n`
        : windowText(args.file, inspected, view, style),
      stderr: '',
    };
  }
  const rows = timelineRows(log);
  return {
    code: 0,
    stdout: args.json
      ? `${JSON.stringify({ ...about, config: log.head.config, rows }, null, 2)}\n`
      : timelineText(args.file, inspected, rows, style),
    stderr: '',
  };
};
