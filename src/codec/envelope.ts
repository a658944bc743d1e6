import { either as E } from 'fp-ts';
import { MemoryDecodeError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';
import { isPlainObject } from '../util/isPlainObject';
import { normalizeMessage } from '../internal/normalizeMessage';
import { isConversationMemoryError } from '../errors/errorBrand';
import { DEFAULT_SNAPSHOT_EVERY, type EventLog } from '../log/eventLog';
import { logBuilder } from '../log/logBuilder';
import { vectorAt, vectorToArray } from '../log/logVector';
import { isSnapshotEvery, MAX_SNAPSHOT_EVERY, readLog } from '../log/readLog';
import { readState } from '../internal/readState';
import type { MemoryState } from '../model/state';
import { messageToDict, toDict } from '../serialization/toDict';
import type { MemoryDict } from '../serialization/types';
import { decodeAction } from './decodeAction';
import { decodeState as checkState } from './decodeState';
import { fromDict } from './fromDict';
import { publicDecode } from './publicDecoder';

/**
 * The version of the envelope this library writes, and the newest it reads.
 *
 * @example
 * ```ts
 * ENVELOPE_VERSION; // 1
 * ```
 */
export const ENVELOPE_VERSION = 1;

/**
 * The persisted form of a state or an event log: self-describing and versioned, so a reader can
 * tell what it holds and migrate older versions. `data` is a state's `toDict` JSON (the
 * reference's format plus our extension key), or a log's initial state and actions.
 *
 * @example
 * ```ts
 * const envelope: Envelope = encodeEnvelope(createMemory());
 * envelope.kind; // 'state'
 * ```
 */
export interface Envelope {
  readonly schema: 'conversation-memory';
  readonly version: number;
  readonly kind: 'state' | 'log';
  readonly data: unknown;
}

/**
 * What {@link decodeEnvelope} reads: a state or an event log.
 *
 * @example
 * ```ts
 * const decoded: DecodedEnvelope = { kind: 'state', state: createMemory() };
 * ```
 */
export type DecodedEnvelope =
  | { readonly kind: 'state'; readonly state: MemoryState }
  | { readonly kind: 'log'; readonly log: EventLog };

/**
 * Whether `value` is meant as a log: it has a `snapshotEvery` or an `actions` field (a state has
 * neither). A value that throws when read is taken as one, so that `readLog` names the problem.
 */
const meantAsLog = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false;
  try {
    const fields = value as Partial<Record<'snapshotEvery' | 'actions', unknown>>;
    return fields.snapshotEvery !== undefined || fields.actions !== undefined;
  } catch {
    return true;
  }
};

/**
 * Writes a state or an event log in its versioned envelope (plain JSON, ready for
 * `JSON.stringify`). A log keeps its initial state, its snapshot distance and its actions; its
 * snapshots and head are not stored: they are recomputed on load.
 *
 * @param value - a state, or an event log
 * @returns the envelope
 * @throws MemoryArgumentError when `value` is neither a state nor an event log
 * @example
 * ```ts
 * localStorage.setItem('chat', JSON.stringify(encodeEnvelope(state)));
 * ```
 */
export const encodeEnvelope = (value: MemoryState | EventLog): Envelope => {
  if (meantAsLog(value)) {
    const log = readLog(value, 'encodeEnvelope');
    return {
      schema: 'conversation-memory',
      version: ENVELOPE_VERSION,
      kind: 'log',
      data: {
        initial: toDict(vectorAt(log.snapshots, 0, 'encodeEnvelope')),
        snapshot_every: log.snapshotEvery,
        actions: vectorToArray(log.actions, 'encodeEnvelope'),
      },
    };
  }
  return {
    schema: 'conversation-memory',
    version: ENVELOPE_VERSION,
    kind: 'state',
    data: toDict(readState(value, 'encodeEnvelope')),
  };
};

const API = 'decodeEnvelope';

const fail = (problems: readonly string[], kind: 'data' | 'version' = 'data') =>
  E.left(new MemoryDecodeError(API, problems, { kind }));

/** The same failure, each problem's path under `prefix`, keeping its kind and count. */
const under = (prefix: string, error: MemoryDecodeError) =>
  E.left(
    new MemoryDecodeError(
      API,
      error.problems.map((problem) =>
        // `(root): …` of the inner value reads `data: …` (or stays at the root without a prefix).
        !problem.startsWith('(root)') || prefix === ''
          ? `${prefix}${problem}`
          : `${prefix.replace(/\.$/, '')}${problem.slice('(root)'.length)}`,
      ),
      { kind: error.kind, problemCount: error.problemCount, countComplete: error.countComplete },
    ),
  );

/**
 * Reads a state or an event log back from untrusted data, migrating older forms. Never throws on
 * bad input.
 *
 * - An envelope of this version: its `data` is decoded as a state (`fromDict`) or a log (its
 *   initial state, then every action through `decodeAction`, replayed to rebuild the snapshots).
 * - Older forms, migrated: a bare `toDict`/`to_dict` file (the reference's format, or what this
 *   library wrote before envelopes), and a raw `MemoryState` of 0.1.0 stored with `JSON.stringify`
 *   (as redux-persist or Zustand's `persist` store it), which gets positions 0, 1, 2, ….
 * - An envelope of a newer version is refused with `kind: 'version'`: leave it as it is.
 *
 * @param input - parsed JSON
 * @returns `Right({ kind: 'state', state })` or `Right({ kind: 'log', log })`, or
 *   `Left(MemoryDecodeError)` whose problems name their path (`data.actions[3].payload: …`)
 * @example
 * ```ts
 * const decoded = decodeEnvelope(JSON.parse(localStorage.getItem('chat') ?? 'null'));
 * if (isRight(decoded) && decoded.right.kind === 'state') useState(decoded.right.state);
 * ```
 */
