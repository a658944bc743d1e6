import { quoteText } from '../../util/escapeText';
import type { MaskToolResults, ViewTarget } from '../../view/viewTypes';
import { VIEW_TARGETS } from '../model/stepModelView';
import { closestName } from './closestName';

/**
 * What `conversation-memory inspect` was asked: the file, the step to show (or `null` for the
 * timeline) and whether to print JSON; or the help; or the version; or a usage error.
 *
 * @example
 * ```ts
 * const args: InspectArgs = { kind: 'inspect', file: 'log.json', at: 3, json: false, html: null, target: 'openai' };
 * ```
 */
export type InspectArgs =
  | {
      readonly kind: 'inspect';
      readonly file: string;
      readonly at: number | null;
      readonly json: boolean;
      /** `--html OUT`: the page to write, or `null`. */
      readonly html: string | null;
      /** `--target`: whose rules the model view of `--at N` meets (default `'openai'`). */
      readonly target: ViewTarget;
      /** `--mask-keep-last N`, `--mask-keep-turns K`: mask stale tool output in the model view. */
      readonly mask?: MaskToolResults;
      /** `--recall-budget N`: the model view recalls what was trimmed, in N tokens. */
      readonly recall?: number;
      /** `--prices FILE`: the JSON file of the prices that cost each step's usage. */
      readonly prices?: string;
    }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'usage'; readonly problem: string };

/**
 * The usage text.
 *
 * @example
 * ```ts
 * USAGE.startsWith('Usage: conversation-memory inspect FILE'); // true
 * ```
 */
export const USAGE = `Usage: conversation-memory inspect FILE [--at N [--target T]] [--json] [--prices P]
       conversation-memory inspect FILE --html OUT [--prices P]
       conversation-memory mcp [--http PORT] [--store S] ...   (conversation-memory mcp --help)
       conversation-memory --version

Prints the timeline of a recorded conversation, one line per step. Step 0 is
the initial state and step N the state after the Nth action: a log of 16
actions has steps 0 to 16.

  FILE      an event log or a state in the versioned envelope, a raw state,
            a reference toDict memory, or a session file of the JSON file store
            (a SQLite store's file: export a stream with exportEventLog first)
  --at N    the retained window at step N (0 is the start), then the
            model view: what the next provider call receives (the injected
            summary first), with each message left out or call answered, and why
  --target T  the provider rules the model view meets: openai (the default),
            anthropic or none (only the tool-pairing rules)
  --mask-keep-last N  mask stale tool output in the model view: only the N
            newest tool results (and the current turn's) are sent verbatim
  --mask-keep-turns K  also keep the tool results of the K newest user turns
  --recall-budget B  recall in the model view of --at N: the messages trimmed
            before step N that match its newest user message, quoted within
            B tokens
  --prices P  the JSON file of a model's prices per million tokens,
            {"input": 3, "cachedInput": 0.3, "cacheWrite": 3.75, "output": 15}:
            each step that records a model call's usage (the reply's
            metadata.usage) shows its cost beside the tokens sent and the
            share read from cache, and the timeline its total
  --json    the same data as JSON
  --html OUT  writes the inspector page for FILE to OUT: one self-contained
            HTML file (no server, no network) to step through the timeline
  --version the version of conversation-memory
  --help    this text
`;

/** The options, as a misspelt one is compared with them. */
const OPTIONS = [
  '--at',
  '--target',
  '--mask-keep-last',
  '--mask-keep-turns',
  '--recall-budget',
  '--json',
  '--prices',
  '--html',
  '--help',
  '--version',
] as const;

/** The masking options, by the `maskToolResults` field each sets. */
const MASK_OPTIONS = { '--mask-keep-last': 'keepLast', '--mask-keep-turns': 'keepTurns' } as const;

/** The masking option `arg` names (`--mask-keep-last` or `--mask-keep-last=3`), if any. */
const maskOption = (arg: string): keyof typeof MASK_OPTIONS | undefined =>
  (Object.keys(MASK_OPTIONS) as (keyof typeof MASK_OPTIONS)[]).find(
    (name) => arg === name || arg.startsWith(`${name}=`),
  );
const COMMANDS = ['inspect'] as const;

const STEP = /^(0|[1-9][0-9]{0,8})$/;

/** ` (did you mean --html?)` for a name near a known one, else `''`. */
const didYouMean = (typed: string, names: readonly string[]): string => {
  const name = closestName(typed.split('=')[0] ?? typed, names);
  return name === null ? '' : ` (did you mean ${name}?)`;
};

/**
 * Reads the command line (the arguments after the program name).
 *
 * @param argv - e.g. `['inspect', 'log.json', '--at', '3']`
 * @returns what to do; an unknown option or command names the nearest known one
 * @example
 * ```ts
 * parseArgs(['inspect', 'log.json', '--json']); // { kind: 'inspect', file: 'log.json', at: null, json: true, html: null, target: 'openai' }
 * parseArgs(['inspect', 'log.json', '--at', '3', '--target', 'antropic']); // usage: --target expects openai, anthropic, none, got "antropic" (did you mean anthropic?)
 * parseArgs(['inspect', 'log.json', '--htm', 'out.html']); // usage: unknown option "--htm" (did you mean --html?)
 * ```
 */
