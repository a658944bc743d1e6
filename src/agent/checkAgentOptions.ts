import type { EntityMemory, KnowledgeGraph, KnowledgeMemory } from './knowledge/moduleTypes';
import { either as E } from 'fp-ts';
import { decodeConfig } from '../codec/decodeConfig';
import { AgentConfigError } from '../errors/agentErrors';
import type { EventStore } from '../stores/event/types';
import { RecordedMemory } from '../facade/RecordedMemory';
import type { MemoryConfig } from '../model/config';
import { unknownOption } from '../util/unknownOption';
import { schemaLibraryHint } from './schemaLibraryHint';
import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';
import { unreadable } from '../internal/unreadable';
import type { JsonObject } from '../model/message';
import type { Provider, ToolSpec } from './provider';
import { sessionKeyOf, type SessionKey } from '../stores/kit/sessionKey';
import type { SessionStore } from '../stores/session/types';
import type { AgentConfig, AgentObserver, AgentOptions, AgentTool } from './types';
import { readMaskOption } from '../view/readMaskOption';
import { readCacheOption } from '../view/readCacheOption';
import type { CacheTtl } from '../model/promptCache';
import { READ_TOOL_RESULT } from '../view/maskedToolResult';
import type { MaskToolResults } from '../view/viewTypes';

const API = 'createAgent';

/**
 * The options of `createAgent`, checked and with the defaults filled in.
 *
 * @internal
 */
export interface CheckedAgentOptions {
  readonly provider: Provider;
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly memory: AgentOptions['memory'];
  readonly observers: readonly AgentObserver[];
  readonly model: string;
  readonly systemPrompt: string;
  readonly maxIterations: number;
  readonly summarize:
    { readonly provider: Provider; readonly model: string; readonly maxTokens: number } | undefined;
  readonly onError: ((error: unknown, context: never) => void) | undefined;
  readonly session: CheckedSession | undefined;
  readonly eventStore: CheckedEventStore | undefined;
  readonly knowledge: KnowledgeModules | undefined;
  /** The `recall` option, when given. */
  readonly recall: { readonly budget: number; readonly k: number } | undefined;
  /** `config.maskToolResults`, when masking is on. */
  readonly mask: MaskToolResults | undefined;
  /** `config.markInterrupted` (default `true`). */
  readonly markInterrupted: boolean;
  /** `config.cache`, when it is on: the time to live and the key of every main call. */
  readonly cache: { readonly ttl: CacheTtl; readonly key: string | undefined } | undefined;
}

/**
 * The knowledge modules an agent was given (at least one).
 *
 * @internal
 */
export interface KnowledgeModules {
  readonly entityMemory?: EntityMemory | undefined;
  readonly knowledgeGraph?: KnowledgeGraph | undefined;
  readonly knowledgeMemory?: KnowledgeMemory | undefined;
}

/**
 * A checked `eventStore` option: the store, the stream's validated address, and the config a new
 * stream is created with (`undefined`: the memory's).
 *
 * @internal
 */
export interface CheckedEventStore {
  readonly store: EventStore;
  readonly where: SessionKey;
  readonly config: MemoryConfig | undefined;
}

const EVENT_STORE_METHODS = ['append', 'load'] as const;

const checkEventStore = (value: unknown): CheckedEventStore | undefined => {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    return fail(
      `eventStore must be an object such as { store, streamId }, received ${describeValue(value)}`,
    );
  }
  const { store, streamId, namespace, config } = value as Record<string, unknown>;
  const methods = store as Partial<Record<(typeof EVENT_STORE_METHODS)[number], unknown>> | null;
  if (
    typeof store !== 'object' ||
    store === null ||
    EVENT_STORE_METHODS.some((name) => typeof methods?.[name] !== 'function')
  ) {
    return fail(`eventStore.store must be an EventStore, received ${describeValue(store)}`);
  }
  let checkedConfig: MemoryConfig | undefined;
  if (config !== undefined) {
    const decoded = decodeConfig(config);
    if (E.isLeft(decoded)) {
      return fail(`eventStore.config is not valid: ${decoded.left.problems.join('; ')}`);
    }
    checkedConfig = decoded.right;
  }
  return {
    store: store as EventStore,
    where: sessionKeyOf(streamId, { namespace }, `${API}: eventStore`),
    config: checkedConfig,
  };
};

