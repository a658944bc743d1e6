import { errorText } from '../util/errorText';
import { deepFreezeMessage } from '../model/freeze';
import type { Message } from '../model/message';

/** A counter as the registry holds it (the public type lives in `registry.ts`). */
type Counter = (message: Message) => number;

/**
 * The source text of every bound function, native function and Proxy of a function: it says
 * nothing about what the function does, so it never counts as the same source.
 */
const NATIVE_CODE = /\{\s*\[native code\]\s*\}\s*$/;

/** The built-in `Function.prototype.toString`, so a function's own `toString` cannot lie. */
const sourceText = (fn: Counter): string | undefined => {
  try {
    return Function.prototype.toString.call(fn);
  } catch {
    return undefined;
  }
};

/**
 * Canonical messages of every shape a counter meets: plain text, empty text, `null` content, tool
 * calls with parameters, content parts, a tool result. Two counters with the same source text that
 * disagree on one of them (closures over different values) are different tokenizers. Built on
 * first use, deeply frozen as the messages of a state are.
 */
const probes = (): readonly Message[] =>
  [
    { role: 'user', content: 'The quick brown fox jumps over the lazy dog, 42 times!' },
    { role: 'user', content: '' },
    {
      role: 'assistant',
      content: null,
      toolCalls: [
        { id: 'call_1', name: 'get_weather', parameters: { city: 'Paris', days: [1, 2] } },
      ],
    },
    {
      role: 'user',
      content: 'fallback text',
      contentParts: [
        { type: 'text', text: 'What breed is this cat?' },
        { type: 'image_url', imageUrl: 'https://example.com/cat.png' },
      ],
    },
    { role: 'tool', content: '{"temperature": 21}', toolCallId: 'call_1', toolName: 'get_weather' },
    { role: 'system', content: 'Ünïcödé テキスト 🦊\n\ttabs and  spaces' },
  ].map((message) => deepFreezeMessage(message as Message));

/** What a counter does with a probe: its result, or the text of what it threw. */
const outcome = (count: Counter, message: Message): unknown => {
  try {
    return count(message);
  } catch (error) {
    return `threw ${errorText(error)}`;
  }
};

/**
 * Whether a function registered again under a taken name is the tokenizer already registered: the
 * same function object, or another object from the same definition, as when a module that
 * registers its tokenizer is loaded twice (a test runner's `resetModules`, hot reload). The latter
 * must have the same source text, not the text of native code (every bound or native function
 * shows `function () { [native code] }`), and give the same result (or throw the same error) on
 * each of a fixed set of probe messages, which tells apart closures over different values.
 *
 * @param registered - the function registered under the name
 * @param candidate - the function registered again under it
 * @returns whether the candidate may take the registered function's place
 * @example
 * ```ts
 * const count = (m: Message) => (m.content ?? '').length;
 * isSameCounter(count, count.bind(null)); // false: a bound function's source is native code
 * ```
 * @internal
 */
export const isSameCounter = (registered: Counter, candidate: Counter): boolean => {
  if (registered === candidate) return true;
  const source = sourceText(registered);
  if (source === undefined || NATIVE_CODE.test(source) || source !== sourceText(candidate)) {
    return false;
  }
  return probes().every((probe) =>
    Object.is(outcome(registered, probe), outcome(candidate, probe)),
  );
};
