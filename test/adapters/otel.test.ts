/**
 * `otelObserver` (`conversation-memory/otel`), driven through its hook methods with the agent's
 * hook infos, its spans read back from the SDK's in-memory exporter: names, kinds, GenAI
 * attributes, status, parents, contents only on opt-in, and no span left open whatever the order
 * of the hooks.
 */
import {
  context,
  diag,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type ContextManager,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentConfigError,
  ProviderResponseError,
  type AgentObserver,
  type Message,
} from 'conversation-memory';
import { otelObserver, OTEL_TRACER_NAME } from 'conversation-memory/otel';
import { messageArb } from '../arbitraries/message';
import { assistant, call, system, tool, user } from '../helpers';

type ModelCallInfo = Parameters<NonNullable<AgentObserver['onModelCall']>>[1];
type ModelResultInfo = Parameters<NonNullable<AgentObserver['onModelResult']>>[1];
type ModelErrorInfo = Parameters<NonNullable<AgentObserver['onModelError']>>[1];
type ToolStartInfo = Parameters<NonNullable<AgentObserver['onToolStart']>>[1];
type ToolEndInfo = Parameters<NonNullable<AgentObserver['onToolEnd']>>[1];
/** The observer's five hooks, called directly (they are sync and return nothing). */
type Hooks = Required<
  Pick<
    AgentObserver,
    'onModelCall' | 'onModelResult' | 'onModelError' | 'onToolStart' | 'onToolEnd'
  >
>;

/** A tracer provider whose finished spans are kept in memory. */
const sdk = (): { tracer: Tracer; provider: BasicTracerProvider; spans: () => ReadableSpan[] } => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test'), provider, spans: () => exporter.getFinishedSpans() };
};

/**
 * A tracer that counts, for each span it started, how many times `end` was called on it: the
 * SDK ignores a second `end`, so the exporter alone cannot show one.
 */
const countingTracer = (inner: Tracer): { tracer: Tracer; ends: number[] } => {
  const ends: number[] = [];
  const tracer: Tracer = {
    startSpan: (name, options, ctx) => {
      const span = inner.startSpan(name, options, ctx);
      const index = ends.push(0) - 1;
      const end = span.end.bind(span);
      span.end = (time) => {
        ends[index] = (ends[index] ?? 0) + 1;
        end(time);
      };
      return span;
    },
    startActiveSpan: inner.startActiveSpan.bind(inner),
  };
  return { tracer, ends };
};

const hooksOf = (observer: AgentObserver): Hooks => observer as Hooks;

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

const modelCall = (over: Partial<ModelCallInfo> = {}): ModelCallInfo => ({
  callId: 'call-1',
  kind: 'main',
  provider: 'openai',
  model: 'gpt-4o',
  systemPrompt: 'You are a travel assistant.',
  messages: [user('What is the weather in Paris?')],
  tools: [WEATHER_TOOL],
  iteration: 1,
  streaming: false,
  ...over,
});

const modelResult = (over: Partial<ModelResultInfo> = {}): ModelResultInfo => ({
  callId: 'call-1',
  kind: 'main',
  provider: 'openai',
  model: 'gpt-4o',
  message: assistant('It is 18 °C in Paris.'),
  usage: { inputTokens: 120, outputTokens: 9 },
  latencyMs: 340,
  iteration: 1,
  ...over,
});

const modelError = (error: unknown, over: Partial<ModelErrorInfo> = {}): ModelErrorInfo => ({
  callId: 'call-1',
  kind: 'main',
  provider: 'openai',
  model: 'gpt-4o',
  error,
  latencyMs: 12,
  iteration: 1,
  ...over,
});

const toolStart = (over: Partial<ToolStartInfo> = {}): ToolStartInfo => ({
  toolCallId: 'tc-1',
  toolName: 'get_weather',
  input: { city: 'Paris' },
  ...over,
});

const toolEnd = (over: Partial<ToolEndInfo> = {}): ToolEndInfo => ({
  toolCallId: 'tc-1',
  toolName: 'get_weather',
  output: '{"city":"Paris","celsius":18}',
  durationMs: 3,
  ...over,
});

/** Every attribute value and event attribute value of the spans, as text. */
const recordedText = (spans: readonly ReadableSpan[]): string =>
  JSON.stringify(
    spans.map((span) => [
      span.name,
      span.attributes,
      span.status,
      span.events.map((e) => e.attributes),
    ]),
  );