/**
 * A checked `session` option: the store and the session's validated address.
 *
 * @internal
 */
export interface CheckedSession {
  readonly store: SessionStore;
  readonly where: SessionKey;
}

const checkSession = (value: unknown): CheckedSession | undefined => {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    return fail(
      `session must be an object such as { store, id }, received ${describeValue(value)}`,
    );
  }
  const { store, id, namespace } = value as Record<string, unknown>;
  const methods = store as Partial<Record<'load' | 'save', unknown>> | null;
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof methods?.load !== 'function' ||
    typeof methods.save !== 'function'
  ) {
    return fail(`session.store must be a SessionStore, received ${describeValue(store)}`);
  }
  return {
    store: store as SessionStore,
    where: sessionKeyOf(id, { namespace }, `${API}: session`),
  };
};

/** `createAgent`'s options, and those of its `config`. */
const AGENT_OPTIONS = [
  'provider',
  'tools',
  'memory',
  'session',
  'eventStore',
  'config',
  'observers',
  'entityMemory',
  'knowledgeGraph',
  'knowledgeMemory',
  'recall',
] as const satisfies readonly (keyof AgentOptions)[];

/** The factory that makes each knowledge option's module. */
const MODULE_FACTORIES = {
  entityMemory: 'createEntityMemory',
  knowledgeGraph: 'createKnowledgeGraph',
  knowledgeMemory: 'createKnowledgeMemory',
} as const;

/** A knowledge option: a module its factory made (its `kind` names the option), or absent. */
const checkModule = <K extends keyof typeof MODULE_FACTORIES>(key: K, value: unknown): unknown => {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== key) {
    return fail(
      `${key} must be made by ${MODULE_FACTORIES[key]}(), received ${describeValue(value)}`,
    );
  }
  return value;
};

/** The names of the tools knowledge memory adds. */
const KNOWLEDGE_TOOL_NAMES = ['remember', 'recall', 'forget'];

const checkKnowledge = (
  options: Record<string, unknown>,
  tools: ReadonlyMap<string, AgentTool>,
): KnowledgeModules | undefined => {
  const entityMemory = checkModule('entityMemory', options['entityMemory']) as
    EntityMemory | undefined;
  const knowledgeGraph = checkModule('knowledgeGraph', options['knowledgeGraph']) as
    KnowledgeGraph | undefined;
  const knowledgeMemory = checkModule('knowledgeMemory', options['knowledgeMemory']) as
    KnowledgeMemory | undefined;
  if (knowledgeMemory !== undefined) {
    for (const name of KNOWLEDGE_TOOL_NAMES) {
      if (tools.has(name)) {
        fail(
          `tools: a tool named ${describeValue(name)} clashes with knowledgeMemory's own ${name} tool`,
        );
      }
    }
  }
  if (entityMemory === undefined && knowledgeGraph === undefined && knowledgeMemory === undefined) {
    return undefined;
  }
  return { entityMemory, knowledgeGraph, knowledgeMemory };
};
const CONFIG_OPTIONS = [
  'model',
  'systemPrompt',
  'maxIterations',
  'summarizeOnTrim',
  'summarizeProvider',
  'summarizeModel',
  'summarizeMaxTokens',
  'onError',
  'maskToolResults',
  'markInterrupted',
  'cache',
  'cacheKey',
] as const satisfies readonly (keyof AgentConfig)[];
/**
 * A config field given at the top level belongs in `config`. Built in a pure-annotated function,
 * so a bundle that never checks agent options (a chat UI's first load) drops it.
 */
