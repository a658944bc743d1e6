import { either as E } from 'fp-ts';
import type * as t from 'io-ts';
import { fixToolPairBoundary } from '../core/fixToolPairBoundary';
import { isConversationMemoryError } from '../errors/errorBrand';
import {
  type DecodeErrorOptions,
  MemoryArgumentError,
  MemoryDecodeError,
} from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';
import { isPlainObject } from '../util/isPlainObject';
import { registerCanonical } from '../internal/normalizeMessage';
import { tokenizerProblem } from '../internal/tokenizerProblem';
import {
  CONFIG_FIELDS,
  CONFIG_RULES,
  type ConfigFilePlace,
  fileKey,
} from '../internal/configFields';
import { DEFAULT_CONFIG } from '../internal/defaultConfig';
import { addToTotal } from '../internal/tokenTotal';
import { unknownOption } from '../util/unknownOption';
import { unreadable } from '../internal/unreadable';
import { makeState } from '../internal/window';
import type { MemoryConfig, TokenizerName } from '../model/config';
import type { Transition } from '../model/effects';
import type { ContentPart, Message, ToolCall } from '../model/message';
import type { ConversationUsage } from '../model/conversationUsage';
import type { MemoryState } from '../model/state';
import { countMessageTokens } from '../tokens/registry';
import { ProblemBudget } from './budget';
import {
  EXTENSION_KEY,
  type PersistedContentPart,
  type PersistedMemory,
  type PersistedMessage,
  persistedMemoryCodec,
  type PersistedToolCall,
} from './persisted';
import { runsOf } from '../internal/positions';
import { type ExtensionState, readExtensionState } from './extensionState';
import { knowledgeField, type KnowledgeRead } from './knowledgeField';
import { reportErrors } from './report';
import { publicDecode } from './publicDecoder';

/**
 * Options for {@link fromDict}.
 *
 * @example
 * ```ts
 * const options: FromDictOptions = { tokenizer: 'heuristic' };
 * ```
 */
export interface FromDictOptions {
  /**
   * The tokenizer to count the loaded messages with. Default: the one the file names under
   * `conversation_memory.tokenizer`, else `'o200k_base'`.
   */
  readonly tokenizer?: TokenizerName;
}

const API = 'fromDict';

/** Sets `key` on `target` only when the value is present (not `null`/`undefined`). */
const setIf = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (value !== null && value !== undefined) target[key] = value;
};

const toToolCall = (raw: t.TypeOf<typeof PersistedToolCall>): ToolCall => {
  const call: Record<string, unknown> = {};
  setIf(call, 'id', raw.id);
  call['name'] = raw.name;
  call['parameters'] = raw.parameters ?? Object.freeze({});
  setIf(call, 'thoughtSignature', raw.thought_signature);
  return call as unknown as ToolCall;
};

const toPart = (raw: t.TypeOf<typeof PersistedContentPart>): ContentPart => {
  const part: Record<string, unknown> = { type: raw.type };
  setIf(part, 'text', raw.text);
  setIf(part, 'imageUrl', raw.image_url);
  setIf(part, 'imageBase64', raw.image_base64);
  setIf(part, 'mediaType', raw.media_type);
  return part as unknown as ContentPart;
};

/** The reference's `Message.from_dict`: missing content is `""`, explicit `null` stays `null`. */
const toMessage = (raw: PersistedMessage): Message => {
  const message: Record<string, unknown> = {
    role: raw.role,
    content: raw.content === undefined ? '' : raw.content,
  };
  if (raw.tool_calls && raw.tool_calls.length > 0)
    message['toolCalls'] = raw.tool_calls.map(toToolCall);
  setIf(message, 'toolCallId', raw.tool_call_id);
  setIf(message, 'toolName', raw.tool_name);
  setIf(message, 'toolResult', raw.tool_result);
  setIf(message, 'imageBase64', raw.image_base64);
  if (raw.content_parts && raw.content_parts.length > 0) {
    message['contentParts'] = raw.content_parts.map(toPart);
  }
  setIf(message, 'id', raw.id);
  setIf(message, 'metadata', raw.metadata);
  return registerCanonical(message as unknown as Message);
};

const fail = (
  problems: readonly string[],
  options?: DecodeErrorOptions,
): E.Either<MemoryDecodeError, never> => E.left(new MemoryDecodeError(API, problems, options));

/** The file's problems, then its knowledge's (listed up to 20, each counted). */
const failWithKnowledge = (
  problems: readonly string[],
  countComplete: boolean,
  knowledge: KnowledgeRead | undefined,
): E.Either<MemoryDecodeError, never> =>
  knowledge === undefined || knowledge.ok
    ? fail(problems, { countComplete })
    : fail([...problems, ...knowledge.problems], {
        problemCount: problems.length + knowledge.problemCount,
        countComplete: countComplete && knowledge.countComplete,
      });