const CONTENT_KEYS = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.definitions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
];

describe('otelObserver: a model call', () => {
  it('is a CLIENT span `chat {model}` with the GenAI attributes, ended at onModelResult', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onModelCall('run-1', modelCall({ maxTokens: 256 }));
    expect(spans()).toEqual([]); // open until its result
    observer.onModelResult('run-1', modelResult());
    const [span, ...others] = spans();
    expect(others).toEqual([]);
    expect(span?.name).toBe('chat gpt-4o');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.request.max_tokens': 256,
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 9,
      'conversation_memory.run.id': 'run-1',
      'conversation_memory.model_call.kind': 'main',
      'conversation_memory.model_call.iteration': 1,
    });
    expect(span?.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(span?.events).toEqual([]);
    expect(span?.parentSpanContext).toBeUndefined();
  });

  it('sets max_tokens, stream and usage only when known, and names a summary call by its kind', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onModelCall(
      'run-2',
      modelCall({ callId: 's-1', kind: 'summary', iteration: 2, streaming: true, tools: [] }),
    );
    observer.onModelResult('run-2', {
      callId: 's-1',
      kind: 'summary',
      provider: 'openai',
      model: 'gpt-4o',
      message: assistant('A summary.'),
      latencyMs: 5,
      iteration: 2,
    });
    expect(spans()[0]?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.request.stream': true,
      'conversation_memory.run.id': 'run-2',
      'conversation_memory.model_call.kind': 'summary',
      'conversation_memory.model_call.iteration': 2,
    });
  });

  it('exports the cache counts the provider reported, each only when present (issue #29)', () => {
    const cases: readonly [NonNullable<ModelResultInfo['usage']>, Record<string, number>][] = [
      [
        { inputTokens: 5000, cachedInputTokens: 4096, cacheWriteTokens: 512, outputTokens: 40 },
        {
          'gen_ai.usage.input_tokens': 5000,
          'gen_ai.usage.output_tokens': 40,
          'gen_ai.usage.cache_read.input_tokens': 4096,
          'gen_ai.usage.cache_creation.input_tokens': 512,
        },
      ],
      [
        { inputTokens: 2048, cachedInputTokens: 1024, outputTokens: 3 },
        {
          'gen_ai.usage.input_tokens': 2048,
          'gen_ai.usage.output_tokens': 3,
          'gen_ai.usage.cache_read.input_tokens': 1024,
        },
      ],
      [
        { inputTokens: 1500, cacheWriteTokens: 1400, outputTokens: 7 },
        {
          'gen_ai.usage.input_tokens': 1500,
          'gen_ai.usage.output_tokens': 7,
          'gen_ai.usage.cache_creation.input_tokens': 1400,
        },
      ],
      [
        { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1 },
        {
          'gen_ai.usage.input_tokens': 10,
          'gen_ai.usage.output_tokens': 1,
          'gen_ai.usage.cache_read.input_tokens': 0,
          'gen_ai.usage.cache_creation.input_tokens': 0,
        },
      ],
      [
        { inputTokens: 120, outputTokens: 9 },
        { 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 9 },
      ],
    ];
    for (const [usage, expected] of cases) {
      const { tracer, spans } = sdk();
      const observer = hooksOf(otelObserver({ tracer }));
      observer.onModelCall('run-1', modelCall());
      observer.onModelResult('run-1', modelResult({ usage }));
      const usageAttributes = Object.fromEntries(
        Object.entries(spans()[0]?.attributes ?? {}).filter(([name]) =>
          name.startsWith('gen_ai.usage.'),
        ),
      );
      expect(usageAttributes).toEqual(expected);
    }
  });

  it('is named `chat` with no request model when the model is empty', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onModelCall('run-1', modelCall({ model: '' }));
    observer.onModelResult('run-1', modelResult({ model: '' }));
    expect(spans()[0]?.name).toBe('chat');
    expect(spans()[0]?.attributes).not.toHaveProperty('gen_ai.request.model');
  });

  it('fails at onModelError: status ERROR, error.type, the exception recorded by its type only', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onModelCall('run-1', modelCall());
    const error = new ProviderResponseError(
      'openaiProvider',
      'choices: expected a non-empty array',
    );
    observer.onModelError('run-1', modelError(error));
    const [span] = spans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(span?.attributes['error.type']).toBe('CM_PROVIDER_RESPONSE');
    expect(span?.attributes).not.toHaveProperty('gen_ai.usage.input_tokens');
    expect(span?.events.map((event) => [event.name, event.attributes])).toEqual([
      ['exception', { 'exception.type': 'ProviderResponseError' }],
    ]);
    expect(recordedText(spans())).not.toContain('choices');
  });

  it('with recordContent, records the whole exception: message, stack, status description', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer, recordContent: true }));
    observer.onModelCall('run-1', modelCall());
    const error = new ProviderResponseError(
      'openaiProvider',
      'choices: expected a non-empty array',
    );
    observer.onModelError('run-1', modelError(error));
    const [span] = spans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: error.message });
    expect(span?.attributes['error.type']).toBe('CM_PROVIDER_RESPONSE');
    expect(
      span?.events.map((event) => [event.name, event.attributes?.['exception.message']]),
    ).toEqual([['exception', error.message]]);
    expect(span?.events[0]?.attributes?.['exception.type']).toBe('CM_PROVIDER_RESPONSE');
    expect(span?.events[0]?.attributes?.['exception.stacktrace']).toContain('choices');
  });

  it.each([
    ['an HTTP status', Object.assign(new Error('400 Bad Request'), { status: 400 }), '400'],
    ['an error name', Object.assign(new Error('aborted'), { name: 'AbortError' }), 'AbortError'],
    ['a plain Error', new Error('boom'), 'Error'],
    ['a thrown string', 'boom', '_OTHER'],
    ['a thrown object', { reason: 'x' }, '_OTHER'],
  ])('reads error.type from %s', (_, error, type) => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onModelCall('run-1', modelCall());
    observer.onModelError('run-1', modelError(error));
    expect(spans()[0]?.attributes['error.type']).toBe(type);
    expect(spans()[0]?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('with recordContent, records a thrown non-Error only as describeValue renders it, never raw', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer, recordContent: true }));
    observer.onModelCall('run-1', modelCall());
    observer.onModelError('run-1', modelError(`secret\u202e${'x'.repeat(200)}`));
    const [span] = spans();
    expect(span?.status.message).toMatch(/^a non-Error value was thrown: "secret\\u202ex+\.\.\."$/);
    expect(recordedText(spans())).not.toContain('\u202e');
    expect(recordedText(spans())).not.toContain('x'.repeat(100));
  });
});