export const parseArgs = (argv: readonly string[]): InspectArgs => {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  if (argv.includes('--version') || argv.includes('-v')) return { kind: 'version' };
  const [command, ...rest] = argv;
  if (command !== 'inspect') {
    return {
      kind: 'usage',
      problem:
        command === undefined
          ? 'missing command'
          : `unknown command ${quoteText(command)}${didYouMean(command, COMMANDS)}`,
    };
  }
  let file: string | undefined;
  let at: number | null = null;
  let json = false;
  let html: string | null = null;
  let prices: string | null = null;
  let target: ViewTarget | null = null;
  let mask: { keepLast?: number; keepTurns?: number } | null = null;
  let recall: number | null = null;
  let literal = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (!literal && arg === '--') literal = true;
    else if (!literal && arg === '--json') json = true;
    else if (!literal && (arg === '--at' || arg.startsWith('--at='))) {
      const value = arg === '--at' ? rest[++i] : arg.slice('--at='.length);
      if (value === undefined || !STEP.test(value)) {
        return {
          kind: 'usage',
          problem: `--at expects a step number (0, 1, 2, …), got ${value === undefined ? 'nothing' : quoteText(value)}`,
        };
      }
      at = Number(value);
    } else if (!literal && (arg === '--target' || arg.startsWith('--target='))) {
      const value = arg === '--target' ? rest[++i] : arg.slice('--target='.length);
      const known = VIEW_TARGETS.find((name) => name === value);
      if (known === undefined) {
        return {
          kind: 'usage',
          problem: `--target expects ${VIEW_TARGETS.join(', ')}, got ${value === undefined ? 'nothing' : `${quoteText(value)}${didYouMean(value, VIEW_TARGETS)}`}`,
        };
      }
      target = known;
    } else if (!literal && maskOption(arg) !== undefined) {
      const name = maskOption(arg) as keyof typeof MASK_OPTIONS;
      const value = arg === name ? rest[++i] : arg.slice(name.length + 1);
      if (value === undefined || !STEP.test(value)) {
        return {
          kind: 'usage',
          problem: `${name} expects a count (0, 1, 2, …), got ${value === undefined ? 'nothing' : quoteText(value)}`,
        };
      }
      mask = { ...(mask ?? {}), [MASK_OPTIONS[name]]: Number(value) };
    } else if (!literal && (arg === '--recall-budget' || arg.startsWith('--recall-budget='))) {
      const value = arg === '--recall-budget' ? rest[++i] : arg.slice('--recall-budget='.length);
      if (value === undefined || !STEP.test(value) || value === '0') {
        return {
          kind: 'usage',
          problem: `--recall-budget expects a number of tokens (1, 2, …), got ${value === undefined ? 'nothing' : quoteText(value)}`,
        };
      }
      recall = Number(value);
    } else if (!literal && (arg === '--html' || arg.startsWith('--html='))) {
      const value = arg === '--html' ? rest[++i] : arg.slice('--html='.length);
      if (value === undefined || value === '') {
        return { kind: 'usage', problem: '--html expects the file to write (--html OUT)' };
      }
      html = value;
    } else if (!literal && (arg === '--prices' || arg.startsWith('--prices='))) {
      const value = arg === '--prices' ? rest[++i] : arg.slice('--prices='.length);
      if (value === undefined || value === '') {
        return {
          kind: 'usage',
          problem: '--prices expects the JSON file of prices (--prices FILE)',
        };
      }
      prices = value;
    } else if (!literal && arg.startsWith('-') && arg !== '-') {
      return {
        kind: 'usage',
        problem: `unknown option ${quoteText(arg)}${didYouMean(arg, OPTIONS)}`,
      };
    } else if (file === undefined) file = arg;
    else return { kind: 'usage', problem: `one FILE only, got also ${quoteText(arg)}` };
  }
  if (file === undefined) return { kind: 'usage', problem: 'missing FILE' };
  if (html !== null && (json || at !== null)) {
    return {
      kind: 'usage',
      problem: '--html writes the whole timeline: use it without --at and --json',
    };
  }
  if (target !== null && at === null) {
    return {
      kind: 'usage',
      problem:
        '--target chooses the model view of --at N: use it with --at (the page has a selector)',
    };
  }
  if (mask !== null && at === null) {
    return {
      kind: 'usage',
      problem:
        '--mask-keep-last and --mask-keep-turns mask the model view of --at N: use them with --at (the page has a field)',
    };
  }
  if (recall !== null && at === null) {
    return {
      kind: 'usage',
      problem:
        '--recall-budget recalls in the model view of --at N: use it with --at (the page has a field)',
    };
  }
  return {
    kind: 'inspect',
    file,
    at,
    json,
    html,
    target: target ?? 'openai',
    ...(mask === null ? {} : { mask }),
    ...(recall === null ? {} : { recall }),
    ...(prices === null ? {} : { prices }),
  };
};
