/**
 * The streaming replies of the loopback Chat Completions server: a `chat.completion` cut into the
 * `chat.completion.chunk` objects OpenAI streams for it (server-sent events `data: {chunk}`, then
 * `data: [DONE]`), as the `openai` client's `Stream` and `ChatCompletionStream` read them.
 *
 * The first chunk gives the role (and `content: ''`, or `null` when the reply has none; `refusal`
 * likewise); the text follows word by word; each tool call
 * starts with a chunk holding its `index`, `id`, `type` and `function.name` (arguments `''`), and
 * its arguments follow in pieces of at most 8 characters, the pieces of parallel calls interleaved
 * (as assembling them by `index` must cope with); the last choice chunk has an empty delta and the
 * `finish_reason`. With `stream_options.include_usage`, every chunk has `usage: null` and one more
 * chunk, with `choices: []`, carries the usage.
 */

type Completion = Record<string, unknown>;

interface WireToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** `text` in pieces of one word each, with the white space after it. */
const words = (text: string): string[] =>
  text.match(/^\s*\S+\s*|\S+\s*/g) ?? (text === '' ? [] : [text]);

/** `text` in pieces of `size` UTF-16 units, never cutting a surrogate pair. */
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
  if (current !== '') out.push(current);
  return out;
};

/**
 * The chunks of a completion built by `completionFor` (choice 0 only).
 *
 * @param completion - the `chat.completion` object to stream
 * @param includeUsage - whether the request asked for `stream_options.include_usage`
 * @returns the chunk objects, in order (without the `[DONE]` line)
 */
export const chunksFor = (completion: Completion, includeUsage: boolean): Completion[] => {
  const choice = (completion['choices'] as Completion[])[0] as Completion;
  const message = choice['message'] as Completion;
  const content = message['content'] as string | null;
  const refusal = message['refusal'] as string | null;
  const toolCalls = (message['tool_calls'] as WireToolCall[] | undefined) ?? [];
  const base = {
    id: completion['id'],
    object: 'chat.completion.chunk',
    created: completion['created'],
    model: completion['model'],
    service_tier: completion['service_tier'],
    system_fingerprint: completion['system_fingerprint'],
    ...(includeUsage ? { usage: null } : {}),
  };
  const chunk = (delta: Completion, finishReason: unknown = null): Completion => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks: Completion[] = [
    chunk({
      role: 'assistant',
      content: content === null ? null : '',
      refusal: refusal === null ? null : '',
    }),
  ];
  for (const word of words(content ?? '')) chunks.push(chunk({ content: word }));
  for (const piece of pieces(refusal ?? '', 8)) chunks.push(chunk({ refusal: piece }));
  toolCalls.forEach((call, index) => {
    const start = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: '' },
    };
    chunks.push(chunk({ tool_calls: [start] }));
  });
  const fragments = toolCalls.map((call) => pieces(call.function.arguments, 8));
  const longest = Math.max(0, ...fragments.map((list) => list.length));
  for (let step = 0; step < longest; step++) {
    fragments.forEach((list, index) => {
      const fragment = list[step];
      if (fragment !== undefined) {
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
      }
    });
  }
  chunks.push(chunk({}, choice['finish_reason']));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: completion['usage'] });
  return chunks;
};
