import { DEFAULT_CONFIG, type MemoryConfig, type ToolPairPolicy } from '../model/config';
import { describeValue } from './describeValue';
import { errorText } from './errorText';
import { keySegment } from './escapeText';
import { isPlainObject } from './isPlainObject';
import { keyHint, type KeyHints } from './keyHint';
import { limitProblem, nullableLimitProblem } from './limitProblem';
import { tokenizerProblem } from './tokenizerProblem';

/**
 * The outcome of {@link checkConfig}: a frozen config, or every problem found (each naming the
 * field and the value received).
 *
 * @internal
 */
export type ConfigCheck =
  | { readonly ok: true; readonly config: MemoryConfig }
  | { readonly ok: false; readonly problems: readonly string[] };

const OPTION_LIST = 'maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem';

/** The reference's snake_case names of the options, for a "did you mean" hint. */
const OPTION_HINTS: KeyHints = {
  max_messages: 'maxMessages',
  max_tokens: 'maxTokens',
  tool_pairs: 'toolPairs',
  start_on: 'startOn',
  pin_system: 'pinSystem',
};

/** An input key as the subject of a problem: `max_messages`, or `["odd key"]` when it is odd. */
const keyName = (key: string): string => {
  const segment = keySegment(key);
  return segment.startsWith('.') ? segment.slice(1) : segment;
};

/**
 * Validates memory options and fills the defaults, as a plain function: no io-ts, no fp-ts, so
 * `createMemory` stays small in a chat UI's bundle (`decodeConfig` wraps it in an `Either`).
 * Each own enumerable property of the input is read exactly once, inherited ones never; a getter
 * or Proxy trap that throws is reported as a problem, never thrown.
 *
 * @internal
 */
export const checkConfig = (input: unknown): ConfigCheck => {
  try {
    return check(input);
  } catch (error) {
    return { ok: false, problems: [`options could not be read: ${errorText(error)}`] };
  }
};

const check = (input: unknown): ConfigCheck => {
  // No options means every default, checked like any other (the default tokenizer may not be
  // loadable in this runtime yet).
  if (input !== undefined && !isPlainObject(input)) {
    return { ok: false, problems: [`options must be an object, received ${describeValue(input)}`] };
  }
  let maxMessages: unknown;
  let maxTokens: unknown;
  let tokenizer: unknown;
  let toolPairs: unknown;
  let startOn: unknown;
  let pinSystem: unknown;
  const problems: string[] = [];
  const options: Record<string, unknown> = input ?? {};
  for (const key of Object.keys(options)) {
    switch (key) {
      case 'maxMessages':
        maxMessages = options[key];
        break;
      case 'maxTokens':
        maxTokens = options[key];
        break;
      case 'tokenizer':
        tokenizer = options[key];
        break;
      case 'toolPairs':
        toolPairs = options[key];
        break;
      case 'startOn':
        startOn = options[key];
        break;
      case 'pinSystem':
        pinSystem = options[key];
        break;
      default:
        problems.push(
          `${keyName(key)} is not an option${keyHint(key, OPTION_HINTS)}; expected ${OPTION_LIST}`,
        );
    }
  }
  const config: MemoryConfig = {
    maxMessages: maxMessages === undefined ? DEFAULT_CONFIG.maxMessages : (maxMessages as number),
    maxTokens: maxTokens === undefined ? DEFAULT_CONFIG.maxTokens : (maxTokens as number | null),
    tokenizer: tokenizer === undefined ? DEFAULT_CONFIG.tokenizer : (tokenizer as string),
    toolPairs: toolPairs === undefined ? DEFAULT_CONFIG.toolPairs : (toolPairs as ToolPairPolicy),
    startOn: startOn === undefined ? DEFAULT_CONFIG.startOn : (startOn as 'user' | null),
    pinSystem: pinSystem === undefined ? DEFAULT_CONFIG.pinSystem : (pinSystem as boolean),
  };
  const messagesProblem = limitProblem(config.maxMessages);
  if (messagesProblem !== undefined) problems.push(`maxMessages ${messagesProblem}`);
  const tokensProblem = nullableLimitProblem(config.maxTokens);
  if (tokensProblem !== undefined) problems.push(`maxTokens ${tokensProblem}`);
  const nameProblem = tokenizerProblem(config.tokenizer);
  if (nameProblem !== undefined) problems.push(`tokenizer ${nameProblem}`);
  problems.push(...policyProblems(config));
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, config: Object.freeze(config) };
};

/**
 * The problems of the trimming-policy options (`toolPairs`, `startOn`, `pinSystem`), each naming
 * the field and the value. Shared with the decoder of persisted files.
 *
 * @internal
 */
export const policyProblems = (
  config: Pick<MemoryConfig, 'toolPairs' | 'startOn' | 'pinSystem'>,
) => {
  const problems: string[] = [];
  if (config.toolPairs !== 'reference' && config.toolPairs !== 'strict') {
    problems.push(
      `toolPairs must be "reference" or "strict", received ${describeValue(config.toolPairs)}`,
    );
  }
  if (config.startOn !== null && config.startOn !== 'user') {
    problems.push(`startOn must be "user" or null, received ${describeValue(config.startOn)}`);
  }
  if (typeof config.pinSystem !== 'boolean') {
    problems.push(`pinSystem must be true or false, received ${describeValue(config.pinSystem)}`);
  }
  return problems;
};
