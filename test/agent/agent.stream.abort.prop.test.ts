/**
 * An abort while `agent.stream` streams a reply (issue #27 §11): once the signal has fired, the
 * stream yields no more text, whatever the provider still has (LocalProvider stops at once; a
 * provider that ignores the signal keeps yielding); memory keeps exactly the text the reader was
 * given, marked `metadata.interrupted: true`; and the next call sends it to the model with
 * ` [interrupted]` appended (`config.markInterrupted`, on by default), memory unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  type AgentStreamEvent,
  type CompletionRequest,
  type CompletionStreamPart,
  type Message,
  type Provider,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';

/** Words that trigger none of LocalProvider's rules but its echo (`You said: "…"`). */
const promptArb = fc
  .array(fc.stringMatching(/^[bcdfgh][a-z]{0,6}$/), { minLength: 1, maxLength: 12 })
  .map((words) => words.join(' '));

/** LocalProvider, with every request it received. */
const recordingLocal = (): Provider & { requests: CompletionRequest[] } => {
  const local = new LocalProvider();
  const requests: CompletionRequest[] = [];
  return {
    name: local.name,
    defaultModel: local.defaultModel,
    requests,
    complete: (request) => {
      requests.push(request);
      return local.complete(request);
    },
    stream: (request) => {
      requests.push(request);
      return local.stream(request);
    },
  };
};

/** LocalProvider's reply, streamed by a provider that never reads the signal (all of it). */
const deafProvider = (): Provider & { requests: CompletionRequest[] } => {
  const local = new LocalProvider();
  const requests: CompletionRequest[] = [];
  return {
    name: 'deaf',
    defaultModel: 'deaf-1',
    requests,
    complete: (request) => {
      requests.push(request);
      return local.complete(request);
    },
    async *stream(request): AsyncIterable<CompletionStreamPart> {
      requests.push(request);
      // A signal that never fires in place of the run's: the abort is never seen.
      yield* local.stream({ ...request, signal: new AbortController().signal });
    },
  };
};

/** What a reader saw of one streamed run, aborting (by signal or by leaving) after `at` deltas. */
const readUntil = async (
  events: (signal: AbortSignal) => AsyncIterable<AgentStreamEvent>,
  at: number,
  how: 'signal' | 'break',
): Promise<{ before: string[]; after: AgentStreamEvent[]; thrown: unknown }> => {
  const controller = new AbortController();
  const before: string[] = [];
  const after: AgentStreamEvent[] = [];
  let thrown: unknown;
  try {
    for await (const event of events(controller.signal)) {
      if (controller.signal.aborted) {
        after.push(event);
        continue;
      }
      if (event.type !== 'text-delta') continue;
      before.push(event.text);
      if (before.length === at) {
        if (how === 'break') break;
        controller.abort(new Error('user pressed stop'));
      }
    }
  } catch (error) {
    thrown = error;
  }
  return { before, after, thrown };
};

