import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';
import { brandError, formatMessage } from './errorBrand';

/**
 * An embedder that answers from a cache (`createOpenAIEmbedder`'s `embed`) was asked for a text
 * it never fetched: call its `prepare` with the text first, or import a cache that holds it. The
 * message shows the text quoted, escaped and shortened to 60 characters; `text` holds all of it.
 *
 * @example
 * ```ts
 * try { embedder.embed('never prepared'); } catch (e) {
 *   if (isConversationMemoryError(e) && e.code === 'CM_EMBEDDING_NOT_PREPARED') {
 *     await embedder.prepare([(e as EmbeddingNotPreparedError).text]);
 *   }
 * }
 * ```
 */
export class EmbeddingNotPreparedError extends Error {
  declare readonly code: 'CM_EMBEDDING_NOT_PREPARED';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The text that has no vector, whole (the message shows at most 60 characters of it). */
  readonly text: string;
  /**
   * @param api - the embedder's name, for the prefix (`createOpenAIEmbedder.embed`)
   * @param text - the text that has no vector
   * @param hint - what to do, appended to the message
   */
  constructor(api: string, text: string, hint: string) {
    const length =
      typeof text === 'string' ? ` (${text.length} character${text.length === 1 ? '' : 's'})` : '';
    const what = `no vector for ${describeValue(text)}${length}: ${hint}`;
    super(formatMessage(api, what));
    brandError(this, 'CM_EMBEDDING_NOT_PREPARED', 'EmbeddingNotPreparedError', what);
    this.text = text;
  }
}

/**
 * An embeddings request failed before a reply could be read: the API answered with an HTTP error
 * (a 400 for a text over the model's input limit, a 429, a 500), the connection failed or timed
 * out. `cause` is the client's own error (`OpenAI.APIError` and its subclasses, with `status`);
 * `status` repeats its HTTP status when it has one. The message names the batch and the client's
 * message, escaped and shortened. A reply that arrives but is not usable is a
 * `ProviderResponseError` instead.
 *
 * @example
 * ```ts
 * try { await embedder.prepare(texts); } catch (e) {
 *   if (isConversationMemoryError(e) && e.code === 'CM_EMBEDDING_REQUEST') console.error(e.cause);
 * }
 * ```
 */
export class EmbeddingRequestError extends Error {
  declare readonly code: 'CM_EMBEDDING_REQUEST';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The HTTP status of the failed request, when the client's error has one. */
  readonly status: number | undefined;
  /**
   * @param api - the API name, for the prefix (`createOpenAIEmbedder.prepare`)
   * @param request - which request failed (`the openai embeddings request 2 of 3 (100 texts)`)
   * @param cause - what the client threw
   */
  constructor(api: string, request: string, cause: unknown) {
    const what = `${request} failed: ${errorText(cause)}`;
    super(formatMessage(api, what), { cause });
    brandError(this, 'CM_EMBEDDING_REQUEST', 'EmbeddingRequestError', what);
    this.status = statusOf(cause);
  }
}

/** The `status` of a client error: a whole number from 100 to 599, else `undefined`. */
const statusOf = (cause: unknown): number | undefined => {
  try {
    const status: unknown = (cause as { status?: unknown } | null)?.status;
    return typeof status === 'number' && Number.isInteger(status) && status >= 100 && status < 600
      ? status
      : undefined;
  } catch {
    return undefined;
  }
};
