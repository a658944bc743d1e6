import { either as E } from 'fp-ts';
import { escapeJsonText, escapeText, quoteText } from '../../util/escapeText';
import { parseInput } from '../model/readInput';
import { stepsText } from '../model/stepsText';
import { pageDataOf } from '../page/data';
import { renderPage } from '../page/embed';
import { timelineRows } from '../model/timelineRows';
import { windowAt } from '../model/windowAt';
import { modelViewAt } from '../model/stepModelView';
import { stepKnowledge } from '../model/stepKnowledge';
import { usageTotal } from '../model/stepUsage';
import { usageFigures } from '../model/usageFigures';
import { parseArgs, USAGE } from './args';
import { timelineText, windowText } from './formatText';
import { pricesFile } from './pricesFile';
import { createStyle, wantsColour } from './style';
import type { Inspected } from '../model/types';
import type { TokenPrices } from '../../tokens/estimateCost';

/**
 * What the CLI needs from its runtime: the command line, a way to read a file's text (throwing
 * when it cannot), whether stdout is a terminal, and the environment; for `--html`, the built
 * page, a way to write a file (throwing when it cannot) and to tell whether two names are the
 * same file; for `--version`, the package's version; and, to tell a SQLite database before reading
 * it whole, a way to read a file's first bytes.
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
  /** The version `--version` prints (the package's). */
  readonly version?: string;
  /** The first `bytes` bytes of a file as Latin-1 text (throwing when it cannot be read). */
  readonly readStart?: (file: string, bytes: number) => string;
}

/**
 * What the CLI prints and its exit code: 0, 1 for a file that cannot be read or decoded (stderr
 * names the file and each problem's path inside it, one per line), 2 for a usage error (with the
 * usage text).
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

/** JSON output: indented, and safe on a terminal (see `escapeJsonText`). */
const jsonOut = (value: unknown): string => `${escapeJsonText(JSON.stringify(value, null, 2))}\n`;

/** The first bytes of every SQLite 3 database file. */
const SQLITE_HEADER = 'SQLite format 3\u0000';

/** A SQLite file (the SQLite session and event stores keep one): how to get a file inspect reads. */
const sqliteFailure = (file: string): InspectResult =>
  failure(
    file,
    [
      'a SQLite database, not a JSON file. Export a stream of the event store to a log file, then inspect that:',
      `  const store = new SqliteEventStore({ path: ${quoteText(file, 200)} }); // from conversation-memory/node`,
      "  const log = await exportEventLog(store, 'thread-7'); // store.streams() lists the ids",
      "  writeFileSync('thread-7.json', JSON.stringify(encodeEnvelope(log))); // then: conversation-memory inspect thread-7.json",
      '(README "Event store"; for a session of the SQLite session store, save encodeEnvelope of its loaded state)',
    ].join('\n'),
  );

/**
 * A decoding failure: the file, then every problem the decoder listed, one per line (each with
 * its path inside the file), then how many more it found but did not list.
 */
const decodeFailure = (
  file: string,
  problems: readonly string[],
  problemCount: number,
  countComplete: boolean,
): InspectResult => {
  const first = problems[0] ?? 'invalid input';
  if (problemCount <= 1) return failure(file, escapeText(first, 400));
  const lines = problems.map((problem) => `  ${escapeText(problem, 400)}`);
  const more = problemCount - problems.length;
  if (more > 0) {
    lines.push(
      `  … and ${countComplete ? '' : 'at least '}${more} more problem${more === 1 ? '' : 's'}, not listed: the decoder lists the first ${problems.length}; fix these and run inspect again to see the next`,
    );
  }
  const total = `${countComplete ? '' : 'at least '}${problemCount} problems`;
  return failure(file, `${total}:\n${lines.join('\n')}`);
};

