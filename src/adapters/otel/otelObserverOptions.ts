import type { Tracer } from '@opentelemetry/api';
import { AgentConfigError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { readAdapterOptions } from '../shared/readAdapterOptions';

/**
 * Options of {@link otelObserver}.
 *
 * @example
 * ```ts
 * const options: OtelObserverOptions = { tracer: trace.getTracer('my-app'), recordContent: false };
 * ```
 */
export interface OtelObserverOptions {
  /**
   * The tracer to start spans with. Default: `trace.getTracer('conversation-memory')` from the
   * global tracer provider, looked up at each span, so a provider registered after the observer
   * was created is used.
   */
  readonly tracer?: Tracer;
  /**
   * Record message contents (default `false`): the system prompt, the messages sent, the tool
   * definitions, the reply, tool arguments and results, as the GenAI conventions' opt-in
   * attributes (`gen_ai.system_instructions`, `gen_ai.input.messages`, `gen_ai.tool.definitions`,
   * `gen_ai.output.messages`, `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`), each a
   * JSON string; and the text of a failure: the exception's message and stack, and the error's
   * message as the span status description (without it, a failure records only the exception's
   * type and `error.type`). They hold what users typed, and an error's text can hold file paths,
   * SQL, keys or a provider's message quoting the prompt: turn on only where telemetry may hold
   * it (unsafe where the trace backend is shared more widely than the application's data).
   */
  readonly recordContent?: boolean;
}

/** The options as the observer uses them. */
export interface ReadOtelOptions {
  readonly tracer: Tracer | undefined;
  readonly recordContent: boolean;
}

const API = 'otelObserver';

/**
 * Checks {@link OtelObserverOptions}.
 *
 * @throws AgentConfigError naming the option and the value received
 * @example
 * ```ts
 * readOtelOptions(undefined); // { tracer: undefined, recordContent: false }
 * ```
 */
export const readOtelOptions = (options: OtelObserverOptions | undefined): ReadOtelOptions => {
  // Read once: not an object, an unknown key, or options that cannot be read (with the cause).
  const given = readAdapterOptions(options, ['tracer', 'recordContent'], API, {
    example: '{ recordContent: true }',
    error: AgentConfigError,
  }) as OtelObserverOptions;
  const { tracer, recordContent = false } = given;
  if (tracer !== undefined && typeof (tracer as Partial<Tracer> | null)?.startSpan !== 'function') {
    throw new AgentConfigError(
      API,
      `options.tracer must be an OpenTelemetry Tracer (trace.getTracer(name)), received ${describeValue(tracer)}`,
    );
  }
  if (typeof recordContent !== 'boolean') {
    throw new AgentConfigError(
      API,
      `options.recordContent must be a boolean, received ${describeValue(recordContent)}`,
    );
  }
  return { tracer, recordContent };
};
