import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMessage, createMemory, messageText, type Message } from 'conversation-memory';
import { LOCAL_DEFAULT_MAX_TOKENS, LocalProvider } from 'conversation-memory';
import type { CompletionRequest, ToolSpec } from 'conversation-memory';
import { messageArb, parametersArb } from './arbitraries/message';
import { identifierArb, textArb } from './arbitraries/text';

/** Code points, as the provider counts characters. */
const chars = (text: string): number => Array.from(text).length;

/** What the provider counts for a message: its text, each call's name and JSON parameters. */
const messageChars = (message: Message): number =>
  chars(messageText(message)) +
  (message.toolCalls ?? []).reduce(
    (sum, call) => sum + chars(call.name) + chars(JSON.stringify(call.parameters)),
    0,
  );

const toolNameArb = fc.oneof(
  { arbitrary: fc.constantFrom('calc', 'search'), weight: 4 },
  { arbitrary: identifierArb, weight: 1 },
);

const toolArb: fc.Arbitrary<ToolSpec> = fc.record({
  name: toolNameArb,
  description: textArb,
  parameters: parametersArb,
});

const calcSpec: ToolSpec = { name: 'calc', description: 'Adds', parameters: { type: 'object' } };

/** A `/call` line: a known or unknown tool, with no args, a JSON object, bad JSON or an array. */
const directiveArb: fc.Arbitrary<string> = fc
  .tuple(
    toolNameArb,
    fc.oneof(
      { arbitrary: fc.constant(''), weight: 2 },
      { arbitrary: parametersArb.map((p) => JSON.stringify(p)), weight: 4 },
      { arbitrary: fc.constantFrom('{oops', '[1, 2]', 'null'), weight: 1 },
    ),
  )
  .map(([name, args]) => `/call ${name} ${args}`);

/** A user prompt of valid calls to calc only. */
const callsPromptArb: fc.Arbitrary<Message> = fc
  .array(parametersArb, { minLength: 1, maxLength: 3 })
  .map((params) => ({
    role: 'user',
    content: params.map((p) => `/call calc ${JSON.stringify(p)}`).join('\n'),
  }));

/** A user prompt mixing directives, text, and now and then the summary prompt. */
const mixedPromptArb: fc.Arbitrary<Message> = fc
  .tuple(
    fc.constantFrom('', 'Summarize the following conversation excerpt in 2-3 sentences.\n\n'),
    fc.array(
      fc.oneof(
        { arbitrary: directiveArb, weight: 3 },
        { arbitrary: textArb, weight: 2 },
        { arbitrary: fc.constant('USER: my name is Ada.'), weight: 1 },
      ),
      { maxLength: 4 },
    ),
  )
  .map(([start, lines]) => ({ role: 'user', content: `${start}${lines.join('\n')}` }));

const promptArb: fc.Arbitrary<Message> = fc.oneof(
  { arbitrary: mixedPromptArb, weight: 3 },
  { arbitrary: callsPromptArb, weight: 1 },
);

const requestArb: fc.Arbitrary<CompletionRequest> = fc
  .record({
    model: fc.constantFrom('', 'local-1'),
    systemPrompt: textArb,
    messages: fc
      .tuple(fc.array(messageArb, { maxLength: 6 }), fc.option(promptArb, { nil: undefined }))
      .map(([history, prompt]) => (prompt === undefined ? history : [...history, prompt])),
    maxTokens: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined, freq: 2 }),
    // Half the requests offer calc, so that directives often name an offered tool.
    tools: fc
      .tuple(fc.boolean(), fc.array(toolArb, { maxLength: 2 }))
      .map(([withCalc, tools]) => (withCalc ? [calcSpec, ...tools] : tools)),
  })
  .map(({ maxTokens, ...rest }) => (maxTokens === undefined ? rest : { ...rest, maxTokens }));

const idsIn = (messages: readonly Message[]): Set<string | undefined> =>
  new Set(messages.flatMap((m) => [m.toolCallId, ...(m.toolCalls ?? []).map((c) => c.id)]));

describe('LocalProvider (property)', () => {
  it('answers any valid request with a valid assistant message within maxTokens', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const provider = new LocalProvider();
        const { message, usage } = await provider.complete(request);
        const maxTokens = request.maxTokens ?? LOCAL_DEFAULT_MAX_TOKENS;
        // A valid message: the library admits it as it is.
        expect(addMessage(createMemory(), message).state.messages).toEqual([message]);
        expect(message.role).toBe('assistant');
        const output = messageChars(message);
        expect(usage?.outputTokens).toBe(Math.ceil(output / 4));
        expect(usage?.outputTokens).toBeLessThanOrEqual(maxTokens);
        const input =
          chars(request.systemPrompt) +
          request.messages.reduce((sum, m) => sum + messageChars(m), 0) +
          (request.tools ?? []).reduce(
            (sum, t) =>
              sum + chars(t.name) + chars(t.description) + chars(JSON.stringify(t.parameters)),
            0,
          );
        expect(usage?.inputTokens).toBe(Math.ceil(input / 4));
        const calls = message.toolCalls ?? [];
        if (calls.length > 0) {
          expect(message.content).toBeNull();
          const names = new Set((request.tools ?? []).map((t) => t.name));
          const used = idsIn(request.messages);
          for (const call of calls) {
            expect(names.has(call.name)).toBe(true);
            expect(call.id).toMatch(/^call_\d+$/);
            expect(used.has(call.id)).toBe(false);
          }
          expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
        }
        // Deterministic: a fresh instance gives the same answer, ids included.
        expect(await new LocalProvider().complete(request)).toEqual({ message, usage });
      }),
    );
  });
});
