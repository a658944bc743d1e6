import { PLANNER_MISSING, redundancyPlanner } from './redundancy/slot';
import { tokenizerProblem } from './tokenizerProblem';
import type { MemoryConfig } from '../model/config';
import { describeValue } from '../util/describeValue';
import { limitProblem, nullableLimitProblem } from '../util/limitProblem';

/**
 * A config field's value. Every field holds a JSON primitive, so `===` is each field's equality
 * (`sameConfig`, and `toDict`'s "differs from the default"); a field whose value were an object
 * would need an equality of its own in its row.
 *
 * @internal
 */
export type ConfigValue = string | number | boolean | null;

/**
 * Where a memory file (`toDict`, the reference's `to_dict()`) keeps a field, under its name in
 * snake_case ({@link fileKey}):
 *
 * - `'required'`: a key of the reference's own format that every file has (`max_messages`: a
 *   file without it is refused, as the reference's `from_dict` refuses it);
 * - `'reference'`: a key of the reference's format that a file may lack (`max_tokens`);
 * - `'extension'`: under `conversation_memory`, which the reference ignores; written only when
 *   the value differs from the default, which a file without it gets.
 *
 * @internal
 */
export type ConfigFilePlace = 'required' | 'reference' | 'extension';

/**
 * The JSON type a file holds for a field, which `fromDict` decodes before the field's `check`
 * runs on it (each maps to one io-ts codec in `src/codec/configFieldCodecs.ts`):
 *
 * - `'checked'`: the field's `check` itself (`maxMessages must be at least 1, received 0`);
 * - `'string'`, `'number'`, `'boolean'`: a JSON value of that type (`expected number, got …`),
 *   then the field's `check` (`prune_threshold must be …`);
 * - a list of values: one of them (`expected "reference" | "strict", got …`).
 *
 * @internal
 */
export type ConfigFileType =
  'checked' | 'string' | 'number' | 'boolean' | readonly [ConfigValue, ...ConfigValue[]];

/**
 * One row of the config table: everything the library knows about a field apart from what it
 * does (which lives where it is used: the trim plan, the tokenizer registry, the planner).
 *
 * @internal
 */
export interface ConfigFieldRow<K extends keyof MemoryConfig = keyof MemoryConfig> {
  /** The default (`DEFAULT_CONFIG`'s value), which an absent option or file key gets. */
  readonly default: MemoryConfig[K];
  /**
   * Why a given value is refused (the text after the field's name: `must be at least 1,
   * received 0`), or `undefined`: what `createMemory`, `decodeConfig`, `reconfigure` and the
   * `memory/reconfigured` action check, and `fromDict`/`decodeState` check once the file's type
   * decoded. A plain function: it is on the reducers' path, which must not load io-ts.
   */
  readonly check: (value: unknown) => string | undefined;
  /** The JSON type a file holds for the field. */
  readonly json: ConfigFileType;
  /** Where a file keeps it (default `'extension'`: the reference's format has two fields). */
  readonly file?: ConfigFilePlace;
  /**
   * `true` when states of every version have the field, so `decodeState` refuses a state
   * without it. A field added later leaves it out: the states stored before it lack it, and
   * `decodeState` gives them the default.
   */
  readonly inEveryState?: true;
}

/**
 * A row with its field's name, and what it leaves out filled in.
 *
 * @internal
 */
export type ConfigField = {
  readonly [K in keyof MemoryConfig]: Omit<ConfigFieldRow<K>, 'file' | 'inEveryState'> & {
    readonly name: K;
    readonly file: ConfigFilePlace;
    readonly inEveryState: boolean;
  };
}[keyof MemoryConfig];

/** A value as the problem of a list of values shows it: `"user"`, `null`, `true`. */
const show = (value: ConfigValue): string =>
  typeof value === 'string' ? `"${value}"` : String(value);

/** A field that is one of `values`: its file type and its check (`must be "a" or "b", received …`). */
const oneOf = <const V extends readonly [ConfigValue, ...ConfigValue[]]>(...values: V) => ({
  json: values,
  check: (value: unknown): string | undefined =>
    (values as readonly unknown[]).includes(value)
      ? undefined
      : `must be ${values.map(show).join(' or ')}, received ${describeValue(value)}`,
});

