import { ProviderResponseError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';

type Fields = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A tool call being assembled from its fragments. */
interface CallDraft {
  id?: string;
  name: string;
  arguments: string;
}

/**
 * Assembles the `chat.completion.chunk` objects of a streamed Chat Completions call into the
 * `chat.completion` object the same call would have returned without streaming, so that both are
 * read by the same decoder. Only choice 0 is kept (the adapter asks for one): its content and
 * refusal pieces are joined (an empty content beside tool calls or a refusal is `null`, as without
 * streaming), its tool calls assembled by `index` (the `id`, `type` and name from
 * the fragment that gives them, the arguments joined in order), its `finish_reason` kept; the
 * `usage` is the last non-null one (the extra chunk of `stream_options.include_usage`). A chunk
 * that is not of that shape is a `ProviderResponseError` naming the chunk, the path and the value.
 *
 * @example
 * ```ts
 * const assembly = new ChunkAssembly('openai', 'openaiProvider.stream');
 * assembly.add({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] }); // 'Hi'
 * assembly.completion(); // { choices: [{ message: { role: 'assistant', content: 'Hi', … } }] }
 * ```
 * @internal
 */
export class ChunkAssembly {
  private content: string | null = null;
  private refusal: string | null = null;
  private readonly calls: CallDraft[] = [];
  private finishReason: string | null = null;
  private sawChoice = false;
  private usage: unknown = null;
  private count = 0;

  constructor(
    private readonly name: string,
    private readonly api: string,
  ) {}

  /** Whether a choice chunk gave a `finish_reason` (a stream without one was cut short). */
  get finished(): boolean {
    return this.finishReason !== null;
  }

  private bad(path: string, expected: string, value: unknown): ProviderResponseError {
    return new ProviderResponseError(
      this.api,
      `the ${this.name} stream's chunk ${this.count} is not a chat.completion.chunk: ${path}: expected ${expected}, got ${describeValue(value)}`,
    );
  }

  /**
   * Adds one chunk.
   *
   * @param chunk - the chunk as the client parsed it
   * @returns the text it adds to the content (`''` for none)
   * @throws ProviderResponseError when the chunk is not of the expected shape
   */
  add(chunk: unknown): string {
    this.count += 1;
    if (!isObject(chunk)) throw this.bad('(root)', 'an object', chunk);
    const { choices, usage } = chunk;
    if (usage !== undefined && usage !== null) this.usage = usage;
    if (!Array.isArray(choices)) throw this.bad('choices', 'an array', choices);
    let text = '';
    for (const [i, choice] of (choices as readonly unknown[]).entries()) {
      if (!isObject(choice)) throw this.bad(`choices[${i}]`, 'an object', choice);
      if (choice['index'] !== 0 && choice['index'] !== undefined) continue;
      text += this.addChoice(choice, `choices[${i}]`);
    }
    return text;
  }

  private addChoice(choice: Fields, path: string): string {
    this.sawChoice = true;
    const { delta, finish_reason: finish } = choice;
    if (finish !== undefined && finish !== null) {
      if (typeof finish !== 'string')
        throw this.bad(`${path}.finish_reason`, 'a string or null', finish);
      this.finishReason = finish;
    }
    if (delta === undefined || delta === null) return '';
    if (!isObject(delta)) throw this.bad(`${path}.delta`, 'an object', delta);
    const text = this.optionalString(delta['content'], `${path}.delta.content`);
    if (text !== undefined) this.content = (this.content ?? '') + text;
    const refusal = this.optionalString(delta['refusal'], `${path}.delta.refusal`);
    if (refusal !== undefined) this.refusal = (this.refusal ?? '') + refusal;
    const calls = delta['tool_calls'];
    if (calls !== undefined && calls !== null) {
      if (!Array.isArray(calls)) throw this.bad(`${path}.delta.tool_calls`, 'an array', calls);
      for (const [j, call] of (calls as readonly unknown[]).entries()) {
        this.addCall(call, `${path}.delta.tool_calls[${j}]`);
      }
    }
    return text ?? '';
  }

  private optionalString(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw this.bad(path, 'a string or null', value);
    return value;
  }

  private addCall(call: unknown, path: string): void {
    if (!isObject(call)) throw this.bad(path, 'an object', call);
    const index = call['index'];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 127) {
      throw this.bad(`${path}.index`, 'a whole number from 0 to 127', index);
    }
    const draft = (this.calls[index] ??= { name: '', arguments: '' });
    const id = this.optionalString(call['id'], `${path}.id`);
    if (id !== undefined) draft.id = id;
    const fn = call['function'];
    if (fn === undefined || fn === null) return;
    if (!isObject(fn)) throw this.bad(`${path}.function`, 'an object', fn);
    const name = this.optionalString(fn['name'], `${path}.function.name`);
    if (name !== undefined) draft.name = name;
    const args = this.optionalString(fn['arguments'], `${path}.function.arguments`);
    if (args !== undefined) draft.arguments += args;
  }

  /**
   * The `chat.completion` object the chunks make (`choices: []` when no chunk had choice 0).
   *
   * @returns the object to decode
   */
  completion(): Record<string, unknown> {
    const toolCalls = this.calls.flatMap((call) =>
      call === undefined
        ? []
        : [
            {
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            },
          ],
    );
    // Servers open a stream with `content: ''` even for a reply that is only tool calls or a
    // refusal, which the same call without streaming returns with `content: null`.
    const empty = this.content === '' && (toolCalls.length > 0 || this.refusal !== null);
    const message = {
      role: 'assistant',
      content: empty ? null : this.content,
      refusal: this.refusal,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    return {
      object: 'chat.completion',
      choices: this.sawChoice ? [{ index: 0, message, finish_reason: this.finishReason }] : [],
      usage: this.usage,
    };
  }
}
