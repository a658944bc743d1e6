/**
 * The streaming conformance suite every provider adapter runs (`openaiProvider`,
 * `anthropicProvider`, `aiSdkProvider` over each of its providers): the same cases against the
 * adapter's real client and the loopback server speaking that provider's server-sent events, so
 * the adapters cannot drift apart on what `stream(request)` promises:
 *
 * - text arrives as several `text-delta` parts that join to the text, then one `finish` whose
 *   result is what `complete` returns for the same reply, and nothing after it;
 * - usage reported by the server (cache reads and writes too) is the finish result's `usage`;
 * - parallel tool calls (streamed as deltas of their JSON arguments) become one complete
 *   `tool-call` part each, in order, then the finish `complete` gives;
 * - an abort mid-stream ends the iteration with the signal's reason, and nothing after;
 * - an error the server sends mid-stream ends the iteration with an `Error` that keeps the
 *   server's message (the client's own; `ProviderResponseError` for the AI SDK, which passes the
 *   provider's JSON on as it is), after the text that came before it.
 *
 * What is particular to one adapter (a refusal, a provider's 400, replies of the wrong shape, the
 * request it sends) stays in that adapter's own test file.
 */
import { describe, expect, it } from 'vitest';
import type { CompletionStreamPart, Provider } from 'conversation-memory';
import { user } from '../helpers';
import { rejection, request, weather } from './providerRequests';

/** One tool call a scripted reply makes. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** What the loopback server answers, in the words of no provider in particular. */
export interface StreamScript {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedCall[];
  /** The usage the server reports, cache counts included (its own way: see streamingSubjects). */
  readonly usage?: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cachedInputTokens?: number;
    readonly cacheWriteTokens?: number;
  };
  /** The server waits for `until` before it sends the text delta of this index (0-based). */
  readonly holdBeforeDelta?: { readonly index: number; readonly until: Promise<void> };
  /** The server sends its provider's error event, with this message, after the first delta. */
  readonly failAfterFirstDelta?: string;
}

/** An adapter under test. */
export interface StreamingSubject {
  /** A provider whose loopback server answers every request as `script` says. */
  readonly start: (script: StreamScript) => Promise<Provider>;
  /** True for the error the adapter ends a stream with when the server sends an error event. */
  readonly isServerError: (error: unknown) => boolean;
  /** Whether the provider reports cache writes (Anthropic does; OpenAI never says). */
  readonly reportsCacheWrites: boolean;
}

const streamOf = (provider: Provider) => {
  const { stream } = provider;
  if (stream === undefined) throw new Error('the provider does not stream');
  return stream;
};

const collect = async (parts: AsyncIterable<CompletionStreamPart>) => {
  const all: CompletionStreamPart[] = [];
  for await (const part of parts) all.push(part);
  return all;
};

const deltas = (parts: readonly CompletionStreamPart[]) =>
  parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : []));

/** Streams and completes the same scripted reply. */
const streamAndComplete = async (subject: StreamingSubject, script: StreamScript) => {
  const provider = await subject.start(script);
  const asked = request([user('Weather in Paris and Rome?')], { tools: [weather] });
  const streamed = await collect(streamOf(provider)(asked));
  const completed = await provider.complete(asked);
  return { streamed, completed };
};

/** Runs the suite for one adapter, as a `describe` block named `name`. */
export const describeProviderStreaming = (name: string, subject: StreamingSubject): void => {
  describe(`${name}: streaming conformance`, () => {
    it('text deltas join to the text, then one finish with what complete returns', async () => {
      const text = 'Hello there, how are you today?';
      const { streamed, completed } = await streamAndComplete(subject, { text });
      expect(deltas(streamed).join('')).toBe(text);
      expect(deltas(streamed).length).toBeGreaterThan(1);
      expect(streamed.filter((part) => part.type === 'finish')).toHaveLength(1);
      expect(streamed.at(-1)).toEqual({ type: 'finish', result: completed });
      expect(completed.message).toEqual({ role: 'assistant', content: text });
    });

    it("the server's usage, cache counts included, is the finish result's usage", async () => {
      // inputTokens counts every input token, cached or not, whatever the provider's own words.
      const sent = {
        inputTokens: 1500,
        cachedInputTokens: 1024,
        cacheWriteTokens: 300,
        outputTokens: 6,
      };
      const { cacheWriteTokens, ...withoutWrites } = sent;
      const usage = subject.reportsCacheWrites ? sent : withoutWrites;
      expect(cacheWriteTokens).toBe(300);
      const { streamed, completed } = await streamAndComplete(subject, {
        text: 'Hi.',
        usage: sent,
      });
      expect(completed.usage).toEqual(usage);
      const finish = streamed.at(-1);
      expect(finish?.type === 'finish' && finish.result.usage).toEqual(usage);
    });

    it('tool-call deltas become one complete tool-call part per call, in order', async () => {
      // Long, nested and non-ASCII arguments arrive in several fragments each.
      const toolCalls: ScriptedCall[] = [
        {
          id: 'call_paris',
          name: 'get_weather',
          input: { city: 'Paris', note: 'a long argument' },
        },
        { id: 'call_lyon', name: 'get_weather', input: { city: 'Lyon 🌧', days: [1, 2, 3] } },
      ];
      const text = 'Checking both.';
      const { streamed, completed } = await streamAndComplete(subject, { text, toolCalls });
      expect(streamed.filter((part) => part.type === 'tool-call')).toEqual(
        toolCalls.map(({ id, name, input }) => ({
          type: 'tool-call',
          toolCallId: id,
          toolName: name,
          input,
        })),
      );
      expect(deltas(streamed).join('')).toBe(text);
      expect(streamed.at(-1)).toEqual({ type: 'finish', result: completed });
      expect(completed.message.toolCalls?.map((call) => call.id)).toEqual([
        'call_paris',
        'call_lyon',
      ]);
    });

    it('an abort mid-stream ends the iteration with the signal reason, and nothing after', async () => {
      let release: () => void = () => undefined;
      const until = new Promise<void>((resolve) => (release = resolve));
      const provider = await subject.start({
        text: 'one two three four five',
        holdBeforeDelta: { index: 2, until },
      });
      const controller = new AbortController();
      const reason = new Error('user pressed stop');
      const parts = streamOf(provider)(request([user('count')], { signal: controller.signal }));
      const iterator = parts[Symbol.asyncIterator]();
      expect(await iterator.next()).toEqual({
        done: false,
        value: { type: 'text-delta', text: 'one ' },
      });
      expect(await iterator.next()).toEqual({
        done: false,
        value: { type: 'text-delta', text: 'two ' },
      });
      const third = iterator.next();
      controller.abort(reason);
      release();
      await expect(third).rejects.toBe(reason);
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });

    it('an error the server sends mid-stream ends it with an Error, after the text before it', async () => {
      const provider = await subject.start({
        text: 'one two three',
        failAfterFirstDelta: 'the model is overloaded',
      });
      const seen: CompletionStreamPart[] = [];
      const error = await rejection(
        (async () => {
          for await (const part of streamOf(provider)(request([user('count')]))) seen.push(part);
        })(),
      );
      expect(error).toBeInstanceOf(Error);
      expect(subject.isServerError(error)).toBe(true);
      expect((error as Error).message).toMatch(/the model is overloaded/);
      expect(deltas(seen)).toEqual(['one ']);
      expect(seen.some((part) => part.type === 'finish')).toBe(false);
    });
  });
};
