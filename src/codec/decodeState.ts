import { either as E } from 'fp-ts';
import { type DecodeErrorOptions, MemoryDecodeError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { keySegment } from '../util/escapeText';
import { isPlainObject } from '../util/isPlainObject';
import { normalizeMessage } from '../internal/normalizeMessage';
import { CONFIG_FIELDS, fileKey } from '../internal/configFields';
import { positionsOf } from '../internal/positions';
import type { MemoryState } from '../model/state';
import { messageToDict } from '../serialization/toDict';
import type { MessageDict } from '../serialization/types';
import { ProblemList } from './budget';
import { EXTENSION_KEY } from './persisted';
import { fromDictWithEffects } from './fromDict';
import { readItems } from './readItems';
import { readRuns } from './readRuns';
import { checkCounts, checkCoverageLength, checkTokenCounts, readPending } from './stateLists';
import { publicDecode } from './publicDecoder';

const API = 'decodeState';

/** Every field of a state, and of its config. */
const STATE_KEYS = [
  'config',
  'messages',
  'tokenCounts',
  'positionRuns',
  'nextPosition',
  'totalTokens',
  'summary',
  'pendingMessages',
  'pendingPositions',
  'summaryCoverage',
] as const;
type StateKey = (typeof STATE_KEYS)[number];

/**
 * Where a problem found in the dict form lies in the state, by its own field names: at the root
 * of the file (a config field of the reference's format), or under the extension key (the other
 * config fields, then what else only the extension key holds). Built when a problem is renamed.
 */
const renames = (extension: boolean): readonly (readonly [file: string, state: string])[] => [
  ...CONFIG_FIELDS.filter((field) => (field.file === 'extension') === extension).map(
    (field) => [fileKey(field.name), `config.${field.name}`] as const,
  ),
  ...(extension ? EXTENSION_RENAMES : []),
];

/** What else the extension key holds, under the state's names. */
const EXTENSION_RENAMES: readonly (readonly [string, string])[] = [
  ['positions', 'positionRuns (as positions)'],
  ['next_position', 'nextPosition'],
  ['pending', 'pendingMessages'],
  ['summary_coverage', 'summaryCoverage'],
  ['knowledge', 'knowledge'],
  ['trimmed_usage', 'trimmedUsage'],
];

/** Whether `problem` is about the key `key` (it starts with the key, then no more of a name). */
const isAbout = (problem: string, key: string): boolean =>
  problem.startsWith(key) && !/^\w/.test(problem.slice(key.length));

/** A held entry's position or message (after the extension key), named by the state's lists. */
const PENDING_ITEM = /^pending\[(\d+)\]\.(position|message)/;

const rename = (problem: string): string => {
  for (const [from, to] of renames(false))
    if (isAbout(problem, from)) return to + problem.slice(from.length);
  const prefix = `${EXTENSION_KEY}.`;
  if (!problem.startsWith(prefix)) return problem;
  const rest = problem.slice(prefix.length);
  const held = PENDING_ITEM.exec(rest);
  if (held !== null) {
    const list = held[2] === 'position' ? 'pendingPositions' : 'pendingMessages';
    return `${list}[${held[1]}]${rest.slice(held[0].length)}`;
  }
  for (const [from, to] of renames(true))
    if (isAbout(rest, from)) return to + rest.slice(from.length);
  return problem;
};

const fail = (
  problems: readonly string[],
  options: DecodeErrorOptions = {},
): E.Either<MemoryDecodeError, never> => E.left(new MemoryDecodeError(API, problems, options));

/** The problems found so far, as a failure that says whether the count is complete. */
const failWith = (found: ProblemList): E.Either<MemoryDecodeError, never> =>
  fail(found.lines, { countComplete: !found.full });

/**
 * Checks a whole `MemoryState` that comes back from storage (what `JSON.parse` gives after
 * redux-persist or Zustand's `persist` stored one), instead of trusting it: the config, every
 * message (as on entry), the token counts against a recount with the named tokenizer, the total,
 * the positions and held messages, the summary and its coverage, the knowledge (when present,
 * with `decodeKnowledgeState`, its cursors at most `nextPosition`), the usage of the calls that
 * left the window (`trimmedUsage`, when present: every field a count by `readUsage`'s rules,
 * `calls` at least 1, the cache reads and writes at most `inputTokens`), and the window against its
 * tool-pair rules. Problems name the state's own fields
 * (`messages[3].role …`, `tokenCounts[2]: expected 5 …`, `config.maxMessages …`). Never throws on
 * bad input.
 *
 * Rejection is bounded as in `fromDict`: each field is read once; a list that cannot be right is
 * refused before it is read (more runs than messages, more than 1,000 held messages or 100
 * coverage records, a `tokenCounts` of another length than the window, an empty window's
 * included), a sparse list (which `structuredClone` keeps) at its first hole, and the decoder
 * stops looking after 1,000 problems (`countComplete: false`). Positions decode `-0` as `0`
 * (JSON has no `-0`) and lie below 2^48 (`nextPosition` at most 2^48), so a state that decodes
 * writes, with `toDict`, a file that `fromDict` loads back equal. Bad data is reported as
 * `kind: 'data'` even when the tokenizer is unknown too.
 *
 * @param input - parsed JSON of a state
 * @returns `Right(state)` (a fresh, frozen state equal to a valid input) or
 *   `Left(MemoryDecodeError)`; `left.kind` is `'tokenizer'` when the tokenizer cannot count here
 * @example
 * ```ts
 * const restored = decodeState(JSON.parse(localStorage.getItem('memory') ?? 'null'));
 * ```
 */
export const decodeState = (input: unknown): E.Either<MemoryDecodeError, MemoryState> =>
  publicDecode(API, () => decode(input));

/**
 * Reads each field of the state once (own properties only); a missing one is a problem, except
 * `knowledge`, which a state has only once a knowledge action was applied, and `trimmedUsage`,
 * which it has only once a call's usage left the window.
 */
const readFields = (
  input: Record<string, unknown>,
  found: ProblemList,
): Record<StateKey, unknown> & { knowledge?: unknown; trimmedUsage?: unknown } => {
  const fields = {} as Record<StateKey, unknown> & { knowledge?: unknown; trimmedUsage?: unknown };
  for (const key of STATE_KEYS) {
    if (Object.hasOwn(input, key)) fields[key] = input[key];
    else found.add(`${key}: missing`);
  }
  if (Object.hasOwn(input, 'knowledge')) fields.knowledge = input['knowledge'];
  if (Object.hasOwn(input, 'trimmedUsage')) fields.trimmedUsage = input['trimmedUsage'];
  return fields;
};

/**
 * Checks the config's keys against the config table: each present (except a field added after
 * the state was stored, which gets its default), no other (at most a budget's worth reported).
 */
const checkConfigKeys = (config: Record<string, unknown>, found: ProblemList): void => {
  for (const { name, inEveryState } of CONFIG_FIELDS) {
    if (inEveryState && !Object.hasOwn(config, name)) found.add(`config.${name}: missing`);
  }
  for (const key of Object.keys(config)) {
    if (found.full) return;
    if (!CONFIG_FIELDS.some((field) => field.name === key)) {
      found.add(`config${keySegment(key)}: not a config field`);
    }
  }
};

/** A message of the state, checked as on entry, in the dict form `fromDict` reads. */
const messageDict = (value: unknown, i: number): MessageDict =>
  messageToDict(normalizeMessage(value, API, i));

const decode = (input: unknown): E.Either<MemoryDecodeError, MemoryState> => {
  if (!isPlainObject(input))
    return fail([`(root): expected a state object, got ${describeValue(input)}`]);
  if (Object.hasOwn(input, 'max_messages')) {
    return fail([
      '(root): this is a toDict file (snake_case keys), not a state: load it with fromDict',
    ]);
  }
  const found = new ProblemList();
  // A stored state has every field: a missing one is a problem, not a default.
  const fields = readFields(input, found);
  const { config, messages } = fields;
  if (!isPlainObject(config))
    return fail([`config: expected an object, got ${describeValue(config)}`]);
  if (!Array.isArray(messages))
    return fail([`messages: expected a list, got ${describeValue(messages)}`]);
  checkConfigKeys(config, found);
  const list = messages as readonly unknown[];
  const length = list.length;
  const read = readItems(list, 'messages', found, messageDict);
  // A hole or the cap cut the walk short: the window is unknown, so nothing that depends on it
  // (runs, counts) is checked.
  if (!read.whole) return failWith(found);
  const dictMessages = read.items;
  // A missing field was reported as missing: it is not reported again as a wrong one.
  const has = (key: StateKey): boolean => !found.full && Object.hasOwn(fields, key);
  const runs = has('positionRuns') ? readRuns(fields.positionRuns, length, found) : [];
  const pending =
    has('pendingMessages') && has('pendingPositions')
      ? readPending(fields.pendingMessages, fields.pendingPositions, found, messageDict)
      : [];
  if (has('tokenCounts')) checkTokenCounts(fields.tokenCounts, length, found);
  if (has('summaryCoverage')) checkCoverageLength(fields.summaryCoverage, found);
  if (found.lines.length > 0) return failWith(found);
  // The dict form of the state: each config field under its file key, where a file keeps it.
  const dict: Record<string, unknown> = {};
  const extension: Record<string, unknown> = {};
  for (const { name, file } of CONFIG_FIELDS) {
    (file === 'extension' ? extension : dict)[fileKey(name)] = config[name];
  }
  dict['messages'] = dictMessages;
  dict['summary'] = fields.summary;
  dict[EXTENSION_KEY] = Object.assign(extension, {
    positions: positionsOf(runs, length),
    next_position: fields.nextPosition,
    pending,
    summary_coverage: fields.summaryCoverage,
    knowledge: fields.knowledge,
    trimmed_usage: fields.trimmedUsage,
  });
  const decoded = fromDictWithEffects(dict);
  if (E.isLeft(decoded)) {
    const { kind, problemCount, countComplete } = decoded.left;
    return fail(decoded.left.problems.map(rename), {
      kind: kind === 'tokenizer' ? 'tokenizer' : 'data',
      problemCount,
      countComplete,
    });
  }
  const { state, effects } = decoded.right;
  if (effects.length > 0) {
    return fail([
      'messages: the window breaks its tool-pair rules (a load would drop messages from it)',
    ]);
  }
  checkCounts(state, fields.tokenCounts as readonly unknown[], fields.totalTokens, found);
  return found.lines.length > 0 ? failWith(found) : E.right(state);
};