/** Where a decoded file keeps the config fields of `place`: its root, or its extension key. */
const fieldsOf = (
  data: PersistedMemory,
  place: ConfigFilePlace,
): Readonly<Record<string, unknown>> | undefined =>
  place === 'extension' ? data[EXTENSION_KEY] : (data as Readonly<Record<string, unknown>>);

/**
 * The config a decoded file gives: each field of the config table from its key (its default when
 * the file has none), the tokenizer as chosen.
 */
const configOf = (data: PersistedMemory, tokenizer: string): MemoryConfig => {
  const config: Record<string, unknown> = {};
  for (const { name, file, default: value } of CONFIG_FIELDS) {
    const stored = fieldsOf(data, file)?.[fileKey(name)];
    config[name] = stored === undefined ? value : stored;
  }
  config['tokenizer'] = tokenizer;
  return Object.freeze(config as unknown as MemoryConfig);
};

/**
 * The problems of a file's config once its types decoded (a threshold out of range, an embedder
 * this runtime does not know, `'redundant'` before the planner is installed), named as the file
 * names them (`conversation_memory.prune_threshold must be …`). The tokenizer is checked apart.
 */
const configProblems = (config: MemoryConfig): string[] => {
  const problems: string[] = [];
  for (const { name, file, check } of CONFIG_FIELDS) {
    // The tokenizer is chosen (an option may replace it) and checked as one (kind 'tokenizer').
    if (name === 'tokenizer') continue;
    const problem = check(config[name]);
    const place = file === 'extension' ? `${EXTENSION_KEY}.` : '';
    if (problem !== undefined) problems.push(`${place}${fileKey(name)} ${problem}`);
  }
  for (const rule of CONFIG_RULES) {
    const problem = rule(config);
    if (problem !== undefined) problems.push(`${EXTENSION_KEY}.${problem}`);
  }
  return problems;
};

/** The tokenizer to count with, and how an error names where it came from. */
const chooseTokenizer = (
  tokenizer: unknown,
  data: PersistedMemory,
): { name: unknown; label: string } => {
  if (tokenizer !== undefined) return { name: tokenizer, label: 'options.tokenizer' };
  const stored = fieldsOf(data, 'extension')?.['tokenizer'];
  if (stored !== undefined) return { name: stored, label: `${EXTENSION_KEY}.tokenizer` };
  return { name: DEFAULT_CONFIG.tokenizer, label: 'tokenizer (the default)' };
};

/**
 * {@link fromDict}, keeping what the load dropped: the reference fixes the tool-pair boundary on
 * load, which can drop leading tool results and tool-call messages of the file. Here they are
 * reported in a `memory/trimmed` effect, like any other removal, so a summarizer can still see
 * them. Never throws on bad input.
 *
 * @param input - parsed JSON (e.g. `JSON.parse(text)`)
 * @param options - `tokenizer` to count with
 * @returns `Right({ state, effects })` or `Left(MemoryDecodeError)` listing every problem;
 *   `left.kind` tells bad data (`'data'`) from a tokenizer that cannot count here (`'tokenizer'`)
 * @throws MemoryArgumentError when `options` is not an object (a programmer error; bad input
 *   never throws)
 * @example
 * ```ts
 * const loaded = fromDictWithEffects({ max_messages: 5, messages: [{ role: 'tool', content: 't' }, { role: 'user', content: 'u' }] });
 * // Right({ state: [user 'u'], effects: [{ type: 'memory/trimmed', removed: [tool 't'], ... }] })
 * ```
 */
export const fromDictWithEffects = (
  input: unknown,
  options?: FromDictOptions,
): E.Either<MemoryDecodeError, Transition> => loadDict('fromDictWithEffects', input, options);

/**
 * {@link fromDictWithEffects} for the public call named `api`, which a misspelled option's
 * error names (`fromDict`, `ConversationMemory.fromDict`).
 *
 * @internal
 */
export const loadDict = (
  api: string,
  input: unknown,
  options: FromDictOptions | undefined,
): E.Either<MemoryDecodeError, Transition> => {
  const tokenizer = readOptions(options, api);
  return publicDecode(API, () => decode(input, tokenizer));
};

/** Reads `options.tokenizer` once; anything else in `options` is a programmer error. */
const readOptions = (options: FromDictOptions | undefined, api: string): unknown => {
  if (options === undefined) return undefined;
  let tokenizer: unknown;
  try {
    if (!isPlainObject(options)) {
      throw new MemoryArgumentError(
        api,
        `options must be an object such as { tokenizer }, received ${describeValue(options)}`,
      );
    }
    const unknown = unknownOption(options, ['tokenizer'], 'options');
    if (unknown !== undefined) throw new MemoryArgumentError(api, unknown);
    if (Object.hasOwn(options, 'tokenizer')) tokenizer = options.tokenizer;
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, 'options');
  }
  return tokenizer;
};

