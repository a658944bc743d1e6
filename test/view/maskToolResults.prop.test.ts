/**
 * Masking stale tool output, as properties over random tool conversations with repeated results
 * (issue #19 §2): (a) a view with masking validates for both providers, and the real `openai` and
 * `@anthropic-ai/sdk` clients get a 200 from the loopback servers enforcing their rules; (b)
 * masking never changes a non-tool message, a pinned message or a message of the current turn;
 * (c) it keeps the roles, call ids and tool names of the view without masking; (d) at most
 * `keepLast` tool results outside the current turn are sent verbatim; (e) no result outside the
 * current turn is sent verbatim twice; (f) the retained state is not changed; (g) with
 * `untilFits`, a view fits whenever the plain view does, keeps every message the plain view keeps,
 * and masks one the plain view sends verbatim only as a repeat or as superseded.
 */
import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  modelView,
  setSummary,
  validateTranscript,
  type MaskToolResults,
  type Message,
  type MemoryState,
  type ModelViewOptions,
  type Provider,
  type ViewChange,
  type ViewTarget,
} from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { openaiProvider } from 'conversation-memory/openai';
import { toolConversationArb } from '../arbitraries/toolConversation';
import { startAnthropicServer, type AnthropicServer } from '../support/loopback/anthropicServer';
import { startOpenAIServer, type OpenAIServer } from '../support/loopback/openaiServer';

/** Tool outputs, few enough that repeats are common; one as long as a file read. */
const OUTPUTS = ['A', 'B', '18°C, cloudy', 'x '.repeat(60), 'A\n'];
const NAMES = ['calc', 'read_file', 'evil]\n"name'];

/** Call ids of chunk `k` made distinct from every other chunk's (the arbitrary numbers by turn). */
const renumber = (messages: readonly Message[], k: number): Message[] =>
  messages.map((message) => ({
    ...message,
    ...(message.toolCallId === undefined ? {} : { toolCallId: `k${k}-${message.toolCallId}` }),
    ...(message.toolCalls === undefined
      ? {}
      : {
          toolCalls: message.toolCalls.map((call) =>
            call.id === undefined ? call : { ...call, id: `k${k}-${call.id}` },
          ),
        }),
  }));

/**
 * A tool conversation of several user turns whose results repeat: each turn a user message (now
 * and then left out) then tool turns, strays and cut-short groups; each result's text and tool
 * name drawn from a few.
 */
const conversationArb: fc.Arbitrary<Message[]> = fc
  .tuple(
    fc.array(fc.tuple(fc.nat(9), toolConversationArb(5)), { minLength: 1, maxLength: 8 }),
    fc.array(fc.nat(OUTPUTS.length - 1), { minLength: 1 }),
    fc.array(fc.nat(NAMES.length - 1), { minLength: 1 }),
  )
  .map(([chunks, outputs, names]) => {
    const messages = chunks.flatMap(([roll, chunk], k) => [
      ...(roll === 0 ? [] : [{ role: 'user' as const, content: `turn ${k}` }]),
      ...renumber(chunk, k),
    ]);
    let t = 0;
    return messages.map((message) => {
      if (message.role !== 'tool') return message;
      t++;
      // Keep the name the call used, most of the time, so most results still pair by name.
      const name = t % 3 === 0 ? (NAMES[names[t % names.length] as number] as string) : 'calc';
      return {
        ...message,
        content: OUTPUTS[outputs[t % outputs.length] as number] as string,
        toolName: name,
      };
    });
  });

const maskArb: fc.Arbitrary<MaskToolResults> = fc.oneof(
  fc.record({ keepLast: fc.nat(3) }),
  fc.record({ keepTurns: fc.nat(3) }),
  fc.record({ keepLast: fc.nat(6), keepTurns: fc.nat(4) }),
);

interface Case {
  readonly state: MemoryState;
  readonly options: ModelViewOptions;
}

/** A window (any limits, pinned system messages or not), or a whole transcript with knowledge. */
const caseArbOf = (conversations: fc.Arbitrary<Message[]>): fc.Arbitrary<Case> =>
  fc
    .tuple(
      conversations,
      fc.record({
        maxMessages: fc.integer({ min: 1, max: 60 }),
        toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
        pinSystem: fc.boolean(),
      }),
      fc.boolean(),
      fc.option(fc.constantFrom('Ann is 30.', '[Known Entities]\n- Ann'), { nil: null }),
    )
    .map(([messages, policy, asTranscript, extra]) => {
      let state = createMemory({ ...policy, tokenizer: 'heuristic' });
      if (asTranscript) {
        const transcript = messages.map((message, position) => ({ message, position }));
        return {
          state,
          options: { transcript, ...(extra === null ? {} : { knowledge: extra }) },
        };
      }
      state = addMessages(state, messages).state;
      if (extra !== null) state = setSummary(state, extra).state;
      return { state, options: {} };
    });

const caseArb = caseArbOf(conversationArb);

