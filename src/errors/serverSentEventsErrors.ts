import { brandError, formatMessage } from './errorBrand';

/**
 * Thrown while reading a stream of server-sent events with `readServerSentEvents`: the server
 * sent an `error` event (its `message` is in this message, shortened and escaped, and its `code`
 * is `remoteCode`), or the body broke the format (a line or an event longer than the limit, data
 * that is not JSON or not the event it names). `event` names the event being read, when there is
 * one.
 *
 * @example
 * ```ts
 * try {
 *   for await (const event of readServerSentEvents(response.body)) show(event);
 * } catch (error) {
 *   if (error instanceof ServerSentEventsError) console.log(error.event, error.remoteCode);
 * }
 * ```
 */
export class ServerSentEventsError extends Error {
  declare readonly code: 'CM_SSE';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** The event being read (`'error'` for an error the server sent), when there is one. */
  readonly event?: string;
  /** The `code` of the server's `error` event, when it sent one. */
  readonly remoteCode?: string;
  constructor(
    api: string,
    what: string,
    fields: { readonly event?: string; readonly remoteCode?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(formatMessage(api, what), options);
    brandError(this, 'CM_SSE', 'ServerSentEventsError', what);
    if (fields.event !== undefined) this.event = fields.event;
    if (fields.remoteCode !== undefined) this.remoteCode = fields.remoteCode;
  }
}
