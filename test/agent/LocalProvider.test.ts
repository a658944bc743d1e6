import { describe, expect, it } from 'vitest';
import { MemoryArgumentError, type Message } from 'conversation-memory';
import {
  LOCAL_CALL_DIRECTIVE,
  LOCAL_CHARS_PER_TOKEN,
  LOCAL_DEFAULT_MAX_TOKENS,
  LocalProvider,
} from 'conversation-memory/testing';
import type { CompletionRequest, ToolSpec } from 'conversation-memory';
import { assistant, call, system, tool, user } from '../helpers';

/** The agent's summary prompt (the reference's text), followed by the excerpt. */
const SUMMARY_PROMPT =
  'Summarize the following conversation excerpt in 2-3 sentences. Focus on key facts, ' +
  'decisions, and context that would be useful for continuing the conversation:\n\n';

const calc: ToolSpec = { name: 'calc', description: 'Adds', parameters: { type: 'object' } };
const search: ToolSpec = { name: 'search', description: 'Finds', parameters: {} };

const request = (
  messages: readonly Message[],
  extra: Partial<CompletionRequest> = {},
): CompletionRequest => ({ model: 'local-1', systemPrompt: '', messages, ...extra });

const summaryRequest = (excerpt: string, maxTokens?: number): CompletionRequest =>
  request([user(`${SUMMARY_PROMPT}${excerpt}`)], {
    systemPrompt: 'You are a concise summarizer.',
    ...(maxTokens === undefined ? {} : { maxTokens }),
  });

const reply = async (
  messages: readonly Message[],
  extra: Partial<CompletionRequest> = {},
  provider = new LocalProvider(),
): Promise<string | null> => (await provider.complete(request(messages, extra))).message.content;

/** Code points, as the provider counts characters. */
const chars = (text: string): number => Array.from(text).length;

describe('LocalProvider: construction', () => {
  it('is named local and defaults to local-1, or takes both from its options', () => {
    expect(new LocalProvider()).toMatchObject({ name: 'local', defaultModel: 'local-1' });
    expect(new LocalProvider({ name: 'demo', defaultModel: 'tiny' })).toMatchObject({
      name: 'demo',
      defaultModel: 'tiny',
    });
  });

  it('rejects an option that is not a non-empty string, naming it', () => {
    expect(() => new LocalProvider({ name: '' })).toThrow(
      'new LocalProvider: options.name must be a non-empty string, received ""',
    );
    expect(() => new LocalProvider({ defaultModel: 3 } as never)).toThrow(MemoryArgumentError);
    expect(() => new LocalProvider(null as never)).toThrow('options must be an object');
    const throwing = {
      get name(): never {
        throw new Error('nope');
      },
    };
    expect(() => new LocalProvider(throwing)).toThrow(
      'new LocalProvider: options.name could not be read: Error: nope',
    );
  });

  it('exports its directive and token constants', () => {
    expect([LOCAL_CALL_DIRECTIVE, LOCAL_CHARS_PER_TOKEN, LOCAL_DEFAULT_MAX_TOKENS]).toEqual([
      '/call',
      4,
      1024,
    ]);
  });
});

describe('LocalProvider rule 1: greeting', () => {
  it('greets when there are no messages, naming the model (the default model for "")', async () => {
    const greeting =
      'Hello! I am MODEL, a local model. Tell me "my name is …", ask "what is my name?", ' +
      'or call a tool with /call NAME {"key": "value"}.';
    expect(await reply([], { model: 'tiny' })).toBe(greeting.replace('MODEL', 'tiny'));
    expect(await reply([], { model: '' })).toBe(greeting.replace('MODEL', 'local-1'));
  });
});

