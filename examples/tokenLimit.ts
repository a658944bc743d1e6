/**
 * The token limit. With `maxTokens` set, after the count rule the memory drops the oldest
 * messages while the window's tokens exceed the limit (a total equal to the limit is kept, and
 * the last message always stays, even when it alone is over the limit).
 *
 * Tokens are counted once per message, when it enters the state, by the tokenizer named in the
 * config; `getTotalTokens(state)` is kept incrementally (O(1), never a recount):
 * - `'heuristic'`: the reference memory's own count, floor(characters of content / 4); tool
 *   calls and images count 0;
 * - `'o200k_base'` (the default): real GPT-4o tokens via gpt-tokenizer, including each tool
 *   call's name and JSON parameters.
 *
 * The tool-pair boundary rule runs after the token rule, so a token trim can take a tool call
 * with it; as in the reference, the one message kept may then be a lone tool result (the third
 * add with o200k below).
 *
 * Run: `npx tsx examples/tokenLimit.ts`
 */
import assert from 'node:assert/strict';
import {
  addMessage,
  assistantMessage,
  createMemory,
  toolMessage,
  getTotalTokens,
  userMessage,
  type MemoryState,
  type Message,
  type TokenizerName,
} from 'conversation-memory';
import { countMessageTokens, estimateTokens } from 'conversation-memory/tokens';

const MAX_TOKENS = 40;

const conversation: Message[] = [
  userMessage('Find me a quiet hotel near Kyoto station for three nights from Friday.'),
  assistantMessage('', [
    { id: 'call_1', name: 'search_hotels', parameters: { near: 'Kyoto Station', nights: 3 } },
  ]),
  toolMessage('[{"name":"Hotel Granvia","price":210},{"name":"Daiwa Roynet","price":95}]', {
    toolCallId: 'call_1',
    toolName: 'search_hotels',
  }),
  assistantMessage(
    'Daiwa Roynet is ¥-friendly at $95/night; Granvia is $210 but on top of the station.',
  ),
  userMessage('京都駅の近くで静かなホテルがいいです。'),
  assistantMessage('Then Daiwa Roynet: it is on a side street, 4 minutes from the station.'),
];

/** The invariants a window keeps, checked after every add. */
const check = (state: MemoryState): void => {
  let recount = 0;
  for (const m of state.messages) recount += countMessageTokens(state.config.tokenizer, m);
  assert.equal(getTotalTokens(state), recount, 'the incremental total equals a full recount');
  if (state.messages.length > 1) assert.ok(getTotalTokens(state) <= MAX_TOKENS, 'limit kept');
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const run = (tokenizer: TokenizerName): MemoryState => {
  console.log(`\ntokenizer '${tokenizer}', maxTokens ${MAX_TOKENS}`);
  let state = createMemory({ maxMessages: 20, maxTokens: MAX_TOKENS, tokenizer });
  for (const message of conversation) {
    const tokens = countMessageTokens(tokenizer, message);
    const { state: next, effects } = addMessage(state, message);
    state = next;
    const what = message.toolCalls !== undefined ? 'assistant (tool call)' : message.role;
    let line = `+ ${what.padEnd(21)} ${String(tokens).padStart(3)} tokens → window ${plural(state.messages.length, 'message')}, ${getTotalTokens(state)}/${MAX_TOKENS} tokens`;
    for (const effect of effects) {
      if (effect.type === 'memory/trimmed' && effect.reason === 'enforce_limits') {
        line += ` (token rule dropped ${effect.breakdown.tokenLimit}, boundary ${effect.breakdown.toolPairBoundary}; -${effect.removedTokens} tokens)`;
      }
    }
    console.log(line);
    check(state);
  }
  return state;
};

const heuristic = run('heuristic');
const o200k = run('o200k_base');

// The heuristic is the reference's floor(len / 4) of the content only: the tool call is free...
const toolCall = conversation[1] as Message;
assert.equal(countMessageTokens('heuristic', toolCall), 0);
assert.ok(countMessageTokens('o200k_base', toolCall) > 0);
// ...and Japanese text is undercounted by it (19 characters → 4), while o200k sees the real cost.
const japanese = conversation[4] as Message;
assert.equal(countMessageTokens('heuristic', japanese), 4);
assert.ok(countMessageTokens('o200k_base', japanese) > 4);
// For a plain text message, o200k counts exactly what estimateTokens(text, 'gpt-4o') does.
assert.equal(
  countMessageTokens('o200k_base', japanese),
  estimateTokens(japanese.content ?? '', 'gpt-4o'),
);
console.log(
  `\nfinal totals: heuristic ${getTotalTokens(heuristic)} tokens in ${heuristic.messages.length} messages,` +
    ` o200k_base ${getTotalTokens(o200k)} tokens in ${o200k.messages.length} messages`,
);

// One message over the limit on its own is kept: the token rule never empties the window.
const long = userMessage(
  'Please summarise: '.concat('the weather was lovely and mild. '.repeat(20)),
);
const alone = addMessage(o200k, long).state;
assert.equal(alone.messages.length, 1);
assert.ok(getTotalTokens(alone) > MAX_TOKENS);
console.log(
  `a single ${getTotalTokens(alone)}-token message is kept even though maxTokens is ${MAX_TOKENS}`,
);
