import { either as E } from 'fp-ts';
import { decodeAction } from '../../codec/decodeAction';
import { decodeConfig } from '../../codec/decodeConfig';
import { decodeEnvelope, encodeEnvelope } from '../../codec/envelope';
import { memoryReducer } from '../../core/memoryTransition';
import { isConversationMemoryError } from '../../errors/errorBrand';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { EventCorruptError } from '../../errors/eventErrors';
import { describeValue } from '../../util/describeValue';
import { errorText } from '../../util/errorText';
import { escapeText } from '../../util/escapeText';
import { isPlainObject } from '../../util/isPlainObject';
import { sameConfig as sameFields } from '../../internal/sameConfig';
import type { MemoryAction } from '../../model/actions';
import type { MemoryConfig } from '../../model/config';
import type { MemoryState } from '../../model/state';

/**
 * Where a stored record is, for {@link EventCorruptError}: the stream's key, the record's version
 * (0 for the config), the backend's location, and the API that read it.
 *
 * @example
 * ```ts
 * const at: RecordPlace = { key: 's1', version: 3, location: 'sqlite:events.db', api: 'load' };
 * ```
 */
export interface RecordPlace {
  readonly key: string;
  readonly version: number;
  readonly location: string;
  readonly api: string;
}

const parse = (json: unknown): { ok: true; value: unknown } | { ok: false; problem: string } => {
  if (typeof json !== 'string')
    return { ok: false, problem: `expected JSON text, got ${typeof json}` };
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch (error) {
    return { ok: false, problem: `not JSON: ${errorText(error)}` };
  }
};

const corrupt = (at: RecordPlace, problems: readonly string[], cause?: unknown) =>
  new EventCorruptError(at.api, at.key, at.version, at.location, problems, { cause });

const underPath = (prefix: string, problem: string): string =>
  problem.startsWith('(root)')
    ? `${prefix}${problem.slice('(root)'.length)}`
    : `${prefix}.${problem}`;

/**
 * The stored form of an action (JSON of its decoded, canonical copy).
 *
 * @example
 * ```ts
 * encodeActionJson(memoryActions.cleared()); // '{"type":"memory/cleared"}'
 * ```
 */
export const encodeActionJson = (action: MemoryAction): string => JSON.stringify(action);

/**
 * Reads a stored action back, checking it with `decodeAction`.
 *
 * @throws EventCorruptError whose problems start with `action` (`action.payload.role: …`)
 * @example
 * ```ts
 * readActionJson('{"type":"memory/cleared"}', { key: 's1', version: 1, location: 'memory', api: 'read' });
 * ```
 */
export const readActionJson = (json: unknown, at: RecordPlace): MemoryAction => {
  const parsed = parse(json);
  if (!parsed.ok) throw corrupt(at, [`action: ${parsed.problem}`]);
  const decoded = decodeAction(parsed.value);
  if (E.isLeft(decoded)) {
    throw corrupt(
      at,
      decoded.left.problems.map((problem) => underPath('action', problem)),
      decoded.left,
    );
  }
  return decoded.right;
};

/**
 * Applies a stored action to a state; a reducer that throws makes the record corrupt (it could
 * never be replayed), never a partly applied state.
 *
 * @throws EventCorruptError (`action: cannot be replayed: …`)
 * @example
 * ```ts
 * const next = applyStoredAction(state, action, { key: 's1', version: 4, location: 'memory', api: 'load' });
 * ```
 */
export const applyStoredAction = (
  state: MemoryState,
  action: MemoryAction,
  at: RecordPlace,
): MemoryState => {
  try {
    return memoryReducer(state, action);
  } catch (error) {
    const reason = isConversationMemoryError(error) ? error.detail : errorText(error);
    throw corrupt(at, [`action: cannot be replayed: ${reason}`], error);
  }
};

/**
 * The stored form of a stream's config.
 *
 * @example
 * ```ts
 * encodeConfigJson(createMemory().config);
 * ```
 */
export const encodeConfigJson = (config: MemoryConfig): string => JSON.stringify(config);

/**
 * Reads a stream's stored config back (`decodeConfig`).
 *
 * @throws EventCorruptError whose problems start with `config`
 * @example
 * ```ts
 * readConfigJson('{"maxMessages":20}', { key: 's1', version: 0, location: 'memory', api: 'load' });
 * ```
 */
