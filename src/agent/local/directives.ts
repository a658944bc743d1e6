import { cloneJsonObject, NotJsonError } from '../../internal/cloneJson';
import type { JsonObject } from '../../model/message';
import { clip } from './text';

/**
 * Tool-call directives of `LocalProvider` (rule 4 of its table): a line of the newest user
 * message that reads `/call NAME {json args}`.
 */

/**
 * The word that starts a `LocalProvider` tool-call directive: a line `/call NAME {json args}` in
 * the user's message asks it to call the tool `NAME` (one call per line).
 *
 * @example
 * ```ts
 * userMessage(`${LOCAL_CALL_DIRECTIVE} calc {"a": 2, "b": 2}`); // '/call calc {"a": 2, "b": 2}'
 * ```
 */
export const LOCAL_CALL_DIRECTIVE = '/call';

/** A directive line: optional indentation, `/call`, then the rest of the line (maybe nothing). */
const DIRECTIVE = /^[ \t]*\/call(?:[ \t]+(.*))?$/s;

/** The rest of a directive: the tool name (no white space), then the arguments (maybe none). */
const NAME_AND_ARGS = /^(\S+)(?:\s+(.*))?$/s;

/** Names and argument texts are quoted in replies up to this many characters. */
const QUOTED_CHARS = 40;

/** A tool call to make: what a valid directive asks for. */
export interface PlannedCall {
  readonly name: string;
  readonly parameters: JsonObject;
}

/** What the directives of a message ask for: calls when every line is valid, else problems. */
export type DirectivePlan =
  | { readonly kind: 'calls'; readonly calls: readonly PlannedCall[] }
  | { readonly kind: 'problems'; readonly problems: readonly string[] };

/** The directive lines of `text` (what follows `/call` on each, trimmed), in order. */
export const directiveLines = (text: string): string[] => {
  const found: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    const match = DIRECTIVE.exec(line);
    if (match !== null) found.push((match[1] ?? '').trim());
  }
  return found;
};

const kindOf = (value: unknown): string =>
  Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;

const toolList = (tools: ReadonlySet<string>): string =>
  tools.size === 0
    ? 'no tools were offered'
    : `offered: ${clip([...tools].join(', '), QUOTED_CHARS * 4)}`;

/** One directive, checked: a call, or the sentence saying why it cannot be made. */
const planOne = (rest: string, tools: ReadonlySet<string>): PlannedCall | string => {
  const match = NAME_AND_ARGS.exec(rest);
  if (match === null) return 'Cannot call a tool: write /call NAME {"key": "value"}.';
  const name = match[1] ?? '';
  const args = (match[2] ?? '').trim();
  const quoted = `"${clip(name, QUOTED_CHARS)}"`;
  if (!tools.has(name))
    return `Cannot call ${quoted}: it is not a tool of this request (${toolList(tools)}).`;
  if (args === '') return { name, parameters: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return `Cannot call ${quoted}: its arguments are not valid JSON (${clip(args, QUOTED_CHARS)}).`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return `Cannot call ${quoted}: its arguments must be a JSON object, not ${kindOf(parsed)}.`;
  }
  try {
    return { name, parameters: cloneJsonObject(parsed, '') };
  } catch (error) {
    if (error instanceof NotJsonError)
      return `Cannot call ${quoted}: its arguments are ${error.reason}.`;
    throw error;
  }
};

/**
 * Checks the directive lines against the request's tools: every line a call (in line order), or,
 * when any line is wrong, one sentence per wrong line and no call at all.
 *
 * @param lines - from {@link directiveLines}, at least one
 * @param tools - the names of the request's tools
 * @returns the calls to make, or the problems to explain
 * @internal
 */
export const planDirectives = (
  lines: readonly string[],
  tools: ReadonlySet<string>,
): DirectivePlan => {
  const calls: PlannedCall[] = [];
  const problems: string[] = [];
  for (const line of lines) {
    const planned = planOne(line, tools);
    if (typeof planned === 'string') problems.push(planned);
    else calls.push(planned);
  }
  return problems.length > 0 ? { kind: 'problems', problems } : { kind: 'calls', calls };
};
