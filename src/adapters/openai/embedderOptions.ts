import type OpenAI from 'openai';
import { MemoryArgumentError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { readAdapterOptions } from '../shared/readAdapterOptions';

/**
 * Options of {@link createOpenAIEmbedder}.
 *
 * @example
 * ```ts
 * const options: OpenAIEmbedderOptions = { client: new OpenAI(), model: 'text-embedding-3-small' };
 * ```
 */
export interface OpenAIEmbedderOptions {
  /** An `openai` client (`new OpenAI({ apiKey })`); its retries, timeout and base URL apply. */
  readonly client: OpenAI;
  /** The embeddings model; default `'text-embedding-3-small'`. */
  readonly model?: string;
  /**
   * The length of the vectors the API returns (`text-embedding-3` models and later can shorten
   * theirs); default: the model's own. Sent with every request and checked on every reply.
   */
  readonly dimensions?: number;
  /** The most texts in one request: from 1 to 2048 (OpenAI's limit, the default). */
  readonly batchSize?: number;
  /**
   * The most UTF-8 bytes of text in one request; default 300,000. OpenAI refuses a request whose
   * inputs hold more than 300,000 tokens in all, and a token is at least one byte, so a request
   * within this many bytes is never refused for its size (a single longer text is sent alone).
   */
  readonly maxBatchBytes?: number;
}

/** The options, checked, with their defaults. */
export interface EmbedderSettings {
  readonly client: OpenAI;
  readonly model: string;
  readonly dimensions: number | undefined;
  readonly batchSize: number;
  readonly maxBatchBytes: number;
}

/** OpenAI's limit on the inputs of one embeddings request. */
export const MAX_EMBEDDING_INPUTS = 2048;
/** OpenAI's limit on the tokens of one request, all inputs together; taken as bytes. */
export const DEFAULT_MAX_BATCH_BYTES = 300_000;
/** The default model. */
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

const API = 'createOpenAIEmbedder';
const KNOWN = ['client', 'model', 'dimensions', 'batchSize', 'maxBatchBytes'];

const isCount = (value: unknown, most: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= most;

const refuse = (what: string): never => {
  throw new MemoryArgumentError(API, what);
};

/**
 * Checks the options of {@link createOpenAIEmbedder} and fills in the defaults.
 *
 * @param options - what the caller passed
 * @returns the settings
 * @throws MemoryArgumentError naming the option and the value received
 * @example
 * ```ts
 * readEmbedderOptions({ client }).batchSize; // 2048
 * ```
 * @internal
 */
export const readEmbedderOptions = (options: OpenAIEmbedderOptions): EmbedderSettings => {
  // Read once: not an object, an unknown key, or options that cannot be read (with the cause).
  const given = readAdapterOptions(options, KNOWN, API, {
    example: '{ client }',
    error: MemoryArgumentError,
    required: true,
    hints: { batch_size: 'batchSize' },
  }) as Partial<OpenAIEmbedderOptions>;
  const {
    client,
    model = DEFAULT_EMBEDDING_MODEL,
    dimensions,
    batchSize = MAX_EMBEDDING_INPUTS,
    maxBatchBytes = DEFAULT_MAX_BATCH_BYTES,
  } = given;
  const create: unknown = (client as Partial<OpenAI> | undefined)?.embeddings?.create;
  if (typeof create !== 'function') {
    refuse(
      `options.client must be an openai client (new OpenAI({ apiKey })), received ${describeValue(client)}`,
    );
  }
  if (typeof model !== 'string' || model === '') {
    refuse(`options.model must be a non-empty string, received ${describeValue(model)}`);
  }
  if (dimensions !== undefined && !isCount(dimensions, Number.MAX_SAFE_INTEGER)) {
    refuse(`options.dimensions must be a whole number ≥ 1, received ${describeValue(dimensions)}`);
  }
  if (!isCount(batchSize, MAX_EMBEDDING_INPUTS)) {
    refuse(
      `options.batchSize must be a whole number from 1 to ${MAX_EMBEDDING_INPUTS}, received ${describeValue(batchSize)}`,
    );
  }
  if (!isCount(maxBatchBytes, Number.MAX_SAFE_INTEGER)) {
    refuse(
      `options.maxBatchBytes must be a whole number ≥ 1, received ${describeValue(maxBatchBytes)}`,
    );
  }
  return { client: client as OpenAI, model, dimensions, batchSize, maxBatchBytes };
};
