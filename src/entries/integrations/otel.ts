/**
 * The OpenTelemetry subpath (`conversation-memory/otel`): an agent observer that traces model and
 * tool calls as spans with the GenAI semantic conventions' names, built on `@opentelemetry/api`
 * (an optional peer dependency).
 *
 * @packageDocumentation
 * @module conversation-memory/otel
 */
export { otelObserver, OTEL_TRACER_NAME } from '../../adapters/otel/otelObserver';
export type { OtelObserverOptions } from '../../adapters/otel/otelObserverOptions';