const AGENT_OPTION_HINTS: Readonly<Record<string, string>> = /* @__PURE__ */ (() =>
  Object.fromEntries(CONFIG_OPTIONS.map((name) => [name, `config.${name}`])))();

const fail = (what: string): never => {
  throw new AgentConfigError(API, what);
};

const isProvider = (value: unknown): value is Provider =>
  typeof value === 'object' && value !== null && typeof (value as Provider).complete === 'function';

const checkProvider = (value: unknown, field: string): Provider => {
  if (!isProvider(value)) {
    return fail(
      `${field} must be an object with a complete(request) method, received ${describeValue(value)}`,
    );
  }
  const { target, stream } = value;
  if (target !== undefined && target !== 'openai' && target !== 'anthropic' && target !== 'none') {
    fail(
      `${field}.target must be "openai", "anthropic" or "none", received ${describeValue(target)}`,
    );
  }
  if (stream !== undefined && typeof stream !== 'function') {
    fail(`${field}.stream must be a function, received ${describeValue(stream)}`);
  }
  return value;
};

const checkLimit = (value: unknown, field: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    return fail(`${field} must be an integer ≥ 1, received ${describeValue(value)}`);
  }
  return value;
};

const checkText = (value: unknown, field: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    return fail(`${field} must be a string, received ${describeValue(value)}`);
  return value;
};

/** The fields of an `AgentTool`. */
const TOOL_FIELDS = ['name', 'description', 'parameters', 'execute', 'idempotent'];

/** Names other tool APIs use (the AI SDK, OpenAI, MCP, LangChain) for the same fields. */
const TOOL_HINTS: Readonly<Record<string, string>> = {
  inputSchema: 'parameters',
  input_schema: 'parameters',
  schema: 'parameters',
  handler: 'execute',
  run: 'execute',
  func: 'execute',
};

const checkTools = (value: unknown): Map<string, AgentTool> => {
  const tools = new Map<string, AgentTool>();
  if (value === undefined) return tools;
  if (!Array.isArray(value))
    return fail(`tools must be an array, received ${describeValue(value)}`);
  value.forEach((tool: unknown, i) => {
    if (typeof tool !== 'object' || tool === null) {
      fail(`tools[${i}] must be an object, received ${describeValue(tool)}`);
    }
    // A misspelled `idempotant: true` would leave a tool the agent must not run twice unmarked.
    const unknownKey = unknownOption(tool as object, TOOL_FIELDS, `tools[${i}]`, TOOL_HINTS);
    if (unknownKey !== undefined) fail(unknownKey);
    const { name, description, parameters, execute, idempotent } = tool as Partial<AgentTool>;
    if (idempotent !== undefined && typeof idempotent !== 'boolean') {
      fail(`tools[${i}].idempotent must be true or false, received ${describeValue(idempotent)}`);
    }
    if (typeof name !== 'string' || name === '') {
      fail(`tools[${i}].name must be a non-empty string, received ${describeValue(name)}`);
    }
    if (tools.has(name as string))
      fail(`tools[${i}].name ${describeValue(name)} is used by two tools`);
    if (typeof description !== 'string') {
      fail(`tools[${i}].description must be a string, received ${describeValue(description)}`);
    }
    const schemaHint = schemaLibraryHint(parameters);
    if (schemaHint !== undefined) fail(`tools[${i}].parameters is ${schemaHint}`);
    if (!isPlainObject(parameters)) {
      fail(
        `tools[${i}].parameters must be a JSON Schema object, received ${describeValue(parameters)}`,
      );
    }
    if (typeof execute !== 'function') {
      fail(`tools[${i}].execute must be a function, received ${describeValue(execute)}`);
    }
    tools.set(name as string, tool as AgentTool);
  });
  return tools;
};