describe('LocalProvider rule 2: summary', () => {
  const excerpt = [
    'USER: my name is Ada. I like tea.',
    'ASSISTANT: Nice to meet you, Ada!   How can I help?',
    'ASSISTANT: ',
    'TOOL: 4',
    'USER: is 2.5 more than 2? tell me',
    'SYSTEM: Be brief',
  ].join('\n');

  it('gives Role: first sentence for each message with content, in order', async () => {
    const { message } = await new LocalProvider().complete(summaryRequest(excerpt));
    expect(message).toEqual({
      role: 'assistant',
      content:
        'User: my name is Ada. Assistant: Nice to meet you, Ada! Tool: 4. ' +
        'User: is 2.5 more than 2? System: Be brief.',
    });
  });

  it('recognises the request by its prompt, whatever the system prompt', async () => {
    const plain = request([user(`${SUMMARY_PROMPT}USER: hello`)]);
    expect((await new LocalProvider().complete(plain)).message.content).toBe('User: hello.');
  });

  it('joins continuation lines to the message above and squashes white space', async () => {
    const multiLine = 'USER: first line\nsecond\tline? yes\nASSISTANT:ok';
    const { message } = await new LocalProvider().complete(summaryRequest(multiLine));
    expect(message.content).toBe('User: first line second line? Assistant: ok.');
  });

  it('clips each clause to 120 characters', async () => {
    const { message } = await new LocalProvider().complete(
      summaryRequest(`USER: ${'word '.repeat(60)}\nASSISTANT: done`),
    );
    const [first, second] = (message.content ?? '').split('… ');
    expect(chars(`${first ?? ''}…`)).toBe(120);
    expect(second).toBe('Assistant: done.');
  });

  it('caps the whole summary at maxTokens × 4 characters', async () => {
    const result = await new LocalProvider().complete(summaryRequest(excerpt, 5));
    expect(result.message.content).toBe('User: my name is Ad…');
    expect(result.usage?.outputTokens).toBe(5);
  });

  it('is the same for the same request, on any instance', async () => {
    const a = await new LocalProvider().complete(summaryRequest(excerpt));
    const provider = new LocalProvider();
    await provider.complete(request([user('/call calc')], { tools: [calc] }));
    expect(await provider.complete(summaryRequest(excerpt))).toEqual(a);
  });

  it('is empty when the excerpt has no content', async () => {
    for (const empty of ['ASSISTANT: \nASSISTANT:', '', '  \n\t']) {
      const { message, usage } = await new LocalProvider().complete(summaryRequest(empty));
      expect(message).toEqual({ role: 'assistant', content: '' });
      expect(usage?.outputTokens).toBe(0);
    }
    const noExcerpt = request([user('Summarize the following conversation excerpt, please')]);
    expect((await new LocalProvider().complete(noExcerpt)).message.content).toBe('');
  });
});

describe('LocalProvider rule 3: tool results', () => {
  it('reports one result', async () => {
    const messages = [user('/call calc {}'), assistant(null, call('call_1')), tool('4', 'call_1')];
    expect(await reply(messages, { tools: [calc] })).toBe('calc returned 4.');
  });

  it('reports several results in the order of their calls, unmatched ones last', async () => {
    const messages: Message[] = [
      user('go'),
      assistant(null, call('a', 'calc'), call('b', 'search')),
      { role: 'tool', content: 'found   it\nthere', toolCallId: 'b' },
      { role: 'tool', content: 'orphan', toolCallId: 'zz', toolName: 'other' },
      { role: 'tool', content: ' ', toolCallId: 'a', toolName: 'calc' },
      { role: 'tool', content: null, toolCallId: 'x', toolResult: 'Done!' },
    ];
    expect(await reply(messages)).toBe(
      'calc returned nothing. search returned found it there. other returned orphan. ' +
        'tool returned Done!',
    );
  });

  it('reports instead of calling again when the prompt above holds a directive', async () => {
    const provider = new LocalProvider();
    const first = await provider.complete(request([user('/call calc {"a":1}')], { tools: [calc] }));
    const messages = [user('/call calc {"a":1}'), first.message, tool('1', 'call_1')];
    expect(await reply(messages, { tools: [calc] }, provider)).toBe('calc returned 1.');
  });

  it('clips each result to 200 characters', async () => {
    const text = await reply([tool('x'.repeat(300))]);
    expect(text).toBe(`calc returned ${'x'.repeat(199)}…`);
  });
});

