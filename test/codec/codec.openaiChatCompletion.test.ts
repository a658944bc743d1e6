/**
 * `fromOpenAIChatCompletion`: the first choice's message, its finish reason and the usage of a
 * `chat.completion` object; bad replies are a `Left` naming the path and the value.
 */
import { describe, expect, it } from 'vitest';
import { fromAnthropicReply, ProviderResponseError } from 'conversation-memory';
import { fromOpenAIChatCompletion } from 'conversation-memory';

const completion = (message: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message, finish_reason: 'stop', logprobs: null }],
  ...extra,
});

describe('fromOpenAIChatCompletion', () => {
  it('reads the message, the finish reason and the usage, ignoring what it does not need', () => {
    const input = completion(
      { role: 'assistant', content: 'Hi!', refusal: null, annotations: [], audio: null },
      {
        usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
        service_tier: 'default',
      },
    );
    expect(fromOpenAIChatCompletion(input)).toEqual({
      _tag: 'Right',
      right: {
        message: { role: 'assistant', content: 'Hi!' },
        finishReason: 'stop',
        usage: { inputTokens: 9, outputTokens: 2 },
      },
    });
  });

  it('reads only the first choice, and an empty reply as content null without usage', () => {
    const input = {
      choices: [
        { message: { role: 'assistant', content: null }, finish_reason: 'content_filter' },
        { message: 'second choices are not read' },
      ],
      usage: null,
    };
    expect(fromOpenAIChatCompletion(input)).toEqual({
      _tag: 'Right',
      right: { message: { role: 'assistant', content: null }, finishReason: 'content_filter' },
    });
  });

  it('lists every problem of a bad reply with its path', () => {
    const result = fromOpenAIChatCompletion({
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
              { id: 7, type: 'function', function: { name: 'g', arguments: '"text"' } },
            ],
          },
          finish_reason: 3,
        },
      ],
      usage: { prompt_tokens: 1.5, completion_tokens: 2 },
    });
    expect(result._tag).toBe('Left');
    if (result._tag === 'Right') return;
    expect(result.left).toBeInstanceOf(ProviderResponseError);
    expect(result.left.message).toMatch(
      /^\[conversation-memory\] fromOpenAIChatCompletion: the reply is not a valid chat\.completion: choices\[0\]/,
    );
    expect(result.left.problems).toEqual([
      'choices[0].message.tool_calls[1].id: expected string, got 7',
      'choices[0].message.tool_calls[1].function.arguments: expected a JSON object string, got "\\"text\\""',
      'choices[0].finish_reason: expected string or null, got 3',
      'usage.prompt_tokens: expected an integer from 0 to 2^53 − 1, got 1.5',
    ]);
  });

  it('never throws on a reply whose getters throw', () => {
    const input = completion({ role: 'assistant', content: 'x' });
    Object.defineProperty(input, 'choices', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    const result = fromOpenAIChatCompletion(input);
    expect(result._tag === 'Left' && result.left.problems).toEqual([
      '(root): could not read the input: Error: boom',
    ]);
  });

  it('returns the same result and error types as fromAnthropicReply', () => {
    const openai = fromOpenAIChatCompletion(
      completion(
        { role: 'assistant', content: 'Hi' },
        { usage: { prompt_tokens: 3, completion_tokens: 1 } },
      ),
    );
    const anthropic = fromAnthropicReply({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hi' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 3, output_tokens: 1 },
    });
    expect(openai._tag === 'Right' && Object.keys(openai.right).sort()).toEqual(
      anthropic._tag === 'Right' && Object.keys(anthropic.right).sort(),
    );
    expect(anthropic._tag === 'Right' && anthropic.right.finishReason).toBe('end_turn');
    const badOpenAI = fromOpenAIChatCompletion({ choices: [] });
    const badAnthropic = fromAnthropicReply({ type: 'message', role: 'assistant', content: 7 });
    for (const bad of [badOpenAI, badAnthropic]) {
      expect(bad._tag === 'Left' && bad.left).toBeInstanceOf(ProviderResponseError);
      expect(bad._tag === 'Left' && bad.left.problems.length).toBe(1);
    }
  });
});