const checkObservers = (value: unknown): readonly AgentObserver[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    return fail(`observers must be an array, received ${describeValue(value)}`);
  value.forEach((observer: unknown, i) => {
    if (typeof observer !== 'object' || observer === null) {
      fail(`observers[${i}] must be an object, received ${describeValue(observer)}`);
    }
  });
  return value.slice() as AgentObserver[];
};

const checkMemory = (value: unknown): AgentOptions['memory'] => {
  if (value === undefined) return undefined;
  const memory = value as Partial<Record<'addMany' | 'holdForSummary' | 'commitSummary', unknown>>;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof memory.addMany !== 'function' ||
    typeof memory.holdForSummary !== 'function' ||
    typeof memory.commitSummary !== 'function'
  ) {
    return fail(`memory must be a ConversationMemory, received ${describeValue(value)}`);
  }
  return value as AgentOptions['memory'];
};

/** Checks the `recall` option: `{ budget, k? }`, `budget` an integer ≥ 1, `k` from 1 to 1,000. */
const checkRecall = (value: unknown): CheckedAgentOptions['recall'] => {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    return fail(
      `recall must be an object such as { budget: 2000 }, received ${describeValue(value)}`,
    );
  }
  const unknown = unknownOption(value, ['budget', 'k'], 'recall', {
    maxTokens: 'budget',
    topK: 'k',
  });
  if (unknown !== undefined) fail(unknown);
  const { budget, k = 16 } = value as { budget?: unknown; k?: unknown };
  if (!(typeof budget === 'number' && Number.isSafeInteger(budget) && budget >= 1)) {
    fail(`recall.budget must be an integer ≥ 1, received ${describeValue(budget)}`);
  }
  if (!(typeof k === 'number' && Number.isSafeInteger(k) && k >= 1 && k <= 1000)) {
    fail(`recall.k must be an integer from 1 to 1000, received ${describeValue(k)}`);
  }
  return { budget: budget as number, k: k as number };
};

/**
 * Checks `createAgent`'s options and fills the defaults; each problem throws
 * `AgentConfigError` naming the option and the value. Reads each option once.
 *
 * @internal
 */
export const checkAgentOptions = (options: unknown): CheckedAgentOptions => {
  try {
    return check(options);
  } catch (error) {
    throw unreadable(error, AgentConfigError, API, 'options');
  }
};