/** Waits until `check` holds (a run that was left finishes on its own). */
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('agent.stream aborted mid-reply (property)', () => {
  it('yields no text after the abort; memory keeps exactly what the reader was given, marked', async () => {
    await fc.assert(
      fc.asyncProperty(
        promptArb,
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom('signal', 'break') as fc.Arbitrary<'signal' | 'break'>,
        fc.constantFrom('local', 'deaf'),
        async (prompt, wanted, how, kind) => {
          const provider = kind === 'local' ? recordingLocal() : deafProvider();
          const memory = new ConversationMemory({ maxMessages: 50, tokenizer: 'heuristic' });
          const agent = createAgent({ provider, memory });
          const reply = (
            await new LocalProvider().complete({
              model: '',
              systemPrompt: '',
              messages: [{ role: 'user', content: prompt }],
            })
          ).message.content as string;
          const words = reply.match(/^\s*\S+\s*|\S+\s*/g) ?? [];
          // Stop after a delta that is not the last: the reply is then cut short.
          const at = 1 + (wanted % Math.max(1, words.length - 1));
          fc.pre(at < words.length);
          const seen = await readUntil((signal) => agent.stream(prompt, { signal }), at, how);
          expect(seen.before).toEqual(words.slice(0, at));
          expect(seen.after.filter((event) => event.type === 'text-delta')).toEqual([]);
          if (how === 'signal') expect(String(seen.thrown)).toContain('user pressed stop');
          await until(() => memory.getHistory().length === 2);
          expect(memory.getHistory()).toEqual([
            { role: 'user', content: prompt },
            { role: 'assistant', content: seen.before.join(''), metadata: { interrupted: true } },
          ]);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('the next call sends the interrupted reply with " [interrupted]"; memory keeps it unmarked; markInterrupted: false sends it as it is', async () => {
    await fc.assert(
      fc.asyncProperty(
        promptArb,
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(undefined, true, false),
        async (prompt, wanted, markInterrupted) => {
          const provider = recordingLocal();
          const memory = new ConversationMemory({ maxMessages: 50, tokenizer: 'heuristic' });
          const agent = createAgent({
            provider,
            memory,
            ...(markInterrupted === undefined ? {} : { config: { markInterrupted } }),
          });
          const seen = await readUntil(
            (signal) => agent.stream(prompt, { signal }),
            1 + (wanted % 3),
            'signal',
          );
          fc.pre(seen.thrown !== undefined);
          const shown = seen.before.join('');
          await agent.run('go on');
          const sent = provider.requests.at(-1)?.messages ?? [];
          const expected = markInterrupted === false ? shown : `${shown.trimEnd()} [interrupted]`;
          expect(sent.map((m: Message) => [m.role, m.content])).toEqual([
            ['user', prompt],
            ['assistant', expected],
            ['user', 'go on'],
          ]);
          expect(memory.getHistory()[1]).toEqual({
            role: 'assistant',
            content: shown,
            metadata: { interrupted: true },
          });
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('agent.stream reads a provider no faster than its reader', () => {
  it('a streamed reply is at most one delta ahead of the reader', async () => {
    let pulled = 0;
    const words = Array.from({ length: 20 }, (_, i) => `w${i} `);
    const provider: Provider = {
      name: 'counting',
      defaultModel: 'counting-1',
      complete: async () => ({ message: { role: 'assistant', content: words.join('') } }),
      async *stream() {
        for (const text of words) {
          pulled += 1;
          yield { type: 'text-delta', text };
        }
        yield {
          type: 'finish',
          result: { message: { role: 'assistant', content: words.join('') } },
        };
      },
    };
    const agent = createAgent({ provider });
    let read = 0;
    for await (const event of agent.stream('count')) {
      if (event.type !== 'text-delta') continue;
      read += 1;
      // A slow reader: the provider does not run on meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(pulled).toBeLessThanOrEqual(read + 1);
    }
    expect(read).toBe(words.length);
  });
});

describe('config.markInterrupted', () => {
  it('is checked: a boolean, default true', () => {
    expect(() =>
      createAgent({ provider: new LocalProvider(), config: { markInterrupted: 'yes' as never } }),
    ).toThrow(/createAgent: config.markInterrupted must be true or false, received "yes"/);
  });

  it('marks an interrupted reply with content parts by a last text part, and leaves other messages as they are', async () => {
    const provider = recordingLocal();
    const memory = new ConversationMemory({ maxMessages: 50, tokenizer: 'heuristic' });
    memory.addMany([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: 'ignored',
        contentParts: [{ type: 'text', text: 'Half a' }],
        metadata: { interrupted: true },
      },
      { role: 'user', content: 'and?' },
      { role: 'assistant', content: 'A whole reply.', metadata: { interrupted: false } },
    ]);
    const agent = createAgent({ provider, memory });
    await agent.run('ok');
    const sent = provider.requests.at(-1)?.messages ?? [];
    expect(sent[1]?.contentParts).toEqual([
      { type: 'text', text: 'Half a' },
      { type: 'text', text: '[interrupted]' },
    ]);
    expect(sent[3]?.content).toBe('A whole reply.');
    expect(memory.getHistory()[1]?.contentParts).toEqual([{ type: 'text', text: 'Half a' }]);
  });
});