describe('otelObserver: a tool call', () => {
  it('is an INTERNAL span `execute_tool {name}` from onToolStart to onToolEnd', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onToolStart('run-1', toolStart());
    expect(spans()).toEqual([]);
    observer.onToolEnd('run-1', toolEnd());
    const [span, ...others] = spans();
    expect(others).toEqual([]);
    expect(span?.name).toBe('execute_tool get_weather');
    expect(span?.kind).toBe(SpanKind.INTERNAL);
    expect(span?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'tc-1',
      'gen_ai.tool.type': 'function',
      'conversation_memory.run.id': 'run-1',
    });
    expect(span?.status).toEqual({ code: SpanStatusCode.UNSET });
  });

  it('fails when the tool threw, rejected or was unknown (`error` set)', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer, recordContent: true }));
    observer.onToolStart('run-1', toolStart());
    const error = new TypeError('city is not a string');
    observer.onToolEnd(
      'run-1',
      toolEnd({
        output: 'Error: tool "get_weather" failed: TypeError: city is not a string',
        error,
      }),
    );
    const [span] = spans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'city is not a string' });
    expect(span?.attributes['error.type']).toBe('TypeError');
    expect(span?.events.map((event) => event.name)).toEqual(['exception']);
    // The conventions record a result only for a call that succeeded.
    expect(span?.attributes).not.toHaveProperty('gen_ai.tool.call.result');
  });

  it('matches an end to its start by run id and tool call id', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onToolStart('run-1', toolStart());
    observer.onToolStart('run-2', toolStart());
    observer.onToolEnd('run-2', toolEnd({ error: new Error('second run failed') }));
    expect(
      spans().map((span) => [span.attributes['conversation_memory.run.id'], span.status.code]),
    ).toEqual([['run-2', SpanStatusCode.ERROR]]);
    observer.onToolEnd('run-1', toolEnd());
    expect(
      spans().map((span) => [span.attributes['conversation_memory.run.id'], span.status.code]),
    ).toEqual([
      ['run-2', SpanStatusCode.ERROR],
      ['run-1', SpanStatusCode.UNSET],
    ]);
  });

  it('keeps run ids and tool call ids apart even when they contain the separator a join would use', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onToolStart('a:b', toolStart({ toolCallId: 'c' }));
    observer.onToolEnd('a', toolEnd({ toolCallId: 'b:c' }));
    observer.onToolEnd('a,b', toolEnd({ toolCallId: 'c' }));
    expect(spans()).toEqual([]);
    observer.onToolEnd('a:b', toolEnd({ toolCallId: 'c' }));
    expect(spans()).toHaveLength(1);
  });
});

