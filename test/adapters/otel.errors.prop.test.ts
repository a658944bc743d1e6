/**
 * What `otelObserver` records of a failure (issue #27 §2): by default the exception's type and
 * code only, never its text, whatever the error holds (file paths, SQL, keys, a provider's
 * message quoting the prompt, any text) and however it was thrown; with `recordContent: true`,
 * its message too. Spans read back from the real SDK's in-memory exporter, for model calls and
 * tool calls driven through the hooks, and for a real agent whose provider and tool fail.
 */
import { SpanStatusCode, type Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAgent, type AgentObserver, type Provider } from 'conversation-memory';
import { otelObserver } from 'conversation-memory/otel';
import { LocalProvider } from 'conversation-memory/testing';
import { secretArb, secretError, secretErrorKindArb } from '../arbitraries/secretErrors';
import { user } from '../helpers';

type Hooks = Required<
  Pick<AgentObserver, 'onModelCall' | 'onModelError' | 'onToolStart' | 'onToolEnd'>
>;

const sdk = (): { tracer: Tracer; spans: () => ReadableSpan[] } => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test'), spans: () => exporter.getFinishedSpans() };
};

/** Everything a span holds that a backend would store: name, attributes, status, events. */
const recordedText = (spans: readonly ReadableSpan[]): string =>
  JSON.stringify(
    spans.map((span) => [
      span.name,
      span.attributes,
      span.status,
      span.events.map((event) => [event.name, event.attributes]),
    ]),
  );

/** The secret between markers that nothing of ours writes: any trace of it shows a marker. */
const marked = (secret: string): string => `⟦${secret}⟧`;

/** The `error.type` the observer writes: the code, else the status, else the name. */
const errorTypeFor = (kind: string, code: string | undefined, name: string | undefined): string =>
  code ?? (kind === 'http' ? '400' : (name ?? '_OTHER'));

/** Fails one model call and one tool call with `error`, through the hooks. */
const failBoth = (observer: AgentObserver, error: unknown): void => {
  const hooks = observer as Hooks;
  const base = {
    callId: 'call-1',
    kind: 'main',
    provider: 'openai',
    model: 'gpt-4o',
    iteration: 1,
  } as const;
  hooks.onModelCall('run-1', {
    ...base,
    systemPrompt: '',
    messages: [user('hi')],
    tools: [],
    streaming: false,
  });
  hooks.onModelError('run-1', { ...base, error, latencyMs: 5 });
  hooks.onToolStart('run-1', { toolCallId: 't1', toolName: 'read_file', input: {} });
  hooks.onToolEnd('run-1', {
    toolCallId: 't1',
    toolName: 'read_file',
    output: 'Error: tool "read_file" failed',
    error,
    durationMs: 1,
  });
};

describe('otelObserver: what a failure records (property)', () => {
  it('by default: error.type and exception.type only, no text of the error anywhere', () => {
    fc.assert(
      fc.property(secretErrorKindArb, secretArb, (kind, secret) => {
        const thrown = secretError(kind, marked(secret));
        const { tracer, spans } = sdk();
        failBoth(otelObserver({ tracer }), thrown.error);
        expect(spans()).toHaveLength(2);
        const type = errorTypeFor(kind, thrown.code, thrown.name);
        for (const span of spans()) {
          expect(span.status).toEqual({ code: SpanStatusCode.ERROR });
          expect(span.attributes['error.type']).toBe(type);
          expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
            ['exception', { 'exception.type': thrown.name ?? type }],
          ]);
        }
        expect(recordedText(spans())).not.toContain('⟦');
      }),
    );
  });

  it('with recordContent: true, the error text is recorded (message, status, stack)', () => {
    fc.assert(
      fc.property(secretErrorKindArb, secretArb, (kind, secret) => {
        const thrown = secretError(kind, marked(secret));
        const { tracer, spans } = sdk();
        failBoth(otelObserver({ tracer, recordContent: true }), thrown.error);
        for (const span of spans()) {
          expect(span.status.code).toBe(SpanStatusCode.ERROR);
          expect(span.status.message).toContain('⟦');
          expect(String(span.events[0]?.attributes?.['exception.message'])).toContain('⟦');
          if (kind !== 'string') {
            expect(span.status.message).toContain(marked(secret));
            expect(span.events[0]?.attributes?.['exception.message']).toContain(marked(secret));
          }
        }
      }),
    );
  });

  it('a real agent whose provider or tool fails: nothing of the error text by default; all of it on opt-in', async () => {
    await fc.assert(
      fc.asyncProperty(
        secretErrorKindArb,
        secretArb,
        fc.constantFrom('provider', 'tool'),
        fc.boolean(),
        async (kind, secret, where, recordContent) => {
          const thrown = secretError(kind, marked(secret));
          const { tracer, spans } = sdk();
          const local = new LocalProvider();
          const provider: Provider =
            where === 'provider'
              ? {
                  name: 'failing',
                  defaultModel: 'failing-1',
                  complete: async () => {
                    throw thrown.error;
                  },
                }
              : local;
          const agent = createAgent({
            provider,
            tools: [
              {
                name: 'read_file',
                description: 'Reads a file',
                parameters: { type: 'object' },
                execute: () => {
                  throw thrown.error;
                },
              },
            ],
            observers: [otelObserver({ tracer, recordContent })],
          });
          await agent.run('/call read_file {}').catch(() => undefined);
          const failed = spans().filter((span) => span.status.code === SpanStatusCode.ERROR);
          expect(failed).toHaveLength(1);
          const text = recordedText(failed);
          if (recordContent) expect(text).toContain('⟦');
          else expect(text).not.toContain('⟦');
        },
      ),
      { numRuns: 60 },
    );
  });
});