export const readConfigJson = (json: unknown, at: RecordPlace): MemoryConfig => {
  const parsed = parse(json);
  if (!parsed.ok) throw corrupt(at, [`config: ${parsed.problem}`]);
  const decoded = decodeConfig(parsed.value);
  if (E.isLeft(decoded)) {
    throw corrupt(
      at,
      decoded.left.problems.map((problem) => `config.${problem}`),
      decoded.left,
    );
  }
  return decoded.right;
};

/**
 * Whether two configs are the same (every field).
 *
 * @example
 * ```ts
 * sameConfig(createMemory().config, createMemory({}).config); // true
 * ```
 */
export const sameConfig = (a: MemoryConfig, b: MemoryConfig): boolean => sameFields(a, b);

/**
 * Refuses an append whose `config` differs from the one the stream was created with.
 *
 * @throws MemoryArgumentError
 * @example
 * ```ts
 * checkSameConfig('s1', stored, given, 'append');
 * ```
 */
export const checkSameConfig = (
  key: string,
  stored: MemoryConfig,
  given: MemoryConfig | undefined,
  api: string,
): void => {
  if (given !== undefined && !sameConfig(stored, given)) {
    throw new MemoryArgumentError(
      api,
      `options.config differs from the config stream ${describeValue(key)} was created with (${escapeText(JSON.stringify(stored), 300)}): a stream's config is fixed at creation; nothing was written`,
    );
  }
};

/**
 * Which snapshot a stored one claims to be: the stream's storage key and the version it is the
 * state after. A snapshot is bound to both, so one copied from another stream, or to another
 * version of its own stream, is never mistaken for the state there.
 *
 * @example
 * ```ts
 * const at: SnapshotPlace = { stream: 'u1:s1', version: 256 };
 * ```
 */
export interface SnapshotPlace {
  readonly stream: string;
  readonly version: number;
  /**
   * The config the stream was created with, bound into the snapshot when given: a state after a
   * `memory/reconfigured` action has another config than the stream's, and is recognised by this.
   */
  readonly config?: MemoryConfig;
}

/**
 * The stored form of a snapshot: `{"stream", "version", "envelope"}`, the state's versioned
 * envelope bound to the stream's key and the version it is the state after, and (with
 * `at.config`) `{"stream", "version", "config", "envelope"}`, bound to the stream's config too.
 *
 * @param state - the state after `at.version` actions of the stream
 * @param at - the stream's storage key, the version, and the stream's config
 * @returns the JSON to store
 * @example
 * ```ts
 * encodeSnapshotJson(state, { stream: 'u1:s1', version: 256, config });
 * ```
 */
export const encodeSnapshotJson = (state: MemoryState, at: SnapshotPlace): string =>
  JSON.stringify(
    at.config === undefined
      ? { stream: at.stream, version: at.version, envelope: encodeEnvelope(state) }
      : {
          stream: at.stream,
          version: at.version,
          config: at.config,
          envelope: encodeEnvelope(state),
        },
  );

/**
 * Reads a snapshot back; `undefined` when it does not decode, when it is not bound to `at` (another
 * stream's, another version's, or an unbound one written before snapshots were bound), or when its
 * config is not the stream's: the config bound into it, or, in a snapshot without one, its state's
 * (so such a snapshot taken after a `memory/reconfigured` action is passed over). Snapshots are
 * only an optimisation: such a snapshot is passed over (the actions are replayed from an earlier
 * one), never trusted.
 *
 * @param json - the stored snapshot
 * @param config - the stream's config
 * @param at - the stream's storage key and the version the snapshot is stored at
 * @returns the state, or `undefined`
 * @example
 * ```ts
 * const state = readSnapshotJson(row.state, config, { stream: key, version: row.version }) ?? createMemory(config);
 * ```
 */
export const readSnapshotJson = (
  json: unknown,
  config: MemoryConfig,
  at: SnapshotPlace,
): MemoryState | undefined => {
  const parsed = parse(json);
  if (!parsed.ok || !isPlainObject(parsed.value)) return undefined;
  const { stream, version, envelope } = parsed.value;
  if (stream !== at.stream || version !== at.version) return undefined;
  let bound: MemoryConfig | undefined;
  if (Object.hasOwn(parsed.value, 'config')) {
    const decodedConfig = decodeConfig(parsed.value['config']);
    if (E.isLeft(decodedConfig)) return undefined;
    bound = decodedConfig.right;
  }
  const decoded = decodeEnvelope(envelope);
  if (E.isLeft(decoded) || decoded.right.kind !== 'state') return undefined;
  const { state } = decoded.right;
  return sameConfig(bound ?? state.config, config) ? state : undefined;
};
