/**
 * The embeddings route of the loopback OpenAI server (`POST /v1/embeddings`): the request checks
 * of OpenAI's API reference (`model` a string; `input` a non-empty string or an array of 1 to
 * 2048 non-empty strings or token arrays; `dimensions` an integer ≥ 1; `encoding_format` `float`
 * or `base64`), and a deterministic reply: each input's vector is derived from its text alone (the
 * same text always gets the same vector), `dimensions` long (default: 1536 for
 * `text-embedding-3-small` and `text-embedding-ada-002`, 3072 for `text-embedding-3-large`, else
 * 16), as JSON numbers or, for `encoding_format: 'base64'`, as little-endian float32 in base64.
 * The error texts follow OpenAI's forms (openaiSchema.ts); the `dimensions` one is this server's.
 */
import { emptyArray, invalidType, invalidValue, missing } from './openaiSchema';
import { invalidRequest, isObject, type OpenAIErrorBody } from './openaiWire';

/** A `POST /v1/embeddings` body that passed the checks. */
export interface EmbeddingsRequestBody {
  readonly model: string;
  readonly input: string | readonly string[] | readonly number[] | readonly (readonly number[])[];
  readonly dimensions?: number;
  readonly encoding_format?: 'float' | 'base64';
  readonly [key: string]: unknown;
}

/**
 * What the embeddings route answers: `{ vectors }` to send these vectors (item `i` with index
 * `i`); `{ data }` to send these items as the reply's `data` (hostile shapes); `{ raw }` for any
 * body and status (a string is sent as it is, anything else as JSON). `undefined`: the default.
 */
export type ScriptedEmbeddingsReply =
  | undefined
  | { readonly vectors: readonly (readonly number[])[] }
  | { readonly data: readonly unknown[] }
  | { readonly raw: unknown; readonly status?: number; readonly contentType?: string };

/** OpenAI's limit on the inputs of one request. */
export const MAX_EMBEDDING_INPUTS = 2048;

const INVALID_INPUT =
  "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

const isTokens = (value: unknown): boolean =>
  Array.isArray(value) && value.length > 0 && value.every((token) => Number.isInteger(token));

/** The problem with an `input`, or `undefined`. */
const checkInput = (input: unknown): OpenAIErrorBody | undefined => {
  if (input === undefined) return missing('input');
  if (typeof input === 'string') return input === '' ? invalidRequest(INVALID_INPUT) : undefined;
  if (!Array.isArray(input)) return invalidType('input', 'a string or an array', input);
  if (input.length === 0) return emptyArray('input');
  if (input.length > MAX_EMBEDDING_INPUTS) {
    return invalidRequest(
      `Invalid 'input': array too long. Expected an array with maximum length ${MAX_EMBEDDING_INPUTS}, but got an array with length ${input.length} instead.`,
      'input',
      'array_above_max_length',
    );
  }
  const allStrings = input.every((item) => typeof item === 'string' && item !== '');
  const allTokens = input.every((item) => isTokens(item)) || isTokens(input);
  return allStrings || allTokens ? undefined : invalidRequest(INVALID_INPUT);
};

/**
 * Checks an embeddings request body as OpenAI does.
 *
 * @param parsed - the parsed JSON body
 * @returns the body, or the 400 error body to answer with
 */
export const checkEmbeddingsRequest = (
  parsed: unknown,
):
  | { readonly ok: true; readonly body: EmbeddingsRequestBody }
  | { readonly ok: false; readonly error: OpenAIErrorBody } => {
  if (!isObject(parsed)) return { ok: false, error: invalidType('body', 'an object', parsed) };
  const { model, dimensions, encoding_format: format } = parsed;
  const problem =
    (model === undefined ? missing('model') : undefined) ??
    (typeof model !== 'string' ? invalidType('model', 'a string', model) : undefined) ??
    checkInput(parsed['input']) ??
    (dimensions !== undefined && !(Number.isInteger(dimensions) && (dimensions as number) >= 1)
      ? invalidRequest(
          `Invalid 'dimensions': expected an integer of at least 1, got ${JSON.stringify(dimensions)}.`,
          'dimensions',
        )
      : undefined) ??
    (format !== undefined && format !== 'float' && format !== 'base64'
      ? invalidValue('encoding_format', format, ['float', 'base64'])
      : undefined);
  return problem === undefined
    ? { ok: true, body: parsed as unknown as EmbeddingsRequestBody }
    : { ok: false, error: problem };
};

/** The inputs of a checked request as texts (a token array is written as its numbers). */
export const inputTexts = (body: EmbeddingsRequestBody): string[] => {
  const { input } = body;
  if (typeof input === 'string') return [input];
  if (input.every((item) => typeof item === 'number')) return [input.join(',')];
  return input.map((item) => (typeof item === 'string' ? item : item.join(',')));
};

const MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/** FNV-1a over the text's UTF-16 units, then `salt`: a deterministic 32-bit hash. */
const hash = (text: string, salt: number): number => {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

/**
 * The deterministic vector of a text: `length` values in [-1, 1) with 3 decimals, from the text
 * alone.
 */
export const loopbackVector = (text: string, length: number): number[] =>
  Array.from({ length }, (_, k) => ((hash(text, k) % 2000) - 1000) / 1000);

/** The length of the vectors a checked request gets. */
export const vectorLength = (body: EmbeddingsRequestBody): number =>
  body.dimensions ?? MODEL_DIMENSIONS[body.model] ?? 16;

const base64Of = (vector: readonly number[]): string =>
  Buffer.from(new Float32Array(vector).buffer).toString('base64');

/**
 * The `list` object for a checked request: `data` as scripted, or one item per input in order.
 *
 * @param body - the checked request
 * @param scripted - `{ vectors }`, `{ data }` or `undefined` for the default
 */
export const embeddingsReplyFor = (
  body: EmbeddingsRequestBody,
  scripted: Exclude<ScriptedEmbeddingsReply, { readonly raw: unknown }>,
): Record<string, unknown> => {
  const texts = inputTexts(body);
  const vectors =
    scripted !== undefined && 'vectors' in scripted
      ? scripted.vectors
      : texts.map((text) => loopbackVector(text, vectorLength(body)));
  const data =
    scripted !== undefined && 'data' in scripted
      ? scripted.data
      : vectors.map((vector, index) => ({
          object: 'embedding',
          index,
          embedding: body.encoding_format === 'base64' ? base64Of(vector) : vector,
        }));
  const tokens = texts.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)), 0);
  return {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
};
