/**
 * Deterministic conversation fixtures for the benchmark: a fixed-seed pseudo-random generator
 * and a generator of realistic agent turns (user questions, assistant replies, assistant messages
 * that request one to three tool calls, and the matching tool results). Every text is 50–600
 * characters of plain words and punctuation (BMP only, so `.length` equals the code-point count
 * the reference's `len()` sees).
 */
import type { Message, ToolCall } from '../src/entries/index';

/** mulberry32: a tiny, fast, fixed-seed generator; the same seed always gives the same sequence. */
export const createRandom = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const WORDS = (
  'the a an of to in for on with at by from about into over after before between under ' +
  'weather forecast temperature city flight hotel booking train ticket price budget itinerary ' +
  'museum restaurant dinner lunch breakfast reservation table window seat luggage passport ' +
  'visa airport station schedule delay refund policy customer account order invoice payment ' +
  'shipping address delivery tracking package warehouse inventory product review rating ' +
  'search result summary report analysis dataset query function error exception stack trace ' +
  'deploy server request response latency timeout retry cache memory token limit window ' +
  'message conversation context history assistant user tool call result answer question ' +
  'please could would should will can may might must need want like know think check find ' +
  'show tell give send book cancel change update compare explain list recommend suggest ' +
  'tomorrow today tonight morning evening weekend monday friday next last first second ' +
  'cheap expensive fast slow quiet busy sunny cloudy rainy warm cold humid windy clear ' +
  'Paris Kyōto Lisbon Berlin Montréal Zürich São Paulo Oslo Nairobi Seoul Lima Cairo'
).split(' ');

const TOOLS = ['get_weather', 'search_flights', 'lookup_order', 'web_search', 'run_sql'] as const;

/** Words until the text reaches a length drawn from [min, max], then trimmed to it. */
const sentenceText = (random: () => number, min: number, max: number): string => {
  const target = min + Math.floor(random() * (max - min + 1));
  let text = '';
  let capitalize = true;
  while (text.length < target) {
    let word = WORDS[Math.floor(random() * WORDS.length)] ?? 'token';
    if (capitalize) word = word.charAt(0).toUpperCase() + word.slice(1);
    capitalize = false;
    const roll = random();
    const punctuation = roll < 0.08 ? '.' : roll < 0.14 ? ',' : roll < 0.16 ? '?' : '';
    if (punctuation === '.' || punctuation === '?') capitalize = true;
    text += (text === '' ? '' : ' ') + word + punctuation;
  }
  return text.slice(0, target).trimEnd().padEnd(min, '.');
};

const toolCall = (random: () => number, id: string): ToolCall => {
  const name = TOOLS[Math.floor(random() * TOOLS.length)] ?? 'web_search';
  return {
    id,
    name,
    parameters: {
      query: sentenceText(random, 10, 60),
      limit: 1 + Math.floor(random() * 20),
      strict: random() < 0.5,
    },
  };
};

/** A tool result: either JSON-looking data or a prose snippet, 50–600 characters. */
const toolResultText = (random: () => number): string => {
  if (random() < 0.5) return sentenceText(random, 50, 600);
  const fields: string[] = [];
  const target = 50 + Math.floor(random() * 500);
  let json = '';
  while (json.length < target) {
    const key = WORDS[Math.floor(random() * WORDS.length)] ?? 'key';
    const value =
      random() < 0.5
        ? `${Math.floor(random() * 10_000) / 100}`
        : `"${sentenceText(random, 5, 40)}"`;
    fields.push(`"${key}":${value}`);
    json = `{${fields.join(',')}}`;
  }
  return json.slice(0, 600);
};

/**
 * A deterministic conversation of at least `count` messages, as plain objects (what an agent receives
 * from a provider): about 60% of turns are plain question/answer, 40% go through 1–3 tool calls.
 * Whole turns only: it starts with a user message and ends with an assistant answer, so it may
 * hold a few more than `count` messages, and cycling through it keeps every turn well formed.
 */
export const generateConversation = (count: number, seed = 20261130): Message[] => {
  const random = createRandom(seed);
  const messages: Message[] = [];
  let callId = 0;
  while (messages.length < count) {
    messages.push({ role: 'user', content: sentenceText(random, 50, 300) });
    if (random() < 0.4) {
      const calls: ToolCall[] = [];
      const n = 1 + Math.floor(random() * 3);
      for (let k = 0; k < n; k++) calls.push(toolCall(random, `call_${++callId}`));
      messages.push({
        role: 'assistant',
        content: sentenceText(random, 50, 150),
        toolCalls: calls,
      });
      for (const call of calls) {
        messages.push({
          role: 'tool',
          content: toolResultText(random),
          toolCallId: call.id ?? '',
          toolName: call.name,
        });
      }
    }
    messages.push({ role: 'assistant', content: sentenceText(random, 50, 600) });
  }
  return messages;
};
