/**
 * The streaming replies of the loopback Anthropic server: a Message object cut into the
 * server-sent events the Messages API streams for it, as `@anthropic-ai/sdk`'s `MessageStream`
 * (and `@ai-sdk/anthropic`) read them:
 *
 * `message_start` (the message with empty `content`, `stop_reason: null`, the input tokens and
 * `output_tokens: 1`), a `ping`, then per content block `content_block_start` (a text block with
 * `text: ''`, a tool_use block with `input: {}`), its deltas (`text_delta` word by word;
 * `input_json_delta` with the input's JSON in pieces of at most 8 characters) and
 * `content_block_stop`; then `message_delta` (the `stop_reason` and the final `output_tokens`) and
 * `message_stop`. Each event is `event: NAME\ndata: {JSON with the same type}\n\n`.
 *
 * Test support only: it is not part of the library.
 */

type Block = Record<string, unknown>;

/** One server-sent event: its name (also its data's `type`) and its data. */
export interface StreamEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

const words = (text: string): string[] =>
  text.match(/^\s*\S+\s*|\S+\s*/g) ?? (text === '' ? [] : [text]);

/** `text` in pieces of at most `size` UTF-16 units, never cutting a surrogate pair. */
const pieces = (text: string, size: number): string[] => {
  const out: string[] = [];
  let current = '';
  for (const char of text) {
    if (current.length + char.length > size && current !== '') {
      out.push(current);
      current = '';
    }
    current += char;
  }
  return current === '' ? out : [...out, current];
};

const event = (data: Record<string, unknown> & { type: string }): StreamEvent => ({
  event: data.type,
  data,
});

/**
 * The events of a Message object built by `buildMessage`.
 *
 * @param message - the message to stream
 * @returns the events, in order
 */
export const eventsFor = (message: Record<string, unknown>): StreamEvent[] => {
  const content = message['content'] as Block[];
  const usage = message['usage'] as Record<string, unknown>;
  const events: StreamEvent[] = [
    event({
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    event({ type: 'ping' }),
  ];
  content.forEach((block, index) => {
    if (block['type'] === 'text') {
      events.push(
        event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
      );
      for (const text of words(String(block['text']))) {
        events.push(
          event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }),
        );
      }
    } else {
      events.push(
        event({ type: 'content_block_start', index, content_block: { ...block, input: {} } }),
      );
      const json = JSON.stringify(block['input'] ?? {});
      for (const partial_json of ['', ...pieces(json, 8)]) {
        events.push(
          event({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json },
          }),
        );
      }
    }
    events.push(event({ type: 'content_block_stop', index }));
  });
  events.push(
    event({
      type: 'message_delta',
      delta: { stop_reason: message['stop_reason'], stop_sequence: null },
      usage: { output_tokens: usage['output_tokens'] },
    }),
    event({ type: 'message_stop' }),
  );
  return events;
};
