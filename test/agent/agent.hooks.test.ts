/**
 * Hooks for model and tool calls (issue #16 §4): `onModelCall` with the request as sent (the
 * model view), `onModelResult` with the reply, usage and latency, `onModelError`, `onToolStart`
 * and `onToolEnd`, each with the run id; observers never change what is sent and their failures
 * go to `config.onError`. And the OpenTelemetry observer, end to end on a real run.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  type AgentErrorContext,
  type AgentObserver,
  type AgentTool,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { otelObserver } from 'conversation-memory/otel';
import { scriptedProvider } from '../support/scriptedProvider';

const calc: AgentTool = {
  name: 'calc',
  description: 'Adds',
  parameters: { type: 'object' },
  execute: ({ a, b }) => Number(a) + Number(b),
};
const broken: AgentTool = {
  name: 'broken',
  description: 'Fails',
  parameters: { type: 'object' },
  execute: () => {
    throw new Error('disk full');
  },
};

/** Records every hook, in order, as `[event, runId, info]`. */
const recorder = () => {
  const events: [string, string, Record<string, unknown>][] = [];
  const record =
    (name: string) =>
    (runId: string, info: Record<string, unknown>): void =>
      void events.push([name, runId, info]);
  const observer: AgentObserver = {
    onModelCall: record('modelCall') as never,
    onModelResult: record('modelResult') as never,
    onModelError: record('modelError') as never,
    onToolStart: record('toolStart') as never,
    onToolEnd: record('toolEnd') as never,
  };
  return { events, observer };
};

describe('model and tool call hooks', () => {
  it('report each call as sent, its result, usage and latency, and each tool with its outcome', async () => {
    const { events, observer } = recorder();
    const provider = new LocalProvider();
    const agent = createAgent({
      provider,
      tools: [calc, broken],
      memory: new ConversationMemory({ maxMessages: 20, tokenizer: 'heuristic' }),
      observers: [observer],
    });
    const result = await agent.run('/call calc {"a": 2, "b": 3}\n/call broken {}', { runId: 'r1' });
    expect(events.map(([name]) => name)).toEqual([
      'modelCall',
      'modelResult',
      'toolStart',
      'toolEnd',
      'toolStart',
      'toolEnd',
      'modelCall',
      'modelResult',
    ]);
    expect(events.every(([, runId]) => runId === 'r1')).toBe(true);
    const [, , call] = events[0] as [string, string, Record<string, unknown>];
    expect(call).toMatchObject({
      kind: 'main',
      provider: 'local',
      model: 'local-1',
      iteration: 1,
      streaming: false,
      tools: [
        expect.objectContaining({ name: 'calc' }),
        expect.objectContaining({ name: 'broken' }),
      ],
      messages: [{ role: 'user', content: '/call calc {"a": 2, "b": 3}\n/call broken {}' }],
    });
    const [, , reply] = events[1] as [string, string, Record<string, unknown>];
    expect(reply).toMatchObject({ callId: call['callId'], kind: 'main', iteration: 1 });
    expect(reply['usage']).toMatchObject({
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
    });
    expect(reply['latencyMs']).toBeGreaterThanOrEqual(0);
    expect(events[2]?.[2]).toEqual({
      toolCallId: 'call_1',
      toolName: 'calc',
      input: { a: 2, b: 3 },
    });
    expect(events[3]?.[2]).toMatchObject({ toolCallId: 'call_1', toolName: 'calc', output: '5' });
    expect(events[3]?.[2]).not.toHaveProperty('error');
    expect(events[5]?.[2]).toMatchObject({
      toolName: 'broken',
      output: 'Error: tool "broken" failed: Error: disk full',
      error: new Error('disk full'),
    });
    // The second call's messages are exactly what the provider received.
    expect(events[6]?.[2]['messages']).toHaveLength(4);
    // The reply as the provider gave it; the run's message (as kept) records the call's usage.
    const reported = events[7]?.[2] as { message: object; usage: object };
    expect({ ...reported.message, metadata: { usage: reported.usage } }).toEqual(result.message);
  });

  it('report a failed call to onModelError; a throwing hook goes to onError and changes nothing', async () => {
    const errors: [unknown, AgentErrorContext][] = [];
    const { events, observer } = recorder();
    const provider = scriptedProvider(() => {
      throw new Error('503 overloaded');
    });
    const agent = createAgent({
      provider,
      observers: [
        {
          onModelCall: (_, call) => {
            (call.messages as unknown[]).length = 0;
          },
        },
        observer,
      ],
      config: { onError: (error, context) => void errors.push([error, context]) },
    });
    await expect(agent.run('hi', { runId: 'r2' })).rejects.toThrow('503 overloaded');
    expect(events.map(([name]) => name)).toEqual(['modelCall', 'modelError']);
    expect(events[1]?.[2]).toMatchObject({ kind: 'main', error: new Error('503 overloaded') });
    // The observer that tried to empty the request could not: the view it saw is frozen or a
    // copy, and the provider received the message.
    expect(provider.requests[0]?.messages).toHaveLength(1);
    expect(errors.map(([, context]) => context)).toEqual([
      { runId: 'r2', source: 'observer', event: 'onModelCall' },
    ]);
  });

  it('report a reply that is not a valid message to onModelError, as the run rejects', async () => {
    const { events, observer } = recorder();
    const provider = scriptedProvider(() => ({ role: 'robot', content: 'beep' }) as never);
    await expect(createAgent({ provider, observers: [observer] }).run('hi')).rejects.toThrow(
      'the reply is not a valid message',
    );
    expect(events.map(([name]) => name)).toEqual(['modelCall', 'modelError']);
    expect(String(events[1]?.[2]['error'])).toContain('message.role must be one of');
  });

  it('report summary calls as kind "summary"', async () => {
    const { events, observer } = recorder();
    const agent = createAgent({
      provider: new LocalProvider(),
      memory: new ConversationMemory({ maxMessages: 2, tokenizer: 'heuristic' }),
      observers: [observer],
      config: { summarizeOnTrim: true },
    });
    await agent.run('my name is Ann');
    await agent.run('what is my name?');
    const kinds = events.filter(([name]) => name === 'modelCall').map(([, , info]) => info['kind']);
    expect(kinds).toContain('summary');
    expect(kinds.filter((kind) => kind === 'main')).toHaveLength(2);
  });
});

describe('otelObserver on a real run', () => {
  it('emits a chat span per model call and an execute_tool span per tool call', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const agent = createAgent({
      provider: new LocalProvider(),
      tools: [calc],
      observers: [otelObserver({ tracer: tracerProvider.getTracer('test') })],
    });
    await agent.run('/call calc {"a": 1, "b": 1}');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'chat local-1',
      'execute_tool calc',
      'chat local-1',
    ]);
    expect(spans[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'local-1',
      'gen_ai.usage.input_tokens': expect.any(Number),
    });
    expect(spans[1]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'calc',
      'gen_ai.tool.call.id': 'call_1',
    });
  });
});