export const decodeEnvelope = (input: unknown): E.Either<MemoryDecodeError, DecodedEnvelope> =>
  publicDecode(API, () => decode(input));

const decode = (input: unknown): E.Either<MemoryDecodeError, DecodedEnvelope> => {
  if (!isPlainObject(input)) {
    return fail([
      `(root): expected an envelope, a toDict file or a state, got ${describeValue(input)}`,
    ]);
  }
  const own = (key: string): unknown => (Object.hasOwn(input, key) ? input[key] : undefined);
  if (own('schema') !== 'conversation-memory') return migrate(input, own);
  const version = own('version');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return fail([`version: expected an integer ≥ 1, got ${describeValue(version)}`]);
  }
  if (version > ENVELOPE_VERSION) {
    return fail(
      [
        `version: written by a newer conversation-memory (envelope version ${version}); this one reads versions up to ${ENVELOPE_VERSION}`,
      ],
      'version',
    );
  }
  const kind = own('kind');
  const data = own('data');
  if (kind === 'state') return decodeState(data, 'data.');
  if (kind === 'log') return decodeLog(data);
  return fail([`kind: expected "state" | "log", got ${describeValue(kind)}`]);
};

const decodeState = (
  data: unknown,
  prefix: string,
): E.Either<MemoryDecodeError, DecodedEnvelope> => {
  const state = fromDict(data);
  return E.isLeft(state)
    ? under(prefix, state.left)
    : E.right({ kind: 'state', state: state.right });
};

const decodeLog = (data: unknown): E.Either<MemoryDecodeError, DecodedEnvelope> => {
  if (!isPlainObject(data))
    return fail([`data: expected a log object, got ${describeValue(data)}`]);
  const initial = fromDict(Object.hasOwn(data, 'initial') ? data['initial'] : undefined);
  if (E.isLeft(initial)) return under('data.initial.', initial.left);
  const every = Object.hasOwn(data, 'snapshot_every')
    ? data['snapshot_every']
    : DEFAULT_SNAPSHOT_EVERY;
  if (!isSnapshotEvery(every)) {
    return fail([
      `data.snapshot_every: expected an integer from 1 to ${MAX_SNAPSHOT_EVERY}, got ${describeValue(every)}`,
    ]);
  }
  const actions = Object.hasOwn(data, 'actions') ? data['actions'] : undefined;
  if (!Array.isArray(actions)) {
    return fail([`data.actions: expected a list of actions, got ${describeValue(actions)}`]);
  }
  // One pass: each action decoded, recorded and applied once (linear whatever snapshot_every is).
  const log = logBuilder(initial.right, every, API);
  const count = actions.length;
  for (let i = 0; i < count; i++) {
    const action = decodeAction(actions[i]);
    if (E.isLeft(action)) return under(`data.actions[${i}].`, action.left);
    try {
      log.push(action.right);
    } catch (error) {
      const reason = isConversationMemoryError(error) ? error.detail : errorText(error);
      return fail([`data.actions[${i}]: cannot be replayed: ${reason}`]);
    }
  }
  return E.right({ kind: 'log', log: log.finish() });
};

/** Forms from before envelopes: a bare toDict/to_dict file, or a raw 0.1.0 state. */
const migrate = (
  input: Record<string, unknown>,
  own: (key: string) => unknown,
): E.Either<MemoryDecodeError, DecodedEnvelope> => {
  if (own('max_messages') !== undefined) return decodeState(input, '');
  const config = own('config');
  const messages = own('messages');
  if (own('positionRuns') !== undefined) {
    // A state of this version stored as it is (redux-persist, Zustand's persist): checked whole.
    const state = checkState(input);
    return E.isLeft(state) ? E.left(state.left) : E.right({ kind: 'state', state: state.right });
  }
  if (isPlainObject(config) && Array.isArray(messages)) {
    let dict: MemoryDict;
    try {
      dict = {
        max_messages: config['maxMessages'] as number,
        max_tokens: (config['maxTokens'] ?? null) as number | null,
        message_count: messages.length,
        // Index by index, stopping at the first bad item (a hole too): `map` would walk every
        // index of a sparse list of length 2^32 − 1 before anything failed.
        messages: Array.from({ length: messages.length }, (_, i) =>
          messageToDict(normalizeMessage(messages[i], API, i)),
        ),
        summary: (own('summary') ?? null) as string | null,
        ...(typeof config['tokenizer'] === 'string'
          ? { conversation_memory: { tokenizer: config['tokenizer'] } }
          : {}),
      };
    } catch (error) {
      return fail([isConversationMemoryError(error) ? error.detail : errorText(error)]);
    }
    return decodeState(dict, '');
  }
  return fail([
    'schema: expected "conversation-memory" (an envelope), or a toDict file (with max_messages), or a state of 0.1.0',
  ]);
};
