/**
 * The workload every system runs, and what is measured of each window (see `run.ts` for the
 * whole method).
 *
 * - The conversation: `generateConversation` of `bench/fixtures.ts` (fixed seed 20261130), an
 *   agent conversation of user questions, assistant answers, assistant messages with 1–3 tool
 *   calls and their tool results, 50–600 characters each.
 * - Turns: the conversation is cut before every model call an agent makes, that is after each user
 *   message and after the last tool result of a tool-call turn. A turn is the messages that arrived
 *   since the previous call ([user], [assistant with tool calls, its results], [assistant answer,
 *   next user], …). At each turn a system appends the turn's messages to its memory, then produces
 *   the window it would send to the model, the system prompt first.
 * - The counter, the same for every system: gpt-tokenizer's `o200k_base` count of a message's
 *   text plus, for each tool call, its name and its arguments as JSON (what conversation-memory's
 *   `'o200k_base'` tokenizer counts). LlamaIndex's `Memory` cannot take a per-message counter: it
 *   counts the text of the messages joined with spaces with `Settings.tokenizer`, which is set to
 *   the same o200k encoder; tool-call names and arguments are invisible to it.
 * - The budget: tokens only, the same number for every system, system prompt included. LangChain's
 *   `trimMessages` and LlamaIndex's `Memory` have no message-count limit, so a count limit could not
 *   be the same for all; conversation-memory's `maxMessages` is set to 10 × the expected window, a
 *   limit that is never reached.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Message } from '../../src/entries/index';
import { generateConversation } from '../fixtures';

/** The system prompt every window must start with. */
export const SYSTEM_PROMPT =
  'You are a travel and operations assistant. Use the tools when they help, cite tool results, and answer concisely.';

/** One window size of the benchmark. */
export interface Scenario {
  /** The window it aims at, in messages (what the token budget holds on average). */
  readonly approxMessages: number;
  /** The token budget of every window, system prompt included. */
  readonly budget: number;
  /** Messages replayed (untimed, turn by turn) before the timed turns. */
  readonly history: number;
  /** Turns timed after the history (fewer for a system whose turns are too slow, see run.ts). */
  readonly timedTurns: number;
}

/**
 * About 53 o200k tokens per message in this conversation: 1,100 tokens hold about 20 messages and
 * 53,000 about 1,000. The histories are 10× and 1.5× the window: LangChain's pattern trims the
 * whole history on every call, so its cost grows with the history (a longer one would not fit
 * the run's time budget with an uncached counter).
 */
export const SCENARIOS: readonly Scenario[] = [
  { approxMessages: 20, budget: 1_100, history: 200, timedTurns: 40 },
  { approxMessages: 1_000, budget: 53_000, history: 1_500, timedTurns: 40 },
];

/** The whole conversation, long enough for every scenario's history and timed turns. */
export const CONVERSATION: readonly Message[] = generateConversation(2_300);

/** A tool call as the counter sees it. */
export interface CountedCall {
  readonly name: string;
  readonly args: unknown;
}

/** The shared counter: o200k tokens of the text, plus each call's name and JSON arguments. */
export const countParts = (text: string, calls: readonly CountedCall[]): number => {
  let total = countTokens(text);
  for (const call of calls)
    total += countTokens(call.name) + countTokens(JSON.stringify(call.args));
  return total;
};

/** Our plain-object messages, through the shared counter. */
export const countMessage = (message: Message): number =>
  countParts(
    message.content ?? '',
    (message.toolCalls ?? []).map((call) => ({ name: call.name, args: call.parameters })),
  );

/** The system prompt's tokens. */
export const SYSTEM_TOKENS: number = countParts(SYSTEM_PROMPT, []);

/** Where the turn that ends at message `i` (inclusive) is cut: before a model call. */
const endsTurn = (messages: readonly Message[], i: number): boolean => {
  const role = messages[i]?.role;
  return role === 'user' || (role === 'tool' && messages[i + 1]?.role !== 'tool');
};

/** The turns of a conversation (trailing messages after the last model call are left out). */
export const splitTurns = (messages: readonly Message[]): Message[][] => {
  const turns: Message[][] = [];
  let start = 0;
  for (let i = 0; i < messages.length; i++) {
    if (!endsTurn(messages, i)) continue;
    turns.push(messages.slice(start, i + 1));
    start = i + 1;
  }
  return turns;
};

/** A scenario's turns: those replayed before timing, and those timed. */
export interface ScenarioTurns {
  readonly warm: readonly (readonly Message[])[];
  readonly timed: readonly (readonly Message[])[];
}

/** The first turns up to `history` messages, then the next `timedTurns` turns. */
export const scenarioTurns = (scenario: Scenario): ScenarioTurns => {
  const turns = splitTurns(CONVERSATION);
  const warm: Message[][] = [];
  let messages = 0;
  while (messages < scenario.history) {
    const turn = turns[warm.length];
    if (turn === undefined) throw new Error('bench/peers: the conversation is too short');
    warm.push(turn);
    messages += turn.length;
  }
  const timed = turns.slice(warm.length, warm.length + scenario.timedTurns);
  if (timed.length < scenario.timedTurns) throw new Error('bench/peers: not enough turns');
  return { warm, timed };
};

/** A window message as every system's window is described for the checks. */
export interface View {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly text: string;
  readonly calls: readonly CountedCall[];
}

/** What is checked of one window. */
export interface WindowFacts {
  readonly messages: number;
  readonly tokens: number;
  readonly systemFirst: boolean;
  /** Its first message that is not a system message is a tool result (an orphan). */
  readonly orphanStart: boolean;
}

/** The facts of one window. */
export const windowFacts = (window: readonly View[]): WindowFacts => {
  let tokens = 0;
  for (const message of window) tokens += countParts(message.text, message.calls);
  const first = window[0];
  const firstNonSystem = window.find((message) => message.role !== 'system');
  return {
    messages: window.length,
    tokens,
    systemFirst: first?.role === 'system' && first.text === SYSTEM_PROMPT,
    orphanStart: firstNonSystem?.role === 'tool',
  };
};