const decode = (input: unknown, tokenizer: unknown): E.Either<MemoryDecodeError, Transition> => {
  if (!isPlainObject(input)) {
    return fail([
      `(root): expected an object as written by toDict or to_dict(), got ${describeValue(input)}`,
    ]);
  }
  if (
    !Object.hasOwn(input, 'max_messages') &&
    Object.hasOwn(input, 'config') &&
    Object.hasOwn(input, 'messages')
  ) {
    return fail([
      '(root): this looks like a MemoryState (camelCase keys such as config and messages), not a toDict file: check it with decodeState, or write it with toDict',
    ]);
  }
  const budget = new ProblemBudget();
  const field = knowledgeField(`${EXTENSION_KEY}.knowledge`);
  const decoded = persistedMemoryCodec(budget, field.codec).decode(input);
  // The knowledge is read whether or not the rest decodes: its problems are listed with the others.
  const knowledge = field.read();
  if (E.isLeft(decoded)) {
    return failWithKnowledge(reportErrors(decoded.left), !budget.exhausted, knowledge);
  }
  const data = decoded.right;
  // Every problem of the data comes before the tokenizer's: a corrupt file is reported as bad
  // data (kind 'data'), whatever tokenizer it is read with.
  const messages = (data.messages ?? []).map(toMessage);
  const readKnowledge = knowledge?.ok === true ? knowledge.state : undefined;
  const extension = readExtensionState(data, messages.length, toMessage, readKnowledge);
  if (!extension.ok || knowledge?.ok === false) {
    return failWithKnowledge(extension.ok ? [] : extension.problems, true, knowledge);
  }
  const { name, label } = chooseTokenizer(tokenizer, data);
  const problem = tokenizerProblem(name);
  if (problem !== undefined) return fail([`${label} ${problem}`], { kind: 'tokenizer' });
  const config = configOf(data, name as string);
  const problems = configProblems(config);
  if (problems.length > 0) return fail(problems);
  const trimmedUsage = data[EXTENSION_KEY]?.trimmed_usage;
  return restore(config, data.summary ?? null, messages, { ...extension.value, trimmedUsage });
};

/**
 * Loads a memory from the reference's JSON (`to_dict()` output, from Python or from
 * {@link toDict}), validating everything first. Never throws on bad input.
 *
 * As the reference: the limits are **not** re-applied (a file over its limits loads as it is; the
 * next add trims it), the tool-pair boundary **is** fixed (use {@link fromDictWithEffects} to see
 * what that dropped), `message_count` is ignored, a missing `content` reads as `""`. Unlike the
 * reference: invalid limits (`max_messages: 0`) are rejected, and every problem is reported with
 * its path (`messages[3].role: expected "user" | "assistant" | "system" | "tool", got "USER"`).
 * Token counts are computed afresh with the chosen tokenizer. Keys such as `__proto__` are kept as
 * plain data and pollute nothing.
 *
 * @param input - parsed JSON (e.g. `JSON.parse(text)`)
 * @param options - `tokenizer` to count with
 * @returns `Right(state)` or `Left(MemoryDecodeError)` listing every problem; `left.kind` tells
 *   bad data (`'data'`) from a tokenizer that cannot count here (`'tokenizer'`)
 * @throws MemoryArgumentError when `options` is not an object (a programmer error; bad input
 *   never throws)
 * @example
 * ```ts
 * const result = fromDict(JSON.parse(fs.readFileSync('conversation.json', 'utf8')));
 * if (isRight(result)) getHistory(result.right);
 * ```
 */
export const fromDict = (
  input: unknown,
  options?: FromDictOptions,
): E.Either<MemoryDecodeError, MemoryState> =>
  E.map((loaded: Transition) => loaded.state)(loadDict('fromDict', input, options));

/** Counts the checked messages with the config's tokenizer and builds the state. */
const restore = (
  config: MemoryConfig,
  summary: string | null,
  messages: readonly Message[],
  extension: ExtensionState & { readonly trimmedUsage: ConversationUsage | undefined },
): E.Either<MemoryDecodeError, Transition> => {
  const counts = new Array<number>(messages.length);
  let total = 0;
  for (let i = 0; i < messages.length; i++) {
    try {
      const count = countMessageTokens(config.tokenizer, messages[i] as Message, API);
      total = addToTotal(total, count, config.tokenizer, API);
      counts[i] = count;
    } catch (error) {
      const reason = isConversationMemoryError(error)
        ? error.detail
        : `tokenizer ${describeValue(config.tokenizer)} threw ${errorText(error)}`;
      return fail([`messages[${i}]: ${reason}`], { kind: 'tokenizer' });
    }
  }
  const state = makeState({
    config,
    messages,
    tokenCounts: counts,
    positionRuns: runsOf(extension.positions),
    nextPosition: extension.nextPosition,
    totalTokens: total,
    summary,
    pendingMessages: extension.pendingMessages,
    pendingPositions: extension.pendingPositions,
    summaryCoverage: extension.summaryCoverage,
    ...(extension.knowledge === undefined ? {} : { knowledge: extension.knowledge }),
    ...(extension.trimmedUsage === undefined ? {} : { trimmedUsage: extension.trimmedUsage }),
  });
  return E.right(fixToolPairBoundary(state));
};
