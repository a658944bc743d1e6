import { either as E } from 'fp-ts';
import { type DecodeErrorOptions, MemoryDecodeError } from '../errors/errorClasses';
import { describeValue } from '../internal/describeValue';
import { errorText } from '../internal/errorText';
import { keySegment } from '../internal/escapeText';
import { isPlainObject } from '../internal/isPlainObject';
import { normalizeMessage } from '../internal/normalizeMessage';
import { positionsOf } from '../internal/positions';
import { MAX_PENDING_MESSAGES, MAX_SUMMARY_COVERAGE, type MemoryState } from '../model/state';
import { messageToDict } from '../serialization/toDict';
import type { MessageDict } from '../serialization/types';
import { ProblemList } from './budget';
import { EXTENSION_KEY } from './persisted';
import { fromDictWithEffects } from './fromDict';
import { readItems } from './readItems';
import { readRuns } from './readRuns';

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
const CONFIG_KEYS: readonly string[] = [
  'maxMessages',
  'maxTokens',
  'tokenizer',
  'toolPairs',
  'startOn',
  'pinSystem',
];

/** Where a problem found in the dict form lies in the state: its own field names. */
const RENAMES: readonly (readonly [string, string])[] = [
  ['max_messages', 'config.maxMessages'],
  ['max_tokens', 'config.maxTokens'],
  [`${EXTENSION_KEY}.tokenizer`, 'config.tokenizer'],
  [`${EXTENSION_KEY}.tool_pairs`, 'config.toolPairs'],
  [`${EXTENSION_KEY}.start_on`, 'config.startOn'],
  [`${EXTENSION_KEY}.pin_system`, 'config.pinSystem'],
  [`${EXTENSION_KEY}.positions`, 'positionRuns (as positions)'],
  [`${EXTENSION_KEY}.next_position`, 'nextPosition'],
  [`${EXTENSION_KEY}.pending`, 'pendingMessages'],
  [`${EXTENSION_KEY}.summary_coverage`, 'summaryCoverage'],
];

/** A held entry's position or message, named by the state's parallel lists. */
const PENDING_ITEM = new RegExp(`^${EXTENSION_KEY}\\.pending\\[(\\d+)\\]\\.(position|message)`);

const rename = (problem: string): string => {
  const held = PENDING_ITEM.exec(problem);
  if (held !== null) {
    const list = held[2] === 'position' ? 'pendingPositions' : 'pendingMessages';
    return `${list}[${held[1]}]${problem.slice(held[0].length)}`;
  }
  for (const [from, to] of RENAMES)
    if (problem.startsWith(from)) return to + problem.slice(from.length);
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
 * the positions and held messages, the summary and its coverage, and the window against its
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
export const decodeState = (input: unknown): E.Either<MemoryDecodeError, MemoryState> => {
  try {
    return decode(input);
  } catch (error) {
    return fail([`(root): could not read the input: ${errorText(error)}`]);
  }
};

/** Reads each field of the state once (own properties only); a missing one is a problem. */
const readFields = (
  input: Record<string, unknown>,
  found: ProblemList,
): Record<StateKey, unknown> => {
  const fields = {} as Record<StateKey, unknown>;
  for (const key of STATE_KEYS) {
    if (Object.hasOwn(input, key)) fields[key] = input[key];
    else found.add(`${key}: missing`);
  }
  return fields;
};

/** Checks the config's keys: each one present, no other (at most a budget's worth reported). */
const checkConfigKeys = (config: Record<string, unknown>, found: ProblemList): void => {
  for (const key of CONFIG_KEYS) {
    if (!Object.hasOwn(config, key)) found.add(`config.${key}: missing`);
  }
  for (const key of Object.keys(config)) {
    if (found.full) return;
    if (!CONFIG_KEYS.includes(key)) found.add(`config${keySegment(key)}: not a config field`);
  }
};

/** A message of the state, checked as on entry, in the dict form `fromDict` reads. */
const messageDict = (value: unknown, i: number): MessageDict =>
  messageToDict(normalizeMessage(value, API, i));

/**
 * The held messages with their positions, as `fromDict` reads them: two lists of one length, at
 * most {@link MAX_PENDING_MESSAGES} (refused at once when longer, before any item is read).
 */
const readPending = (
  messages: unknown,
  positions: unknown,
  found: ProblemList,
): { position: unknown; message: MessageDict }[] => {
  if (
    !Array.isArray(messages) ||
    !Array.isArray(positions) ||
    (messages as unknown[]).length !== (positions as unknown[]).length
  ) {
    found.add('pendingMessages, pendingPositions: expected two lists of the same length');
    return [];
  }
  const length = (messages as unknown[]).length;
  if (length > MAX_PENDING_MESSAGES) {
    found.add(`pendingMessages: at most ${MAX_PENDING_MESSAGES} held messages, received ${length}`);
    return [];
  }
  const read = readItems(
    messages as readonly unknown[],
    'pendingMessages',
    found,
    (message, i) => ({
      position: (positions as readonly unknown[])[i],
      message: messageDict(message, i),
    }),
    'pendingMessages: ',
  );
  return read.items;
};

/** The stored counts: a list as long as the window (even an empty one), before any is read. */
const checkTokenCounts = (counts: unknown, length: number, found: ProblemList): void => {
  if (!Array.isArray(counts)) {
    found.add(`tokenCounts: expected a list of ${length} counts, got ${describeValue(counts)}`);
  } else if ((counts as unknown[]).length !== length) {
    found.add(`tokenCounts: expected ${length} counts, received ${(counts as unknown[]).length}`);
  }
};

/** The coverage records: at most {@link MAX_SUMMARY_COVERAGE}, refused before any is read. */
const checkCoverageLength = (coverage: unknown, found: ProblemList): void => {
  const length = Array.isArray(coverage) ? (coverage as unknown[]).length : 0;
  if (length > MAX_SUMMARY_COVERAGE) {
    found.add(`summaryCoverage: at most ${MAX_SUMMARY_COVERAGE} records, received ${length}`);
  }
};

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
      ? readPending(fields.pendingMessages, fields.pendingPositions, found)
      : [];
  if (has('tokenCounts')) checkTokenCounts(fields.tokenCounts, length, found);
  if (has('summaryCoverage')) checkCoverageLength(fields.summaryCoverage, found);
  if (found.lines.length > 0) return failWith(found);
  const dict = {
    max_messages: config['maxMessages'],
    max_tokens: config['maxTokens'],
    messages: dictMessages,
    summary: fields.summary,
    [EXTENSION_KEY]: {
      tokenizer: config['tokenizer'],
      tool_pairs: config['toolPairs'],
      start_on: config['startOn'],
      pin_system: config['pinSystem'],
      positions: positionsOf(runs, length),
      next_position: fields.nextPosition,
      pending,
      summary_coverage: fields.summaryCoverage,
    },
  };
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

/** Checks the stored counts and total against the fresh ones (the list's length is checked). */
const checkCounts = (
  state: MemoryState,
  counts: readonly unknown[],
  totalTokens: unknown,
  found: ProblemList,
): void => {
  const expected = state.tokenCounts;
  for (let i = 0; i < expected.length && !found.full; i++) {
    const count = counts[i];
    if (count !== expected[i]) {
      found.add(
        `tokenCounts[${i}]: expected ${expected[i]} (counted with ${state.config.tokenizer}), received ${describeValue(count)}`,
      );
    }
  }
  if (totalTokens !== state.totalTokens) {
    found.add(`totalTokens: expected ${state.totalTokens}, received ${describeValue(totalTokens)}`);
  }
};