/** The same conversations with tool results as long as file reads (20 to 140 tokens). */
const longResultsArb = caseArbOf(
  conversationArb.map((messages) =>
    messages.map((m, k) =>
      m.role === 'tool' ? { ...m, content: `${m.content ?? ''} `.repeat(20 + (k % 7) * 20) } : m,
    ),
  ),
);

/** Where the current turn starts in a view: its last user message (0 without one). */
const currentTurn = (messages: readonly Message[]): number => {
  for (let k = messages.length - 1; k >= 0; k--) if (messages[k]?.role === 'user') return k;
  return 0;
};

/** The messages of the source (window or transcript), to tell a verbatim message by identity. */
const sourceOf = ({ state, options }: Case): Set<Message> =>
  new Set(options.transcript?.map((entry) => entry.message) ?? state.messages);

const TARGETS: readonly ViewTarget[] = ['openai', 'anthropic', 'none'];

/** JSON with object keys sorted, at every depth (two calls with the same arguments are equal). */
const sortedJson = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(sortedJson).join(',')}]`
    : typeof value === 'object' && value !== null
      ? `{${Object.keys(value)
          .sort()
          .map(
            (key) =>
              `${JSON.stringify(key)}:${sortedJson((value as Record<string, unknown>)[key])}`,
          )
          .join(',')}}`
      : JSON.stringify(value);

let openaiServer: OpenAIServer;
let anthropicServer: AnthropicServer;
let openai: Provider;
let anthropic: Provider;

beforeAll(async () => {
  openaiServer = await startOpenAIServer();
  anthropicServer = await startAnthropicServer();
  openai = openaiProvider({
    client: new OpenAI({ baseURL: openaiServer.url, apiKey: 'test-key', maxRetries: 0 }),
    defaultModel: 'gpt-4o-mini',
  });
  anthropic = anthropicProvider({
    client: new Anthropic({ baseURL: anthropicServer.url, apiKey: 'test-key', maxRetries: 0 }),
    defaultModel: 'claude-sonnet-4-5',
  });
});

afterAll(async () => {
  await openaiServer.close();
  await anthropicServer.close();
});

describe('modelView with maskToolResults: properties', () => {
  it('(a) validates for both providers, with and without a budget; both real clients get 200', async () => {
    let sent = 0;
    let maskedSeen = 0;
    await fc.assert(
      fc.asyncProperty(
        caseArb,
        maskArb,
        fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
        async (input, maskToolResults, budget) => {
          for (const target of ['openai', 'anthropic'] as const) {
            const view = modelView(input.state, {
              ...input.options,
              target,
              maskToolResults,
              ...(budget === undefined ? {} : { budget }),
            });
            expect(validateTranscript(view.messages, target)).toEqual([]);
            maskedSeen += view.changes.filter((c) => c.type === 'view/masked').length;
            if (!view.messages.some((m) => m.role !== 'system')) continue;
            const provider = target === 'openai' ? openai : anthropic;
            const { message } = await provider.complete({
              model: provider.defaultModel ?? '',
              systemPrompt: 'You are a test.',
              messages: view.messages,
            });
            expect(message.role).toBe('assistant');
            sent++;
          }
        },
      ),
      { numRuns: 100 },
    );
    expect(sent).toBeGreaterThan(100);
    // The property saw masking, not only views with nothing to mask.
    expect(maskedSeen).toBeGreaterThan(100);
  });

  it('(b, c) changes only tool results before the current turn; roles, ids and names stay', () => {
    fc.assert(
      fc.property(caseArb, maskArb, fc.constantFrom(...TARGETS), (input, mask, target) => {
        const plain = modelView(input.state, { ...input.options, target });
        const view = modelView(input.state, { ...input.options, target, maskToolResults: mask });
        const shape = (m: Message) => [m.role, m.toolCallId, m.toolName];
        expect(view.messages.map(shape)).toEqual(plain.messages.map(shape));
        const current = currentTurn(plain.messages);
        const source = sourceOf(input);
        const changed = new Set(
          view.changes.flatMap((c) => (c.type === 'view/masked' ? [c.message] : [])),
        );
        view.messages.forEach((message, k) => {
          const before = plain.messages[k] as Message;
          if (!changed.has(message)) {
            // What the view makes (knowledge, summary, answers) is made afresh: equal, not same.
            if (source.has(before)) expect(message).toBe(before);
            else expect(message).toEqual(before);
            return;
          }
          expect(message.role).toBe('tool');
          expect(before.role).toBe('tool');
          expect(k).toBeLessThan(current);
          expect(message.content).toMatch(/^\[tool result masked[^\n]*\]$/);
        });
        // Every other change is the same as without masking.
        expect(view.changes.filter((c) => c.type !== 'view/masked')).toEqual(plain.changes);
      }),
      { numRuns: 300 },
    );
  });

  it('(d) at most keepLast results outside the current turn are sent verbatim', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(6), fc.constantFrom(...TARGETS), (input, keepLast, target) => {
        const view = modelView(input.state, {
          ...input.options,
          target,
          maskToolResults: { keepLast },
        });
        const source = sourceOf(input);
        const current = currentTurn(view.messages);
        const verbatim = view.messages.filter(
          (m, k) => k < current && m.role === 'tool' && source.has(m),
        );
        expect(verbatim.length).toBeLessThanOrEqual(keepLast);
      }),
      { numRuns: 300 },
    );
  });

  it('(e) a result outside the current turn is never sent verbatim twice', () => {
    fc.assert(
      fc.property(caseArb, maskArb, (input, mask) => {
        const view = modelView(input.state, { ...input.options, maskToolResults: mask });
        const source = sourceOf(input);
        const current = currentTurn(view.messages);
        const seen = new Set<string>();
        view.messages.forEach((m, k) => {
          if (m.role !== 'tool' || !source.has(m)) return;
          const key = `${m.toolName ?? ''}\u0000${m.content ?? ''}`;
          // An older verbatim copy of a result sent again later is a repeat not masked.
          if (k < current) expect(seen.has(key)).toBe(false);
        });
        for (let k = view.messages.length - 1; k >= 0; k--) {
          const m = view.messages[k] as Message;
          if (m.role !== 'tool' || !source.has(m)) continue;
          const key = `${m.toolName ?? ''}\u0000${m.content ?? ''}`;
          if (k < current) expect(seen.has(key)).toBe(false);
          seen.add(key);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('(g) untilFits: fits when the plain view fits, keeps every message the plain view keeps, and masks one it sends verbatim only as a repeat or superseded', () => {
    let staleSeen = 0;
    let supersededSeen = 0;
    fc.assert(
      fc.property(
        fc.oneof(caseArb, longResultsArb),
        fc.record({ keepLast: fc.nat(3), keepTurns: fc.nat(2) }),
        fc.integer({ min: 1, max: 1500 }),
        fc.constantFrom(...TARGETS),
        (input, keep, budget, target) => {
          const options = { ...input.options, target, budget };
          const plain = modelView(input.state, options);
          const view = modelView(input.state, {
            ...options,
            maskToolResults: { ...keep, untilFits: true },
          });
          if (target !== 'none') expect(validateTranscript(view.messages, target)).toEqual([]);
          if (view.overBudget === true) expect(plain.overBudget).toBe(true);
          expect(view.tokens).toBeLessThanOrEqual(Math.max(budget, plain.tokens ?? 0));
          const leftOut = (changes: readonly ViewChange[]) =>
            changes.flatMap((c) =>
              c.type === 'view/omitted' && c.reason === 'budget' ? [c.index] : [],
            );
          const plainLeftOut = new Set(leftOut(plain.changes));
          for (const index of leftOut(view.changes)) expect(plainLeftOut.has(index)).toBe(true);
          const stale = view.changes.filter(
            (c) => c.type === 'view/masked' && c.reason === 'stale',
          );
          // Nothing stale is masked for a view that fits without masking.
          if (plainLeftOut.size === 0) expect(stale).toEqual([]);
          staleSeen += stale.length;
          // The call (name and canonical arguments) of each call id in the view.
          const calls = new Map<string, string>();
          for (const m of view.messages) {
            for (const call of m.toolCalls ?? []) {
              if (call.id !== undefined)
                calls.set(call.id, `${call.name} ${sortedJson(call.parameters)}`);
            }
          }
          const source = sourceOf(input);
          for (const message of plain.messages) {
            if (!source.has(message) || view.messages.includes(message)) continue;
            // Sent verbatim without masking, masked with it: a repeat, or superseded.
            const change = view.changes.find(
              (c) => c.type === 'view/masked' && c.toolCallId === message.toolCallId,
            ) as Extract<ViewChange, { type: 'view/masked' }>;
            expect(change).toBeDefined();
            if (change.reason === 'repeat') continue;
            const at = view.messages.indexOf(change.message);
            const call = calls.get(change.toolCallId);
            expect(call).toBeDefined();
            const newer = view.messages
              .slice(at + 1)
              .some((m) => m.role === 'tool' && calls.get(m.toolCallId ?? '') === call);
            expect(newer).toBe(true);
            supersededSeen++;
          }
        },
      ),
      { numRuns: 400 },
    );
    expect(staleSeen).toBeGreaterThan(50);
    expect(supersededSeen).toBeGreaterThan(5);
  });

  it('(f) the retained state and the transcript are not changed', () => {
    fc.assert(
      fc.property(caseArb, maskArb, (input, mask) => {
        const before = structuredClone(input);
        const messages = input.state.messages;
        modelView(input.state, { ...input.options, maskToolResults: mask, budget: 50 });
        expect(input).toEqual(before);
        expect(input.state.messages).toBe(messages);
      }),
      { numRuns: 200 },
    );
  });
});
