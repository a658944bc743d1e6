import { either as E } from 'fp-ts';
import { isConversationMemoryError } from '../errors/ConversationMemoryError';
import { MemoryDecodeError } from '../errors/errorClasses';
import { describeValue } from '../internal/describeValue';
import { errorText } from '../internal/errorText';
import { isPlainObject } from '../internal/isPlainObject';
import { normalizeMessage } from '../internal/normalizeMessage';
import { positionsOf } from '../internal/positions';
import type { PositionRun, MemoryState } from '../model/state';
import { messageToDict } from '../serialization/toDict';
import { EXTENSION_KEY } from './persisted';
import { fromDictWithEffects } from './fromDict';

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

const rename = (problem: string): string => {
  for (const [from, to] of RENAMES)
    if (problem.startsWith(from)) return to + problem.slice(from.length);
  return problem;
};

const fail = (problems: readonly string[], kind: 'data' | 'tokenizer' = 'data') =>
  E.left(new MemoryDecodeError(API, problems, { kind }));

/** The runs of a state, checked: objects `{ index, position }`, the first at index 0, rising. */
const readRuns = (runs: unknown, length: number, problems: string[]): readonly PositionRun[] => {
  if (!Array.isArray(runs)) {
    problems.push(
      `positionRuns: expected a list of { index, position }, got ${describeValue(runs)}`,
    );
    return [];
  }
  const out: PositionRun[] = [];
  runs.forEach((run: unknown, i) => {
    const ok =
      isPlainObject(run) &&
      Number.isSafeInteger(run['index']) &&
      Number.isSafeInteger(run['position']) &&
      (run['position'] as number) >= 0 &&
      (run['index'] as number) === (i === 0 ? 0 : run['index']) &&
      (run['index'] as number) < length &&
      (i === 0 || (run['index'] as number) > (out[i - 1]?.index ?? Infinity));
    if (!ok) {
      problems.push(
        `positionRuns[${i}]: expected { index, position } with rising indices from 0 below ${length}, got ${describeValue(run)}`,
      );
    } else {
      out.push({ index: run['index'] as number, position: run['position'] as number });
    }
  });
  if (length > 0 && runs.length === 0)
    problems.push('positionRuns: expected at least one run for a non-empty window');
  return out;
};

/**
 * Checks a whole `MemoryState` that comes back from storage (what `JSON.parse` gives after
 * redux-persist or Zustand's `persist` stored one), instead of trusting it: the config, every
 * message (as on entry), the token counts against a recount with the named tokenizer, the total,
 * the positions and held messages, the summary and its coverage, and the window against its
 * tool-pair rules. Problems name the state's own fields
 * (`messages[3].role …`, `tokenCounts[2]: expected 5 …`, `config.maxMessages …`). Never throws on
 * bad input.
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

const decode = (input: unknown): E.Either<MemoryDecodeError, MemoryState> => {
  if (!isPlainObject(input))
    return fail([`(root): expected a state object, got ${describeValue(input)}`]);
  if (Object.hasOwn(input, 'max_messages')) {
    return fail([
      '(root): this is a toDict file (snake_case keys), not a state: load it with fromDict',
    ]);
  }
  const { config, messages, tokenCounts, totalTokens, summary } = input as Record<string, unknown>;
  if (!isPlainObject(config))
    return fail([`config: expected an object, got ${describeValue(config)}`]);
  if (!Array.isArray(messages))
    return fail([`messages: expected a list, got ${describeValue(messages)}`]);
  const problems: string[] = [];
  // A stored state has every field: a missing one is a problem, not a default.
  for (const key of STATE_KEYS) {
    if (!Object.hasOwn(input, key)) problems.push(`${key}: missing`);
  }
  for (const key of CONFIG_KEYS) {
    if (!Object.hasOwn(config, key)) problems.push(`config.${key}: missing`);
  }
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.includes(key)) problems.push(`config.${key}: not a config field`);
  }
  const dictMessages = messages.map((message: unknown, i) => {
    try {
      return messageToDict(normalizeMessage(message, API, i));
    } catch (error) {
      problems.push(isConversationMemoryError(error) ? error.detail : errorText(error));
      return null;
    }
  });
  const runs = readRuns(input['positionRuns'], messages.length, problems);
  const pendingMessages = input['pendingMessages'];
  const pendingPositions = input['pendingPositions'];
  if (
    !Array.isArray(pendingMessages) ||
    !Array.isArray(pendingPositions) ||
    pendingMessages.length !== pendingPositions.length
  ) {
    problems.push('pendingMessages, pendingPositions: expected two lists of the same length');
  }
  const pending = (Array.isArray(pendingMessages) ? pendingMessages : []).map(
    (message: unknown, i) => {
      try {
        return {
          position: (pendingPositions as unknown[])[i],
          message: messageToDict(normalizeMessage(message, API, i)),
        };
      } catch (error) {
        const detail = isConversationMemoryError(error) ? error.detail : errorText(error);
        problems.push(`pendingMessages: ${detail}`);
        return null;
      }
    },
  );
  if (problems.length > 0) return fail(problems);
  const dict = {
    max_messages: config['maxMessages'],
    max_tokens: config['maxTokens'],
    messages: dictMessages,
    summary,
    [EXTENSION_KEY]: {
      tokenizer: config['tokenizer'],
      tool_pairs: config['toolPairs'],
      start_on: config['startOn'],
      pin_system: config['pinSystem'],
      positions: positionsOf(runs, messages.length),
      next_position: input['nextPosition'],
      pending,
      summary_coverage: input['summaryCoverage'],
    },
  };
  const decoded = fromDictWithEffects(dict);
  if (E.isLeft(decoded)) {
    const { kind } = decoded.left;
    return fail(decoded.left.problems.map(rename), kind === 'tokenizer' ? 'tokenizer' : 'data');
  }
  const { state, effects } = decoded.right;
  if (effects.length > 0) {
    return fail([
      'messages: the window breaks its tool-pair rules (a load would drop messages from it)',
    ]);
  }
  const counts = Array.isArray(tokenCounts) ? tokenCounts : [];
  state.tokenCounts.forEach((count, i) => {
    if (counts[i] !== count) {
      problems.push(
        `tokenCounts[${i}]: expected ${count} (counted with ${state.config.tokenizer}), received ${describeValue(counts[i])}`,
      );
    }
  });
  if (counts.length !== state.tokenCounts.length) {
    problems.push(
      `tokenCounts: expected ${state.tokenCounts.length} counts, received ${counts.length}`,
    );
  }
  if (totalTokens !== state.totalTokens) {
    problems.push(
      `totalTokens: expected ${state.totalTokens}, received ${describeValue(totalTokens)}`,
    );
  }
  return problems.length > 0 ? fail(problems) : E.right(state);
};