/** A ratio's check: a number above 0 and at most 1 (`NaN`, `Infinity` and strings refused). */
const ratioProblem = (value: unknown): string | undefined =>
  typeof value === 'number' && value > 0 && value <= 1
    ? undefined
    : `must be a number above 0 and at most 1, received ${describeValue(value)}`;

/**
 * A pruning field's check, which the redundancy planner holds (out of a browser's first load
 * until `enableRedundantPruning()`): none without the planner, where {@link CONFIG_RULES} says
 * that it is missing instead.
 */
const byPlanner =
  (name: 'pruneThreshold' | 'embedder') =>
  (value: unknown): string | undefined =>
    // The planner names the option (`pruneThreshold must …`); the row's text follows the name.
    redundancyPlanner()
      ?.optionProblems({ [name]: value }, 'options')[0]
      ?.slice(name.length + 1);

/**
 * The config fields, in the order of `MemoryConfig`'s keys (the order of a config's keys, of
 * its problems, of a file's keys). A field is added here, with its name in `MemoryConfig` and
 * `MemoryOptions` (and `ExtensionDict` when it is kept under the extension key); then
 * `createMemory`'s checks, `decodeConfig`, `reconfigure`, the `memory/reconfigured` action,
 * `toDict`, `fromDict`, `decodeState` and `sameConfig` know it (docs/design.md, "Adding a config
 * field").
 */
const ROWS: { readonly [K in keyof MemoryConfig]: ConfigFieldRow<K> } = {
  maxMessages: {
    default: 20,
    check: limitProblem,
    json: 'checked',
    file: 'required',
    inEveryState: true,
  },
  maxTokens: {
    default: null,
    check: nullableLimitProblem,
    json: 'checked',
    file: 'reference',
    inEveryState: true,
  },
  tokenizer: {
    default: 'o200k_base',
    check: tokenizerProblem,
    json: 'string',
    inEveryState: true,
  },
  toolPairs: { default: 'reference', ...oneOf('reference', 'strict'), inEveryState: true },
  startOn: { default: null, ...oneOf('user', null), inEveryState: true },
  pinSystem: {
    default: false,
    check: oneOf(true, false).check,
    json: 'boolean',
    inEveryState: true,
  },
  prune: { default: 'oldest', ...oneOf('oldest', 'redundant') },
  pruneThreshold: { default: 0.9, check: byPlanner('pruneThreshold'), json: 'number' },
  embedder: { default: 'lexical', check: byPlanner('embedder'), json: 'string' },
  trimTo: { default: 1, check: ratioProblem, json: 'number' },
};

/**
 * The table of config fields, in order: what `checkConfig`, `DEFAULT_CONFIG`, `toDict`,
 * `fromDict`, `decodeState` and `sameConfig` read.
 *
 * @internal
 */
export const CONFIG_FIELDS: readonly ConfigField[] = /* @__PURE__ */ (() =>
  Object.freeze(
    (Object.keys(ROWS) as (keyof MemoryConfig)[]).map(
      (name) =>
        Object.freeze({
          name,
          file: 'extension',
          inEveryState: false,
          ...ROWS[name],
        }) as ConfigField,
    ),
  ))();

/**
 * The name of a field in a memory file: its name in snake_case (`pruneThreshold` →
 * `prune_threshold`, `maxMessages` → `max_messages`, the reference's own key).
 *
 * @internal
 */
export const fileKey = (name: string): string =>
  name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The rules that span fields, checked after every field's own check, each a whole problem or
 * `undefined` (fields not given are `undefined`): `prune: 'redundant'`, or a pruning field
 * other than its default, needs the redundancy planner.
 *
 * @internal
 */
export const CONFIG_RULES: readonly ((fields: { readonly [K in keyof MemoryConfig]?: unknown }) =>
  string | undefined)[] = [
  (fields) =>
    redundancyPlanner() === undefined &&
    (fields.prune === 'redundant' ||
      (fields.pruneThreshold !== undefined &&
        fields.pruneThreshold !== ROWS.pruneThreshold.default) ||
      (fields.embedder !== undefined && fields.embedder !== ROWS.embedder.default))
      ? PLANNER_MISSING
      : undefined,
];
