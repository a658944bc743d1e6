import { either as E } from 'fp-ts';
import { decodeAction } from '../../codec/decodeAction';
import { MemoryArgumentError, MemoryDecodeError } from '../../errors/memoryErrors';
import { checkConfig, configError } from '../../internal/checkConfig';
import { readOption } from '../../internal/readOption';
import { describeValue } from '../../util/describeValue';
import { DEFAULT_SNAPSHOT_EVERY } from '../../log/eventLog';
import type { MemoryAction } from '../../model/actions';
import type { MemoryConfig } from '../../model/config';
import { checkEventOptions } from './methodOptions';
import { sessionKeyOf } from './sessionKey';

/**
 * An append's arguments, checked: the stream's key, the expected version, the actions decoded
 * (canonical frozen copies) and the config, normalised (`undefined` when none was given).
 *
 * @example
 * ```ts
 * const checked: CheckedAppend = checkAppend('s1', [action], { expectedVersion: 0 });
 * ```
 */
export interface CheckedAppend {
  readonly key: string;
  readonly expectedVersion: number;
  readonly actions: readonly MemoryAction[];
  readonly config: MemoryConfig | undefined;
}

const isVersion = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * Checks the arguments of `EventStore.append` before anything is written: the id (as a session
 * id), `expectedVersion` (required, an integer ≥ 0), `config` (as `createMemory` checks it) and
 * every action (`decodeAction`); one bad action rejects the whole batch, naming it.
 *
 * @param streamId - the id as given
 * @param actions - the actions as given
 * @param options - the options as given
 * @param api - the calling method, for the errors
 * @returns the checked arguments
 * @throws SessionIdError, MemoryArgumentError, MemoryConfigError, or MemoryDecodeError whose
 *   problems name each bad action (`actions[1].payload: message.role must be …`)
 * @example
 * ```ts
 * checkAppend('s1', [memoryActions.cleared()], { expectedVersion: 0 }).key; // 's1'
 * ```
 */
export const checkAppend = (
  streamId: unknown,
  actions: unknown,
  options: unknown,
  api = 'checkAppend',
): CheckedAppend => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      `options must be an object with expectedVersion (0 creates the stream), received ${describeValue(options)}`,
    );
  }
  // Read once: the checks below see the copy.
  const given = checkEventOptions(options, 'append', api);
  const { key } = sessionKeyOf(streamId, given, api);
  const { expectedVersion, config } = given;
  if (!isVersion(expectedVersion)) {
    throw new MemoryArgumentError(
      api,
      `options.expectedVersion must be an integer ≥ 0 (0 creates the stream), received ${describeValue(expectedVersion)}`,
    );
  }
  let checkedConfig: MemoryConfig | undefined;
  if (config !== undefined) {
    const checked = checkConfig(config);
    if (!checked.ok) {
      // Named for the store method called and the field: `S.append: options.config.maxMessages …`.
      const problems = checked.problems.map((problem) =>
        problem.startsWith('options ')
          ? `options.config${problem.slice('options'.length)}`
          : `options.config.${problem}`,
      );
      throw configError(api, checked, problems);
    }
    checkedConfig = checked.config;
  }
  if (!Array.isArray(actions)) {
    throw new MemoryArgumentError(
      api,
      `actions must be an array of memory actions, received ${describeValue(actions)}`,
    );
  }
  const decoded: MemoryAction[] = [];
  const problems: string[] = [];
  let problemCount = 0;
  for (let i = 0; i < actions.length; i++) {
    const action = decodeAction(actions[i]);
    if (E.isRight(action)) {
      decoded.push(action.right);
      continue;
    }
    problemCount += action.left.problemCount;
    for (const problem of action.left.problems) {
      problems.push(
        problem.startsWith('(root)')
          ? `actions[${i}]${problem.slice('(root)'.length)}`
          : `actions[${i}].${problem}`,
      );
    }
  }
  if (problems.length > 0) throw new MemoryDecodeError(api, problems, { problemCount });
  return { key, expectedVersion, actions: Object.freeze(decoded), config: checkedConfig };
};

/**
 * Checks the range of `EventStore.read`: both ends integers, `fromVersion ≥ 1` (default 1),
 * `toVersion ≥ 0` (default: the stream's version, `Infinity` here).
 *
 * @throws MemoryArgumentError naming the bad option
 * @example
 * ```ts
 * readRangeOf({ fromVersion: 3 }, 'read'); // { from: 3, to: Infinity }
 * ```
 */
export const readRangeOf = (
  options: unknown,
  api = 'readRangeOf',
): { from: number; to: number } => {
  const fromVersion = readOption(options, 'fromVersion', api);
  const toVersion = readOption(options, 'toVersion', api);
  if (fromVersion !== undefined && (!isVersion(fromVersion) || fromVersion < 1)) {
    throw new MemoryArgumentError(
      api,
      `options.fromVersion must be an integer ≥ 1 (the first action is version 1), received ${describeValue(fromVersion)}`,
    );
  }
  if (toVersion !== undefined && !isVersion(toVersion)) {
    throw new MemoryArgumentError(
      api,
      `options.toVersion must be an integer ≥ 0, received ${describeValue(toVersion)}`,
    );
  }
  return { from: fromVersion ?? 1, to: toVersion ?? Number.POSITIVE_INFINITY };
};

/**
 * Checks `atVersion` of `EventStore.load`: `undefined` (the latest) or an integer ≥ 0.
 *
 * @throws MemoryArgumentError
 * @example
 * ```ts
 * atVersionOf({ atVersion: 4 }, 'load'); // 4
 * ```
 */
export const atVersionOf = (options: unknown, api = 'atVersionOf'): number | undefined => {
  const atVersion = readOption(options, 'atVersion', api);
  if (atVersion === undefined) return undefined;
  if (!isVersion(atVersion)) {
    throw new MemoryArgumentError(
      api,
      `options.atVersion must be an integer ≥ 0, received ${describeValue(atVersion)}`,
    );
  }
  return atVersion;
};

/**
 * Refuses an `atVersion` past the stream's end.
 *
 * @throws MemoryArgumentError
 * @example
 * ```ts
 * checkAtVersion('s1', 9, 4, 'load'); // throws: atVersion 9 is past the stream's version 4
 * ```
 */
export const checkAtVersion = (key: string, atVersion: number, version: number, api: string) => {
  if (atVersion > version) {
    throw new MemoryArgumentError(
      api,
      `options.atVersion ${atVersion} is past the version of stream ${describeValue(key)} (${version})`,
    );
  }
};

/**
 * Checks a store's `snapshotEvery` option: an integer ≥ 1 (default 256; no upper bound: a huge
 * value means no snapshots in practice).
 *
 * @throws MemoryArgumentError
 * @example
 * ```ts
 * snapshotEveryOf(undefined, 'InMemoryEventStore'); // 256
 * ```
 */
export const snapshotEveryOf = (value: unknown, api = 'snapshotEveryOf'): number => {
  if (value === undefined) return DEFAULT_SNAPSHOT_EVERY;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new MemoryArgumentError(
      api,
      `options.snapshotEvery must be an integer ≥ 1, received ${describeValue(value)}`,
    );
  }
  return value;
};