describe('otelObserver: contents', () => {
  const conversation: Message[] = [
    system('Pinned rule'),
    user('What is the weather in Paris?'),
    assistant(null, call('tc-1', 'get_weather', { city: 'Paris' })),
    tool('{"celsius":18}', 'tc-1'),
  ];

  const runAll = (observer: Hooks): void => {
    observer.onModelCall('run-1', modelCall({ messages: conversation }));
    observer.onModelResult('run-1', modelResult());
    observer.onToolStart('run-1', toolStart());
    observer.onToolEnd('run-1', toolEnd());
    observer.onToolStart('run-1', toolStart({ toolCallId: 'tc-2' }));
    observer.onToolEnd('run-1', toolEnd({ toolCallId: 'tc-2', output: 'sunny' }));
  };

  it('records none by default: no content attribute, no message text anywhere', () => {
    const { tracer, spans } = sdk();
    runAll(hooksOf(otelObserver({ tracer })));
    expect(spans()).toHaveLength(3);
    for (const span of spans()) {
      for (const key of CONTENT_KEYS) expect(span.attributes).not.toHaveProperty(key);
    }
    const text = recordedText(spans());
    for (const secret of [
      'Paris',
      'Pinned rule',
      'travel assistant',
      'celsius',
      'sunny',
      '18 °C',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('records none by default for any messages, tools and results (property)', () => {
    // Every content string is wrapped in a marker that no attribute of ours contains.
    const marked = fc.string().map((s) => `⟦${s}⟧`);
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 6 }),
        marked,
        marked,
        marked,
        (messages, systemPrompt, reply, output) => {
          const markedMessages = messages.map((m) => ({ ...m, content: `⟦${m.content ?? ''}⟧` }));
          const { tracer, spans } = sdk();
          const observer = hooksOf(otelObserver({ tracer }));
          observer.onModelCall('run-1', modelCall({ systemPrompt, messages: markedMessages }));
          observer.onModelResult('run-1', modelResult({ message: assistant(reply) }));
          observer.onToolStart('run-1', toolStart({ input: { city: reply } }));
          observer.onToolEnd('run-1', toolEnd({ output }));
          expect(spans()).toHaveLength(2);
          expect(recordedText(spans())).not.toContain('⟦');
        },
      ),
    );
  });

  it('with recordContent, records them as the conventions JSON on the spans', () => {
    const { tracer, spans } = sdk();
    runAll(hooksOf(otelObserver({ tracer, recordContent: true })));
    const [model, firstTool, secondTool] = spans();
    const json = (value: unknown): unknown => JSON.parse(String(value));
    expect(json(model?.attributes['gen_ai.system_instructions'])).toEqual([
      { type: 'text', content: 'You are a travel assistant.' },
    ]);
    expect(json(model?.attributes['gen_ai.input.messages'])).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Pinned rule' }] },
      { role: 'user', parts: [{ type: 'text', content: 'What is the weather in Paris?' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'tool_call', id: 'tc-1', name: 'get_weather', arguments: { city: 'Paris' } },
        ],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: 'tc-1', response: '{"celsius":18}' }],
      },
    ]);
    expect(json(model?.attributes['gen_ai.tool.definitions'])).toEqual([
      { type: 'function', ...WEATHER_TOOL },
    ]);
    expect(json(model?.attributes['gen_ai.output.messages'])).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: 'It is 18 °C in Paris.' }],
        finish_reason: 'stop',
      },
    ]);
    expect(firstTool?.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Paris"}');
    // A result that is JSON text is kept as it is; other text becomes a JSON string.
    expect(firstTool?.attributes['gen_ai.tool.call.result']).toBe('{"city":"Paris","celsius":18}');
    expect(secondTool?.attributes['gen_ai.tool.call.result']).toBe('"sunny"');
  });

  it('with recordContent, writes a reply that asks for tools with finish_reason tool_call, and images as parts', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer, recordContent: true }));
    const withImages: Message = {
      role: 'user',
      content: 'ignored: parts are sent instead',
      contentParts: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', imageUrl: 'https://example.com/a.png' },
        { type: 'image_base64', imageBase64: 'AAAA', mediaType: 'image/png' },
        { type: 'audio' },
      ],
    };
    observer.onModelCall(
      'run-1',
      modelCall({ messages: [withImages], systemPrompt: '', tools: [] }),
    );
    observer.onModelResult(
      'run-1',
      modelResult({ message: assistant('Let me look.', call('tc-9', 'zoom')) }),
    );
    const [span] = spans();
    expect(span?.attributes).not.toHaveProperty('gen_ai.system_instructions');
    expect(span?.attributes).not.toHaveProperty('gen_ai.tool.definitions');
    expect(JSON.parse(String(span?.attributes['gen_ai.input.messages']))).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', content: 'What is this?' },
          { type: 'uri', modality: 'image', uri: 'https://example.com/a.png' },
          { type: 'blob', modality: 'image', mime_type: 'image/png', content: 'AAAA' },
          { type: 'audio' },
        ],
      },
    ]);
    expect(JSON.parse(String(span?.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: 'Let me look.' },
          { type: 'tool_call', id: 'tc-9', name: 'zoom', arguments: {} },
        ],
        finish_reason: 'tool_call',
      },
    ]);
  });

  it('with recordContent, writes any messages as the input schema: one entry per message, in order, text and calls kept (property)', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 8 }), (messages) => {
        const { tracer, spans } = sdk();
        const observer = hooksOf(otelObserver({ tracer, recordContent: true }));
        observer.onModelCall('run-1', modelCall({ messages }));
        observer.onModelError('run-1', modelError(new Error('x')));
        const written = JSON.parse(String(spans()[0]?.attributes['gen_ai.input.messages'])) as {
          role: string;
          parts: { type: string; [key: string]: unknown }[];
        }[];
        expect(written.map((m) => m.role)).toEqual(messages.map((m) => m.role));
        written.forEach((entry, index) => {
          const message = messages[index] as Message;
          for (const part of entry.parts) expect(typeof part.type).toBe('string');
          if (message.role === 'tool') {
            expect(entry.parts).toEqual([
              {
                type: 'tool_call_response',
                id: message.toolCallId ?? null,
                response: message.content ?? '',
              },
            ]);
            return;
          }
          const texts = entry.parts.filter((p) => p.type === 'text').map((p) => p.content);
          // The parts that are sent, or the content when none is.
          const sentParts = (message.contentParts ?? []).filter((p) =>
            p.type === 'text'
              ? p.text !== undefined
              : p.type === 'image_url'
                ? p.imageUrl !== undefined
                : p.type === 'image_base64'
                  ? p.imageBase64 !== undefined
                  : true,
          );
          const expectedTexts =
            sentParts.length > 0
              ? sentParts.filter((p) => p.type === 'text').map((p) => p.text)
              : message.content !== null && message.content !== ''
                ? [message.content]
                : [];
          expect(entry.parts.length).toBe(
            Math.max(sentParts.length, expectedTexts.length) +
              (message.imageBase64 !== undefined ? 1 : 0) +
              (message.toolCalls?.length ?? 0),
          );
          expect(texts).toEqual(expectedTexts);
          expect(entry.parts.filter((p) => p.type === 'tool_call')).toEqual(
            (message.toolCalls ?? []).map((c) => ({
              type: 'tool_call',
              id: c.id ?? null,
              name: c.name,
              arguments: c.parameters,
            })),
          );
        });
      }),
    );
  });
});

