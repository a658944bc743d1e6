import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { readOptionFields } from '../internal/readOptionFields';
import { unreadable } from '../internal/unreadable';
import { readCacheOption } from './readCacheOption';
import { readMaskOption } from './readMaskOption';
import { readRecallOption, type RecallRequest } from './recall/readRecallOption';
import type { CacheTtl } from '../model/promptCache';
import type { MaskToolResults, ModelViewOptions, TranscriptEntry, ViewTarget } from './viewTypes';

const API = 'modelView';

const OPTION_NAMES = [
  'target',
  'budget',
  'transcript',
  'knowledge',
  'maskToolResults',
  'cache',
  'recall',
] as const;

/** A wrong-case or snake_case key the caller probably meant. */
const OPTION_HINTS: Readonly<Record<string, string>> = {
  provider: 'target',
  maxTokens: 'budget',
  max_tokens: 'budget',
  tokenBudget: 'budget',
  messages: 'transcript',
  mask: 'maskToolResults',
  maskToolOutput: 'maskToolResults',
  masking: 'maskToolResults',
  caching: 'cache',
  cacheControl: 'cache',
  cache_control: 'cache',
  promptCache: 'cache',
  retrieval: 'recall',
  recallTrimmed: 'recall',
};

/** The checked options. */
export interface ViewOptions {
  readonly target: ViewTarget;
  readonly budget: number | undefined;
  readonly transcript: readonly TranscriptEntry[] | undefined;
  readonly knowledge: string | undefined;
  readonly mask: MaskToolResults | undefined;
  /** The cache's time to live when `cache` is on. */
  readonly cache: CacheTtl | undefined;
  readonly recall: RecallRequest | undefined;
}

const fail = (what: string): never => {
  throw new MemoryArgumentError(API, what);
};

const readTranscript = (value: unknown): readonly TranscriptEntry[] => {
  if (!Array.isArray(value)) {
    return fail(
      `options.transcript must be an array of { message, position }, received ${describeValue(value)}`,
    );
  }
  const list = value as readonly unknown[];
  for (let i = 0; i < list.length; i++) {
    const entry = list[i] as Partial<TranscriptEntry> | null | undefined;
    if (typeof entry !== 'object' || entry === null) {
      fail(
        `options.transcript[${i}] must be { message, position }, received ${describeValue(entry)}`,
      );
    }
    const { message, position } = entry as Partial<TranscriptEntry>;
    if (typeof message !== 'object' || message === null || typeof message.role !== 'string') {
      fail(
        `options.transcript[${i}].message must be a message, received ${describeValue(message)}`,
      );
    }
    if (position !== null && !(Number.isSafeInteger(position) && (position as number) >= 0)) {
      fail(
        `options.transcript[${i}].position must be a position (an integer ≥ 0) or null, received ${describeValue(position)}`,
      );
    }
  }
  return list as readonly TranscriptEntry[];
};

/**
 * Reads `modelView`'s options: every key known, `target` one of the three, `budget` an integer
 * ≥ 1 (or absent), `transcript` a list of entries, `cache` `true`, `false` or `{ ttl }`, `recall`
 * `{ source, budget, query?, k? }`. A wrong option is a `MemoryArgumentError`
 * naming it and its value.
 *
 * @internal
 */
export const readViewOptions = (options: ModelViewOptions | undefined): ViewOptions => {
  if (options === undefined) {
    return {
      target: 'none',
      budget: undefined,
      transcript: undefined,
      knowledge: undefined,
      mask: undefined,
      cache: undefined,
      recall: undefined,
    };
  }
  try {
    // Read once, first: a getter or Proxy trap that throws is ours, with the caller's as `cause`.
    const given = readOptionFields(options, OPTION_NAMES, API, {
      example: "{ target: 'openai' }",
      hints: OPTION_HINTS,
    }) as ModelViewOptions;
    const {
      target = 'none',
      budget,
      transcript,
      knowledge,
      maskToolResults,
      cache,
      recall,
    } = given;
    if (knowledge !== undefined && typeof knowledge !== 'string') {
      fail(
        `options.knowledge must be a string (the knowledge blocks), received ${describeValue(knowledge)}`,
      );
    }
    if (target !== 'openai' && target !== 'anthropic' && target !== 'none') {
      fail(
        `options.target must be "openai", "anthropic" or "none", received ${describeValue(target)}`,
      );
    }
    if (budget !== undefined && budget !== null && !(Number.isSafeInteger(budget) && budget >= 1)) {
      fail(`options.budget must be an integer ≥ 1, received ${describeValue(budget)}`);
    }
    const mask = readMaskOption(maskToolResults, 'options.maskToolResults', fail);
    if (mask?.untilFits === true && (budget === undefined || budget === null)) {
      fail(
        `options.maskToolResults.untilFits masks only as far as options.budget needs, and options.budget is ${describeValue(budget)}: give a budget, or leave untilFits out to mask every stale result`,
      );
    }
    return {
      target,
      budget: budget ?? undefined,
      transcript: transcript === undefined ? undefined : readTranscript(transcript),
      knowledge: knowledge === undefined || knowledge.trim() === '' ? undefined : knowledge,
      mask,
      cache: readCacheOption(cache, 'options.cache', API),
      recall: readRecallOption(recall, fail),
    };
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, API, 'options');
  }
};
