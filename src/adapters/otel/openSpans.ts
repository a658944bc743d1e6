import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { GEN_AI } from './genAiAttributes';

/**
 * The spans started and not yet ended, by the key their end will carry. `close` deletes the
 * entry, so a span is ended once and nothing stays behind; `open` under a key that is still open
 * ends the older span first (failed: its end was never reported), so no span is left open.
 *
 * @example
 * ```ts
 * const spans = new OpenSpans();
 * spans.open('call-1', tracer.startSpan('chat gpt-4o'));
 * spans.close('call-1')?.end();
 * ```
 */
export class OpenSpans {
  readonly #spans = new Map<string, Span>();

  /** Keeps `span` under `key`; a span still open under it is ended, marked failed. */
  open(key: string, span: Span): void {
    const previous = this.#spans.get(key);
    this.#spans.set(key, span);
    if (previous === undefined) return;
    previous.setAttribute(GEN_AI.errorType, '_OTHER');
    previous.setStatus({
      code: SpanStatusCode.ERROR,
      message: 'no end was reported before another start with the same id',
    });
    previous.end();
  }

  /** Removes and returns the span under `key` (`undefined` for an unknown or ended key). */
  close(key: string): Span | undefined {
    const span = this.#spans.get(key);
    this.#spans.delete(key);
    return span;
  }
}