describe('LocalProvider rule 4: tool directives', () => {
  it('calls one tool with the JSON object of the directive', async () => {
    const provider = new LocalProvider();
    const result = await provider.complete(
      request([user('please\n/call calc {"a": 2, "b": 2}')], { tools: [calc] }),
    );
    expect(result.message).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'call_1', name: 'calc', parameters: { a: 2, b: 2 } }],
    });
    expect(Object.isFrozen(result.message)).toBe(true);
  });

  it('calls several tools in one message, one per line, ids counting on', async () => {
    const provider = new LocalProvider();
    const lines = '/call calc {"a":1}\n  /call search {"q": "cats"}\r\n/call calc';
    const first = await provider.complete(request([user(lines)], { tools: [calc, search] }));
    expect(first.message.toolCalls).toEqual([
      { id: 'call_1', name: 'calc', parameters: { a: 1 } },
      { id: 'call_2', name: 'search', parameters: { q: 'cats' } },
      { id: 'call_3', name: 'calc', parameters: {} },
    ]);
    const again = await provider.complete(request([user(lines)], { tools: [calc, search] }));
    expect(again.message.toolCalls?.map((c) => c.id)).toEqual(['call_4', 'call_5', 'call_6']);
    // The same request gives the same calls apart from their ids.
    const withoutIds = (m: Message) =>
      m.toolCalls?.map(({ name, parameters }) => [name, parameters]);
    expect(withoutIds(again.message)).toEqual(withoutIds(first.message));
  });

  it('skips ids already used in the request', async () => {
    const messages = [
      user('x'),
      assistant(null, call('call_1')),
      tool('1', 'call_2'),
      assistant('ok'),
      user('/call calc'),
    ];
    const result = await new LocalProvider().complete(request(messages, { tools: [calc] }));
    expect(result.message.toolCalls?.[0]?.id).toBe('call_3');
  });

  it('explains a tool that is not offered, and calls nothing', async () => {
    expect(await reply([user('/call nope {}')], { tools: [calc, search] })).toBe(
      'Cannot call "nope": it is not a tool of this request (offered: calc, search).',
    );
    expect(await reply([user('/call calc')])).toBe(
      'Cannot call "calc": it is not a tool of this request (no tools were offered).',
    );
  });

  it('explains arguments that are not a JSON object', async () => {
    const lines = [
      '/call calc {oops',
      '/call calc [1, 2]',
      '/call calc null',
      `/call calc ${'{"a":'.repeat(201)}1${'}'.repeat(201)}`,
      '/call',
      '/call calc {"fine": true}',
    ].join('\n');
    const result = await new LocalProvider().complete(request([user(lines)], { tools: [calc] }));
    expect(result.message.toolCalls).toBeUndefined();
    expect(result.message.content).toBe(
      [
        'Cannot call "calc": its arguments are not valid JSON ({oops).',
        'Cannot call "calc": its arguments must be a JSON object, not an array.',
        'Cannot call "calc": its arguments must be a JSON object, not null.',
        'Cannot call "calc": its arguments are nested deeper than 200 levels.',
        'Cannot call a tool: write /call NAME {"key": "value"}.',
      ].join(' '),
    );
  });

  it('answers in text when the calls would not fit in maxTokens', async () => {
    const result = await new LocalProvider().complete(
      request([user(`/call calc {"text": "${'x'.repeat(100)}"}`)], {
        tools: [calc],
        maxTokens: 20,
      }),
    );
    expect(result.message.content).toBe(
      'Cannot call calc: the calls need 29 tokens, more than maxTokens (20).',
    );
    const clipped = await new LocalProvider().complete(
      request([user(`/call calc {"text": "${'x'.repeat(100)}"}`)], { tools: [calc], maxTokens: 5 }),
    );
    expect(clipped.message.content).toBe('Cannot call calc: t…');
    expect(clipped.usage?.outputTokens).toBe(5);
  });

  it('only reads directives from the last message when it is a user message', async () => {
    const text = await reply([user('/call calc'), assistant('no')], { tools: [calc] });
    expect(text).toBe('I can see 1 earlier message.');
  });
});

