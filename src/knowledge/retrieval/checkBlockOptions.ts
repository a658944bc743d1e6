import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue, received } from '../../util/describeValue';
import { limitProblem } from '../../util/limitProblem';
import { readOptionFields } from '../../internal/readOptionFields';
import type { KnowledgeBlocksOptions } from './types';
import { TRUNCATED_SUFFIX } from './headers';

const API = 'knowledgeBlocks';
const KNOWN = [
  'query',
  'now',
  'countTokens',
  'graph',
  'entities',
  'knowledge',
  'sanitize',
  'score',
];
const MODULE_KEYS: Readonly<Record<string, readonly string[]>> = {
  graph: ['budget', 'maxContextTriples'],
  entities: ['budget'],
  knowledge: ['budget', 'maxContextChars'],
};
// In a pure-annotated function, so a bundle that never checks block options drops it.
const MIN_CONTEXT_CHARS = /* @__PURE__ */ (() => TRUNCATED_SUFFIX.length)();

const fail = (what: string): never => {
  throw new MemoryArgumentError(API, what);
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const checkBudget = (name: string, value: unknown): void => {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    fail(`${name} must be an integer ≥ 0 (tokens), ${received(value)}`);
};

/** A module's options (`options.graph`, …), read once and checked; `undefined` when absent. */
const checkModule = (name: string, value: unknown): Record<string, unknown> | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) {
    fail(`options.${name} must be an object, ${received(value)}`);
  }
  const options = readOptionFields(value, MODULE_KEYS[name] as readonly string[], API, {
    where: `options.${name}`,
  });
  checkBudget(`options.${name}.budget`, options['budget']);
  const triples = options['maxContextTriples'];
  const triplesProblem = triples === undefined ? undefined : limitProblem(triples);
  if (triplesProblem !== undefined) fail(`options.${name}.maxContextTriples ${triplesProblem}`);
  const chars = options['maxContextChars'];
  if (chars === undefined) return options;
  const charsProblem = limitProblem(chars);
  if (charsProblem !== undefined) fail(`options.${name}.maxContextChars ${charsProblem}`);
  if ((chars as number) < MIN_CONTEXT_CHARS)
    fail(
      `options.${name}.maxContextChars must be at least ${MIN_CONTEXT_CHARS} (the length of the truncation suffix), received ${describeValue(chars)}`,
    );
  return options;
};

/**
 * Checks the state and options of `knowledgeBlocks`, throwing a `MemoryArgumentError` that names
 * the first bad field and the value received. The options are read once (the modules' too), and
 * the checked copy is returned: options that cannot be read (a getter or a Proxy trap that
 * throws) are a `MemoryArgumentError` with the caller's error as `cause`.
 *
 * @internal
 */
export const checkBlockOptions = (state: unknown, options: unknown): KnowledgeBlocksOptions => {
  if (!isObject(state)) fail(`state must be a KnowledgeState, ${received(state)}`);
  for (const key of ['entities', 'relations', 'entries']) {
    const list = (state as Record<string, unknown>)[key];
    if (!Array.isArray(list)) fail(`state.${key} must be an array, ${received(list)}`);
  }
  if (typeof options !== 'object' || options === null) {
    fail(`options must be an object, ${received(options)}`);
  }
  const o: Record<string, unknown> = readOptionFields(options, KNOWN, API);
  if (typeof o['now'] !== 'number' || !Number.isFinite(o['now']))
    fail(
      `options.now must be a finite number (milliseconds since the epoch), ${received(o['now'])}`,
    );
  if (o['query'] !== undefined && typeof o['query'] !== 'string')
    fail(`options.query must be a string, ${received(o['query'])}`);
  for (const key of ['countTokens', 'score']) {
    if (o[key] !== undefined && typeof o[key] !== 'function')
      fail(`options.${key} must be a function, ${received(o[key])}`);
  }
  if (o['sanitize'] !== undefined && typeof o['sanitize'] !== 'boolean')
    fail(`options.sanitize must be a boolean, ${received(o['sanitize'])}`);
  for (const name of Object.keys(MODULE_KEYS)) {
    const module = checkModule(name, o[name]);
    if (module !== undefined) o[name] = module;
  }
  return o as unknown as KnowledgeBlocksOptions;
};

/**
 * `count`, with each result checked: a non-negative safe integer, or a `MemoryArgumentError`.
 *
 * @internal
 */
export const checkedCounter =
  (count: (text: string) => number) =>
  (text: string): number => {
    const tokens: unknown = count(text);
    if (typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens >= 0) return tokens;
    return fail(`countTokens must return an integer ≥ 0, returned ${describeValue(tokens)}`);
  };
