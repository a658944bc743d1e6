import { MemoryConfigError } from '../errors/memoryErrors';
import type { MemoryConfig, MemoryOptions } from '../model/config';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';
import { keySegment } from '../util/escapeText';
import { isPlainObject } from '../util/isPlainObject';
import { suggestOption } from '../util/unknownOption';
import { CONFIG_FIELDS, CONFIG_RULES } from './configFields';
import { DEFAULT_CONFIG } from './defaultConfig';

/**
 * The outcome of {@link checkConfig}: a frozen config, or every problem found (each naming the
 * field and the value received).
 *
 * @internal
 */
export type ConfigCheck = { readonly ok: true; readonly config: MemoryConfig } | ConfigFailure;

/**
 * Problems found in options: each names the field and the value; `cause` is what reading the
 * options threw, when they could not be read.
 *
 * @internal
 */
export interface ConfigFailure {
  readonly ok: false;
  readonly problems: readonly string[];
  readonly cause?: unknown;
}

/**
 * The `MemoryConfigError` of a failed check, for the public call `api`: its problems (as given,
 * or as `problems` renamed them), and what reading the options threw as `cause`.
 *
 * @internal
 */
export const configError = (
  api: string,
  failure: ConfigFailure,
  problems: readonly string[] = failure.problems,
): MemoryConfigError =>
  new MemoryConfigError(
    api,
    problems,
    problems.length,
    'cause' in failure ? { cause: failure.cause } : undefined,
  );

/** The failure of options that threw while they were read. */
const unreadableOptions = (error: unknown): ConfigFailure => ({
  ok: false,
  problems: [`options could not be read: ${errorText(error)}`],
  cause: error,
});

/** An input key as the subject of a problem: `max_messages`, or `["odd key"]` when it is odd. */
const keyName = (key: string): string => {
  const segment = keySegment(key);
  return segment.startsWith('.') ? segment.slice(1) : segment;
};

/**
 * Validates memory options and fills the missing fields from `base` (the defaults unless given),
 * as a plain function: no io-ts, no fp-ts, so `createMemory` stays small in a chat UI's bundle
 * (`decodeConfig` wraps it in an `Either`; `reconfigure` passes the state's config as `base`).
 * Each own enumerable property of the input is read exactly once, inherited ones never; a getter
 * or Proxy trap that throws is reported as a problem, never thrown.
 *
 * @internal
 */
export const checkConfig = (input: unknown, base: MemoryConfig = DEFAULT_CONFIG): ConfigCheck => {
  try {
    // No options means every default, checked like any other (the default tokenizer may not be
    // loadable in this runtime yet).
    const read = readOptions(input, true);
    if (!read.ok) return read;
    const { given } = read;
    const config: Given = {};
    for (const { name } of CONFIG_FIELDS) {
      config[name] = given[name] === undefined ? base[name] : given[name];
    }
    const problems = [...read.problems, ...fieldProblems(config)];
    return problems.length > 0
      ? { ok: false, problems }
      : { ok: true, config: Object.freeze(config as MemoryConfig) };
  } catch (error) {
    return unreadableOptions(error);
  }
};

/**
 * The outcome of {@link checkOptionFields}: the fields given (frozen, `undefined` ones left out),
 * or every problem found.
 *
 * @internal
 */
export type OptionFieldsCheck =
  { readonly ok: true; readonly fields: MemoryOptions } | ConfigFailure;

/**
 * Validates the fields an options object gives, with {@link checkConfig}'s rules and messages,
 * without filling the others: what `memoryActions.reconfigured` carries (fields to merge over a
 * state's config later). The input must be an object; each own property is read once.
 *
 * @internal
 */
export const checkOptionFields = (input: unknown): OptionFieldsCheck => {
  try {
    const read = readOptions(input, false);
    if (!read.ok) return read;
    const problems = [...read.problems, ...fieldProblems(read.given)];
    if (problems.length > 0) return { ok: false, problems };
    const fields: Record<string, unknown> = {};
    for (const key of FIELDS) if (read.given[key] !== undefined) fields[key] = read.given[key];
    return { ok: true, fields: Object.freeze(fields) as MemoryOptions };
  } catch (error) {
    return unreadableOptions(error);
  }
};

/** The option fields, in the order their problems are listed. */
const FIELDS: readonly (keyof MemoryConfig)[] = /* @__PURE__ */ CONFIG_FIELDS.map(
  (field) => field.name,
);

type Given = { -readonly [K in keyof MemoryConfig]?: unknown };

/** The own fields of an options object, read once each, and a problem per unknown key. */
const readOptions = (
  input: unknown,
  undefinedIsEmpty: boolean,
):
  | { readonly ok: true; readonly given: Given; readonly problems: string[] }
  | { readonly ok: false; readonly problems: readonly string[] } => {
  if (!(input === undefined && undefinedIsEmpty) && !isPlainObject(input)) {
    return { ok: false, problems: [`options must be an object, received ${describeValue(input)}`] };
  }
  const given: Given = {};
  const problems: string[] = [];
  const options: Record<string, unknown> = input ?? {};
  for (const key of Object.keys(options)) {
    if ((FIELDS as readonly string[]).includes(key)) {
      given[key as keyof Given] = options[key];
    } else {
      // The shared checker's did-you-mean: `max_messages` → maxMessages, `maxMesages` too.
      const suggestion = suggestOption(key, FIELDS);
      const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
      problems.push(`${keyName(key)} is not an option${hint}; expected ${FIELDS.join(', ')}`);
    }
  }
  return { ok: true, given, problems };
};

/**
 * The problems of the fields present (not `undefined`), each naming the field and the value, in
 * the table's order; then those of the rules that span fields.
 */
const fieldProblems = (fields: Given): string[] => {
  const problems: string[] = [];
  for (const { name, check } of CONFIG_FIELDS) {
    const value = fields[name];
    const problem = value === undefined ? undefined : check(value);
    if (problem !== undefined) problems.push(`${name} ${problem}`);
  }
  for (const rule of CONFIG_RULES) {
    const problem = rule(fields);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
};