describe('otelObserver: no span left open, whatever the order of the hooks', () => {
  it('ignores an end with no open start: unknown ids, ends before starts, second ends', () => {
    const { spans, tracer: inner } = sdk();
    const { tracer, ends } = countingTracer(inner);
    // With recordContent, the status says which error ended the span.
    const observer = hooksOf(otelObserver({ tracer, recordContent: true }));
    observer.onModelResult('run-1', modelResult({ callId: 'never-started' }));
    observer.onModelError('run-1', modelError(new Error('x'), { callId: 'never-started' }));
    observer.onToolEnd('run-1', toolEnd({ toolCallId: 'never-started' }));
    expect(spans()).toEqual([]);
    expect(ends).toEqual([]);
    // An end that arrives before its start is dropped; the start then opens a span as usual.
    observer.onModelResult('run-1', modelResult());
    observer.onModelCall('run-1', modelCall());
    expect(spans()).toEqual([]);
    observer.onModelError('run-1', modelError(new Error('failed')));
    // A second end of the same call (after an error, or a result after an error) does nothing.
    observer.onModelResult('run-1', modelResult());
    observer.onModelError('run-1', modelError(new Error('again')));
    expect(spans().map((span) => span.status)).toEqual([
      { code: SpanStatusCode.ERROR, message: 'failed' },
    ]);
    expect(ends).toEqual([1]);
  });

  it('ends a span still open when another start reuses its id, marked failed', () => {
    const { tracer, spans } = sdk();
    const observer = hooksOf(otelObserver({ tracer }));
    observer.onModelCall('run-1', modelCall({ iteration: 1 }));
    observer.onModelCall('run-1', modelCall({ iteration: 2 }));
    expect(
      spans().map((span) => [
        span.attributes['conversation_memory.model_call.iteration'],
        span.status,
      ]),
    ).toEqual([
      [
        1,
        {
          code: SpanStatusCode.ERROR,
          message: 'no end was reported before another start with the same id',
        },
      ],
    ]);
    observer.onModelResult('run-1', modelResult({ iteration: 2 }));
    expect(
      spans().map((span) => span.attributes['conversation_memory.model_call.iteration']),
    ).toEqual([1, 2]);
  });

  /** A hook call on one of a few ids, for the model below (model calls ignore `run`). */
  interface Step {
    readonly hook: 'modelCall' | 'modelResult' | 'modelError' | 'toolStart' | 'toolEnd';
    readonly run: string;
    readonly id: string;
  }
  const stepArb: fc.Arbitrary<Step> = fc.record({
    hook: fc.constantFrom('modelCall', 'modelResult', 'modelError', 'toolStart', 'toolEnd'),
    run: fc.constantFrom('r1', 'r2'),
    id: fc.constantFrom('id1', 'id2', 'id3'),
  });

  it('ends every span at most once, and leaves open exactly the starts not yet ended (property)', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), (steps) => {
        const { tracer: inner, spans } = sdk();
        const { tracer, ends } = countingTracer(inner);
        const observer = hooksOf(otelObserver({ tracer }));
        const open = new Set<string>(); // the model: keys started and not ended
        for (const step of steps) {
          if (step.hook === 'modelCall') {
            observer.onModelCall(step.run, modelCall({ callId: step.id }));
            open.add(`m${step.id}`);
          } else if (step.hook === 'modelResult') {
            observer.onModelResult(step.run, modelResult({ callId: step.id }));
            open.delete(`m${step.id}`);
          } else if (step.hook === 'modelError') {
            observer.onModelError(step.run, modelError(new Error('x'), { callId: step.id }));
            open.delete(`m${step.id}`);
          } else if (step.hook === 'toolStart') {
            observer.onToolStart(step.run, toolStart({ toolCallId: step.id }));
            open.add(`t${step.run}/${step.id}`);
          } else {
            observer.onToolEnd(step.run, toolEnd({ toolCallId: step.id }));
            open.delete(`t${step.run}/${step.id}`);
          }
        }
        expect(ends.every((count) => count <= 1)).toBe(true);
        expect(ends.filter((count) => count === 0)).toHaveLength(open.size);
        expect(spans()).toHaveLength(ends.length - open.size);
      }),
    );
  });
});