/** `--html OUT`: the page for `file`, written to `out` (refused when `out` is `file`). */
const writePage = (
  io: InspectIo,
  file: string,
  out: string,
  inspected: Inspected,
  prices: TokenPrices | undefined,
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
    html = renderPage(io.pageTemplate(), pageDataOf(file, inspected, prices));
  } catch (error) {
    return failure(file, `--html: cannot make the page: ${reason(error)}`);
  }
  try {
    io.writeText(out, html);
  } catch (error) {
    return failure(file, `--html: cannot write ${escapeText(out, 200)}: ${reason(error)}`);
  }
  return {
    code: 0,
    stdout: `wrote ${escapeText(out, 200)}: the inspector page, ${stepsText(inspected.log.length)}\n`,
    stderr: '',
  };
};

/**
 * Runs `conversation-memory inspect FILE [--at N [--target T]] [--json | --html OUT] [--prices P]`:
 * reads the file (never writes it), prints its timeline, or the retained window at step N and the
 * model view beside it (for `--target`, default `openai`), as text or JSON, or writes the
 * inspector page for it to OUT (never over FILE). Each step that records a model call's usage
 * shows it (with `--prices`, its cost), and the timeline the total. Colours only when stdout is a terminal and
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
  if (args.kind === 'version') {
    return { code: 0, stdout: `${PROGRAM} ${io.version ?? 'unknown version'}\n`, stderr: '' };
  }
  if (args.kind === 'usage') return usage(args.problem);
  let prices: TokenPrices | undefined;
  if (args.prices !== undefined) {
    const read = pricesFile(args.prices, io.readText);
    if ('problem' in read) return usage(read.problem);
    prices = read.prices;
  }
  let text: string;
  try {
    // A database can be large: look at its header before reading the file whole.
    if (io.readStart?.(args.file, SQLITE_HEADER.length) === SQLITE_HEADER) {
      return sqliteFailure(args.file);
    }
    text = io.readText(args.file);
  } catch (error) {
    return failure(args.file, `cannot read the file: ${reason(error)}`);
  }
  if (text.startsWith(SQLITE_HEADER)) return sqliteFailure(args.file);
  const read = parseInput(text);
  if (E.isLeft(read)) {
    const { problems, problemCount, countComplete } = read.left;
    return decodeFailure(args.file, problems, problemCount, countComplete);
  }
  const inspected = read.right;
  const { log } = inspected;
  if (args.at !== null && args.at > log.length) {
    return usage(
      `--at ${args.at} is out of range: ${escapeText(args.file, 200)} has ${stepsText(log.length)}`,
    );
  }
  if (args.html !== null) return writePage(io, args.file, args.html, inspected, prices);
  const style = createStyle(wantsColour(io.isTTY, io.env));
  const about = {
    file: args.file,
    kind: inspected.kind,
    session: inspected.session,
    ...(prices === undefined ? {} : { prices }),
  };
  if (args.at !== null) {
    const retained = windowAt(log, args.at);
    const view = modelViewAt(log, args.at, args.target, args.mask, args.recall);
    const knowledge = stepKnowledge(log, args.at);
    const stepUsage = retained.row.usage === null ? null : usageFigures(retained.row.usage, prices);
    return {
      code: 0,
      stdout: args.json
        ? jsonOut({ ...about, window: retained, view, knowledge, usage: stepUsage })
        : windowText(args.file, inspected, retained, view, knowledge, style, stepUsage),
      stderr: '',
    };
  }
  const rows = timelineRows(log);
  const steps = rows.flatMap((row) =>
    row.usage === null ? [] : [{ step: row.step, ...usageFigures(row.usage, prices) }],
  );
  const total = usageTotal(rows);
  const usageData = { steps, total: total === null ? null : usageFigures(total, prices) };
  return {
    code: 0,
    stdout: args.json
      ? jsonOut({ ...about, config: log.head.config, rows, usage: usageData })
      : timelineText(args.file, inspected, rows, style, prices),
    stderr: '',
  };
};