const check = (options: unknown): CheckedAgentOptions => {
  if (!isPlainObject(options)) {
    return fail(
      `options must be an object such as { provider }, received ${describeValue(options)}`,
    );
  }
  const unknown = unknownOption(options, AGENT_OPTIONS, 'options', AGENT_OPTION_HINTS);
  if (unknown !== undefined) fail(unknown);
  const {
    provider: rawProvider,
    tools: rawTools,
    memory: rawMemory,
    config: rawConfig,
    observers,
    session: rawSession,
    eventStore: rawEventStore,
    recall: rawRecall,
  } = options as Record<keyof AgentOptions, unknown>;
  const recall = checkRecall(rawRecall);
  if (
    recall !== undefined &&
    rawMemory === undefined &&
    rawSession === undefined &&
    rawEventStore === undefined
  ) {
    fail(
      'recall needs memory, session or eventStore: without one, nothing ever leaves a window to recall',
    );
  }
  if (rawSession !== undefined && rawEventStore !== undefined) {
    fail(
      'session and eventStore cannot both be given: a conversation is kept either as a saved state (session) or as a stream of actions (eventStore)',
    );
  }
  const memory = checkMemory(rawMemory);
  if (rawEventStore !== undefined && memory !== undefined && !(memory instanceof RecordedMemory)) {
    fail(
      `with eventStore, memory must be a RecordedMemory (its changes are appended as actions) or left out (the agent makes one), received ${describeValue(memory)}`,
    );
  }
  const provider = checkProvider(rawProvider, 'provider');
  const tools = checkTools(rawTools);
  if (rawConfig !== undefined && !isPlainObject(rawConfig)) {
    fail(`config must be an object, received ${describeValue(rawConfig)}`);
  }
  const config = (rawConfig ?? {}) as Record<string, unknown>;
  const unknownConfig = unknownOption(config, CONFIG_OPTIONS, 'options.config');
  if (unknownConfig !== undefined) fail(unknownConfig);
  const model = checkText(config['model'], 'config.model') ?? provider.defaultModel;
  if (model === undefined || model === '') {
    fail(
      `config.model is required: provider ${describeValue(provider.name)} names no defaultModel`,
    );
  }
  const summarizeOnTrim = config['summarizeOnTrim'];
  if (summarizeOnTrim !== undefined && typeof summarizeOnTrim !== 'boolean') {
    fail(
      `config.summarizeOnTrim must be true or false, received ${describeValue(summarizeOnTrim)}`,
    );
  }
  const summarizeProvider =
    config['summarizeProvider'] === undefined
      ? undefined
      : checkProvider(config['summarizeProvider'], 'config.summarizeProvider');
  const summarizeModel: string =
    checkText(config['summarizeModel'], 'config.summarizeModel') ??
    summarizeProvider?.defaultModel ??
    (model as string);
  const summarizeMaxTokens = checkLimit(
    config['summarizeMaxTokens'],
    'config.summarizeMaxTokens',
    150,
  );
  const onError = config['onError'];
  if (onError !== undefined && typeof onError !== 'function') {
    fail(`config.onError must be a function, received ${describeValue(onError)}`);
  }
  const markInterrupted = config['markInterrupted'] ?? true;
  if (typeof markInterrupted !== 'boolean') {
    fail(
      `config.markInterrupted must be true or false, received ${describeValue(markInterrupted)}`,
    );
  }
  const mask = readMaskOption(config['maskToolResults'], 'config.maskToolResults', fail);
  if (mask?.untilFits === true) {
    fail(
      'config.maskToolResults.untilFits masks only as far as a view budget needs, and the agent sends its views without one: use keepLast or keepTurns',
    );
  }
  if (mask !== undefined && tools.has(READ_TOOL_RESULT)) {
    fail(
      `tools: a tool named ${describeValue(READ_TOOL_RESULT)} clashes with the one config.maskToolResults adds`,
    );
  }
  const cacheTtl = readCacheOption(config['cache'], 'config.cache', API, AgentConfigError);
  const cacheKey = config['cacheKey'];
  if (cacheKey !== undefined && (typeof cacheKey !== 'string' || cacheKey === '')) {
    fail(`config.cacheKey must be a non-empty string, received ${describeValue(cacheKey)}`);
  }
  const session = checkSession(rawSession);
  const eventStore = checkEventStore(rawEventStore);
  return {
    provider,
    tools,
    toolSpecs: [...tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as JsonObject,
    })),
    memory,
    observers: checkObservers(observers),
    model: model as string,
    systemPrompt: checkText(config['systemPrompt'], 'config.systemPrompt') ?? '',
    maxIterations: checkLimit(config['maxIterations'], 'config.maxIterations', 10),
    summarize:
      summarizeOnTrim === true
        ? {
            provider: summarizeProvider ?? provider,
            model: summarizeModel === '' ? (model as string) : summarizeModel,
            maxTokens: summarizeMaxTokens,
          }
        : undefined,
    onError: onError as CheckedAgentOptions['onError'],
    session,
    eventStore,
    knowledge: checkKnowledge(options as Record<string, unknown>, tools),
    recall,
    mask,
    markInterrupted: markInterrupted as boolean,
    cache:
      cacheTtl === undefined
        ? undefined
        : {
            ttl: cacheTtl,
            key: (cacheKey as string | undefined) ?? (session ?? eventStore)?.where.key,
          },
  };
};