describe('otelObserver: parents and providers', () => {
  afterEach(() => {
    trace.disable();
    context.disable();
    diag.disable();
  });

  /** A synchronous context manager (a stack), enough for `context.with` in one test. */
  const stackContextManager = (): ContextManager => {
    let current: Context = ROOT_CONTEXT;
    const manager: ContextManager = {
      active: () => current,
      with: (ctx, fn, thisArg, ...args) => {
        const previous = current;
        current = ctx;
        try {
          return fn.call(thisArg, ...args);
        } finally {
          current = previous;
        }
      },
      bind: (_ctx, target) => target,
      enable: () => manager,
      disable: () => manager,
    };
    return manager;
  };

  it("starts its spans under the active context's span (an invoke_agent span of the application's)", () => {
    const { tracer, spans } = sdk();
    context.setGlobalContextManager(stackContextManager());
    const observer = hooksOf(otelObserver({ tracer }));
    const runSpan: Span = tracer.startSpan('invoke_agent');
    context.with(trace.setSpan(context.active(), runSpan), () => {
      observer.onModelCall('run-1', modelCall());
      observer.onToolStart('run-1', toolStart());
    });
    observer.onToolEnd('run-1', toolEnd());
    observer.onModelResult('run-1', modelResult());
    runSpan.end();
    const byName = new Map(spans().map((span) => [span.name, span]));
    const parentId = byName.get('invoke_agent')?.spanContext().spanId;
    expect(parentId).toMatch(/^[0-9a-f]{16}$/);
    expect(byName.get('chat gpt-4o')?.parentSpanContext?.spanId).toBe(parentId);
    expect(byName.get('execute_tool get_weather')?.parentSpanContext?.spanId).toBe(parentId);
  });

  it('uses the global tracer provider when no tracer is given, even one registered after it was created', () => {
    const observer = hooksOf(otelObserver());
    const { provider, spans } = sdk();
    expect(trace.setGlobalTracerProvider(provider)).toBe(true);
    observer.onModelCall('run-1', modelCall());
    observer.onModelResult('run-1', modelResult());
    expect(spans().map((span) => [span.name, span.instrumentationScope.name])).toEqual([
      ['chat gpt-4o', OTEL_TRACER_NAME],
    ]);
  });

  it('with no tracer provider registered, records nothing and throws nothing', () => {
    const observer = hooksOf(otelObserver());
    expect(() => {
      observer.onModelCall('run-1', modelCall());
      observer.onModelResult('run-1', modelResult());
      observer.onToolStart('run-1', toolStart());
      observer.onToolEnd('run-1', toolEnd({ error: new Error('x') }));
    }).not.toThrow();
  });

  it('never throws into the agent: a failing tracer or a malformed info goes to the diag logger', () => {
    const logged: unknown[][] = [];
    diag.setLogger(
      {
        error: (...args) => logged.push(args),
        warn: () => undefined,
        info: () => undefined,
        debug: () => undefined,
        verbose: () => undefined,
      },
      DiagLogLevel.ERROR,
    );
    const broken: Tracer = {
      startSpan: () => {
        throw new Error('exporter down');
      },
      startActiveSpan: () => {
        throw new Error('exporter down');
      },
    };
    const observer = hooksOf(otelObserver({ tracer: broken }));
    expect(observer.onModelCall('run-1', modelCall())).toBeUndefined();
    expect(observer.onToolStart('run-1', toolStart())).toBeUndefined();
    const healthy = hooksOf(otelObserver({ tracer: sdk().tracer }));
    expect(healthy.onModelResult('run-1', undefined as unknown as ModelResultInfo)).toBeUndefined();
    expect(logged.map(([message]) => message)).toEqual([
      'conversation-memory otelObserver.onModelCall failed',
      'conversation-memory otelObserver.onToolStart failed',
      'conversation-memory otelObserver.onModelResult failed',
    ]);
    expect(logged.map(([, error]) => (error as Error).name)).toEqual([
      'Error',
      'Error',
      'TypeError',
    ]);
    expect(logged[0]?.[1]).toEqual(new Error('exporter down'));
  });
});

describe('otelObserver: options', () => {
  it.each([
    [5, 'options must be an object such as { recordContent: true }, received 5'],
    [null, 'options must be an object such as { recordContent: true }, received null'],
    [
      { tracer: {} },
      'options.tracer must be an OpenTelemetry Tracer (trace.getTracer(name)), received an object',
    ],
    [
      { tracer: 'my-app' },
      'options.tracer must be an OpenTelemetry Tracer (trace.getTracer(name)), received "my-app"',
    ],
    [{ recordContent: 'yes' }, 'options.recordContent must be a boolean, received "yes"'],
  ])('refuses %j with AgentConfigError naming the option and the value', (options, detail) => {
    let thrown: unknown;
    try {
      otelObserver(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AgentConfigError);
    expect((thrown as AgentConfigError).message).toBe(
      `[conversation-memory] otelObserver: ${detail}`,
    );
  });
});
