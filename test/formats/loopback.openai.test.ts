/**
 * The loopback Chat Completions server, driven by the real `openai` client: it answers like the
 * API, with a `chat.completion` the client accepts, or with a scripted raw body and status.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { rejection, send, useOpenAIServer, wireCall as call } from '../support/openaiHarness';

const start = useOpenAIServer();

/** The API error a call rejects with. */
const apiError = async (promise: Promise<unknown>) => {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
};

describe('loopback OpenAI server: replies', () => {
  it('answers a plain request with a deterministic chat.completion', async () => {
    const { client, server } = await start();
    const completion = await send(client, [{ role: 'user', content: 'hello' }]);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-test');
    expect(completion.choices[0]?.message).toMatchObject({
      role: 'assistant',
      content: 'Echo: hello',
      refusal: null,
    });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    expect(server.requests).toHaveLength(1);
  });

  it('answers scripted tool calls with ids, arguments as JSON text, and finish_reason tool_calls', async () => {
    const { client } = await start({
      respond: ({ index }) => ({
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'noop' },
        ],
        usage: { promptTokens: 11, completionTokens: 7 },
        ...(index > 0 ? { text: 'again' } : {}),
      }),
    });
    const completion = await send(client, [{ role: 'user', content: 'weather?' }]);
    expect(completion.choices[0]?.message.content).toBeNull();
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      call('call_a', 'get_weather', '{"city":"Paris"}'),
      call('call_0_1', 'noop'),
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 7,
      total_tokens: 18,
    });
  });

  it('answers with a raw body and status when the script asks for one', async () => {
    const { client } = await start({ respond: () => ({ raw: { choices: 'nope' } }) });
    const completion: unknown = await send(client, [{ role: 'user', content: 'hi' }]);
    expect(completion).toEqual({ choices: 'nope' });
    const busy = await start({
      respond: () => ({ raw: 'busy', status: 503, contentType: 'text/plain' }),
    });
    const error = await apiError(send(busy.client, [{ role: 'user', content: 'hi' }]));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error.status).toBe(503);
  });

  it("streams server-sent chunks that the client's own ChatCompletionStream assembles into the same message", async () => {
    const script = {
      text: 'Two calls coming.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'call_b', name: 'get_weather', arguments: { city: 'Rome, Italy' } },
      ],
      usage: { promptTokens: 9, completionTokens: 4 },
    };
    const { client, server } = await start({ respond: () => script });
    const plain = await send(client, [{ role: 'user', content: 'hi' }]);
    const stream = client.chat.completions.stream({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    stream.on('content', (delta) => pieces.push(delta));
    const final = await stream.finalChatCompletion();
    expect(pieces).toEqual(['Two ', 'calls ', 'coming.']);
    expect(final.choices[0]?.message).toMatchObject({
      content: plain.choices[0]?.message.content,
      tool_calls: plain.choices[0]?.message.tool_calls,
    });
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 4 });
    expect(server.requests[1]).toMatchObject({ stream: true });
  });

  it('checks a streaming request as any other: 400 JSON before any event', async () => {
    const { client, server } = await start();
    const error = await apiError(
      send(client, [{ role: 'tool', content: 'x', tool_call_id: 'nope' }], { stream: true }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(server.requests).toEqual([]);
    const options = await apiError(
      send(client, [{ role: 'user', content: 'hi' }], { stream_options: { include_usage: true } }),
    );
    expect(options.message).toBe(
      "400 The 'stream_options' parameter is only allowed when 'stream' is enabled.",
    );
  });

  it("answers 404 with OpenAI's text for any other route", async () => {
    const { client, server } = await start();
    const error = await apiError(client.models.list());
    expect(error.status).toBe(404);
    expect(error.message).toBe('404 Invalid URL (GET /v1/models)');
    expect(server.rejected.map((r) => r.status)).toEqual([404]);
  });
});
