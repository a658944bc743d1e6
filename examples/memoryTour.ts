/**
 * A tour of the memory alone: a short scripted agent conversation (a question, an assistant turn with two
 * tool calls, their two results, the answer, then more turns) in a small memory, so that every
 * trimming rule fires. After each step it prints the window, compactly, and every trim effect:
 * its reason, which rule removed how many (the breakdown), and what left.
 *
 * It uses the object API (`ConversationMemory`): a thin runtime over the pure reducers that
 * holds the current immutable state and tells subscribers what each change did.
 */
import assert from 'node:assert/strict';
import {
  assistantMessage,
  ConversationMemory,
  systemMessage,
  toolMessage,
  userMessage,
  type Message,
} from 'conversation-memory';

const MAX_MESSAGES = 6;
const MAX_TOKENS = 90;

const clip = (text: string, width: number): string =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text;

const TAG = { system: 'S', user: 'U', assistant: 'A', tool: 'T' } as const;

/** One message, compactly: `U"What's the…"`, `A→get_weather×2`, `T(call_1)"Paris: 18°C…"`. */
const compact = (m: Message, width = 12): string => {
  if (m.toolCalls !== undefined) {
    const names = [...new Set(m.toolCalls.map((c) => c.name))].join('+');
    return `A→${names}×${m.toolCalls.length}`;
  }
  const origin = m.role === 'tool' ? `(${m.toolCallId ?? '?'})` : '';
  return `${TAG[m.role]}${origin}"${clip(m.content ?? '', width)}"`;
};
const windowOf = (messages: readonly Message[]): string =>
  messages.map((m) => compact(m)).join(' ');

const script: Message[] = [
  systemMessage('You are a concise travel assistant.'),
  userMessage("What's the weather in Paris and in Kyōto this weekend?"),
  assistantMessage('', [
    { id: 'call_1', name: 'get_weather', parameters: { city: 'Paris' } },
    { id: 'call_2', name: 'get_weather', parameters: { city: 'Kyoto', units: 'metric' } },
  ]),
  toolMessage('Paris: 18°C, cloudy', { toolCallId: 'call_1', toolName: 'get_weather' }),
  toolMessage('Kyoto: 24°C, sunny', { toolCallId: 'call_2', toolName: 'get_weather' }),
  assistantMessage('Paris will be 18°C and cloudy; Kyoto 24°C and sunny.'),
  userMessage('Which one is better for a day of hiking?'),
  assistantMessage('Kyoto: sunny and warm, and the Higashiyama trail starts in the city.'),
  userMessage('Great. Find me a flight from Paris to Osaka on Friday, economy, morning departure.'),
  assistantMessage('', [
    { id: 'call_3', name: 'search_flights', parameters: { from: 'CDG', to: 'KIX', day: 'Friday' } },
  ]),
  toolMessage('AF292 08:40 → 06:55+1, €742; LH2229 07:05 via FRA, €688', {
    toolCallId: 'call_3',
    toolName: 'search_flights',
  }),
  assistantMessage('Lufthansa via Frankfurt is cheapest at €688; Air France is direct for €742.'),
  userMessage('Direct, please.'),
];

const memory = new ConversationMemory({ maxMessages: MAX_MESSAGES, maxTokens: MAX_TOKENS });
console.log(`${String(memory)}, tokenizer ${memory.state.config.tokenizer}`);
console.log('S system · U user · A assistant (A→tool calls) · T(call id) tool result\n');

// The runtime tells subscribers what each change did: here, print every trim.
const totals = { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 0 };
const unsubscribe = memory.subscribe((effects) => {
  for (const effect of effects) {
    if (effect.type !== 'memory/trimmed') continue;
    const rules =
      effect.reason === 'enforce_limits'
        ? Object.entries(effect.breakdown)
            .filter(([, n]) => n > 0)
            .map(([rule, n]) => `${rule} ${n}`)
            .join(', ')
        : 'all';
    console.log(
      `      ✂ ${effect.reason} (${rules}) -${effect.removedTokens} tok:` +
        ` ${windowOf(effect.removed)}`,
    );
    if (effect.reason === 'enforce_limits') {
      totals.messageLimit += effect.breakdown.messageLimit;
      totals.tokenLimit += effect.breakdown.tokenLimit;
      totals.toolPairBoundary += effect.breakdown.toolPairBoundary;
    }
  }
});

script.forEach((message, i) => {
  console.log(`${String(i + 1).padStart(2)}. + ${compact(message, 60)}`);
  memory.add(message);
  const { state } = memory;
  console.log(
    `      window ${state.messages.length}/${MAX_MESSAGES} msgs ${state.totalTokens}/${MAX_TOKENS} tok:` +
      ` ${windowOf(state.messages)}`,
  );

  // The limits and the boundary hold after every add.
  assert.ok(state.messages.length <= MAX_MESSAGES);
  if (state.messages.length > 1) {
    assert.ok(state.totalTokens <= MAX_TOKENS);
    const first = state.messages[0] as Message;
    assert.ok(first.role !== 'tool' && first.toolCalls === undefined, 'unsafe window start');
  }
});
unsubscribe();

// Every rule fired at least once in this script, and the window ends on the last turn.
assert.ok(totals.messageLimit > 0 && totals.tokenLimit > 0 && totals.toolPairBoundary > 0);
assert.equal(memory.getHistory().at(-1)?.content, 'Direct, please.');
console.log(
  `\ndemo complete: removed ${totals.messageLimit} by the message limit, ${totals.tokenLimit} by` +
    ` the token limit, ${totals.toolPairBoundary} at the tool-pair boundary`,
);