describe('LocalProvider rules 5 and 6: the user name', () => {
  it('remembers a name stated earlier in the conversation', async () => {
    const messages = [
      user('hi, my name is Ada Lovelace and I count'),
      assistant('Nice to meet you.'),
      user("What's my name?"),
    ];
    expect(await reply(messages)).toBe('Your name is Ada Lovelace.');
  });

  it('takes the most recent name, from user and system messages only', async () => {
    const messages = [
      user('My name is Ada.'),
      user('Actually, my name is grace; call me that'),
      assistant('my name is Bot'),
      user('what is my name'),
    ];
    expect(await reply(messages)).toBe('Your name is grace.');
  });

  it('finds the name in the summary system message the agent injects', async () => {
    const messages = [
      system("[Conversation Summary] The user's name is Ada. They asked about tea."),
      user('do you remember my name?'),
    ];
    expect(await reply(messages)).toBe('Your name is Ada.');
  });

  it('finds the name again in its own summary, once injected', async () => {
    const provider = new LocalProvider();
    const summary = await provider.complete(summaryRequest('USER: my name is Ada.\nASSISTANT: Hi'));
    const messages = [
      system(`[Conversation Summary] ${summary.message.content ?? ''}`),
      user('Who am I?'),
    ];
    expect(await reply(messages, {}, provider)).toBe('Your name is Ada.');
  });

  it('says when it does not know the name', async () => {
    expect(await reply([user('hello'), user('whats my name')])).toBe(
      'I don\'t know your name yet. Tell me with "my name is …".',
    );
  });

  it('greets a name stated in the prompt', async () => {
    expect(await reply([user('Hello! My name is Ada.')])).toBe('Nice to meet you, Ada.');
  });
});

describe('LocalProvider rule 7: the default reply', () => {
  it('quotes the prompt and counts the messages before it', async () => {
    expect(await reply([user('hello\n  there')])).toBe(
      'You said: "hello there". I can see 0 earlier messages.',
    );
    expect(await reply([user('a'), assistant('b'), user('c')])).toBe(
      'You said: "c". I can see 2 earlier messages.',
    );
  });

  it('mentions the summary when one is injected', async () => {
    const messages = [system('[Conversation Summary] User: likes tea.'), user('hi')];
    expect(await reply(messages)).toBe(
      'You said: "hi". I can see 1 earlier message. Summary: User: likes tea.',
    );
  });

  it('clips the quote to 80 characters', async () => {
    expect(await reply([user('y'.repeat(100))])).toBe(
      `You said: "${'y'.repeat(79)}…". I can see 0 earlier messages.`,
    );
  });

  it('reads the text parts of a multimodal prompt', async () => {
    const image: Message = {
      role: 'user',
      content: null,
      contentParts: [
        { type: 'text', text: 'look' },
        { type: 'image_url', imageUrl: 'https://example.com/a.png' },
      ],
    };
    expect(await reply([image])).toBe('You said: "look". I can see 0 earlier messages.');
  });
});

describe('LocalProvider: tokens', () => {
  it('counts input and output at 4 characters (code points) per token, rounded up', async () => {
    const messages: Message[] = [
      user('hello 😀'), // 7
      assistant('', call('c1', 'calc', { a: 1 })), // 'calc' + '{"a":1}' = 11
      tool('2', 'c1'), // 1
      user('ok'), // 2
    ];
    const result = await new LocalProvider().complete(
      request(messages, { systemPrompt: 'abcd', tools: [calc] }), // 4 + 4 + 5 + 17
    );
    expect(result.usage?.inputTokens).toBe(Math.ceil((7 + 11 + 1 + 2 + 4 + 4 + 5 + 17) / 4));
    const content = result.message.content ?? '';
    expect(content).toBe('You said: "ok". I can see 3 earlier messages.');
    expect(result.usage?.outputTokens).toBe(Math.ceil(chars(content) / 4));
  });

  it('counts tool calls by name and JSON parameters', async () => {
    const result = await new LocalProvider().complete(
      request([user('/call calc {"a": 22}')], { tools: [calc] }),
    );
    expect(result.usage?.outputTokens).toBe(Math.ceil(('calc' + '{"a":22}').length / 4));
  });

  it('clips every reply to maxTokens × 4 characters', async () => {
    const text = await reply([user('hello')], { maxTokens: 1 });
    expect(text).toBe('You…');
  });
});
