/**
 * Random `CompletionRequest`s for `LocalProvider`: histories of any messages, then now and then a
 * prompt of `/call` directives (to offered tools or not), text, or the summary prompt.
 */
import fc from 'fast-check';
import type { CompletionRequest, Message, ToolSpec } from 'conversation-memory';
import { messageArb, parametersArb } from './message';
import { identifierArb, textArb } from './text';

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

export const requestArb: fc.Arbitrary<CompletionRequest> = fc
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
