import { configureStore, findNonSerializableValue } from '@reduxjs/toolkit';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  appendAction,
  assistantMessage,
  clearMemory,
  ConversationMemory,
  createAgent,
  createEventLog,
  createMemory,
  decodeEnvelope,
  decodeState,
  encodeEnvelope,
  fromDict,
  InMemorySessionStore,
  memoryActions,
  MemoryArgumentError,
  replay,
  toDict,
  usageOf,
  userMessage,
  type CompletionUsage,
  type ConversationUsage,
  type MemoryState,
  type Message,
} from 'conversation-memory';
import { createConversationsSlice } from 'conversation-memory/redux';
import { createMemoryStore } from 'conversation-memory/zustand';
import { estimateCost } from 'conversation-memory/tokens';
import { LocalProvider } from 'conversation-memory/testing';

/**
 * `usageOf(state)` (issue #29 §3): the examples, the byte-identity of states without usage, what
 * `clearMemory` does, the hostile values a file or a stored state may hold, and every place a
 * state travels (envelopes, event logs, the session store, the Redux and Zustand adapters). The
 * property over any sequence of calls is in usageOf.prop.test.ts.
 */

const reply = (usage: unknown, text = 'Hello!'): Message => ({
  ...assistantMessage(text),
  metadata: { usage: usage as never },
});

const USAGE = { inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 40 };
const ONE_CALL: ConversationUsage = {
  calls: 1,
  inputTokens: 1200,
  cachedInputTokens: 1024,
  cacheWriteTokens: 0,
  outputTokens: 40,
};

/** Hi, the reply with USAGE, then two more user messages: the reply left the window (maxMessages 2). */
const conversation = (): MemoryState => {
  let state = createMemory({ maxMessages: 2, tokenizer: 'heuristic' });
  for (const message of [userMessage('Hi'), reply(USAGE), userMessage('Bye'), userMessage('Ok')]) {
    state = addMessage(state, message).state;
  }
  return state;
};

describe('usageOf', () => {
  it('sums the calls in the window and those that left it (the TSDoc example)', () => {
    let state = createMemory({ maxMessages: 2, tokenizer: 'heuristic' });
    state = addMessage(state, userMessage('Hi')).state;
    state = addMessage(state, reply(USAGE)).state;
    expect(usageOf(state)).toStrictEqual(ONE_CALL);
    const trimmed = addMessage(addMessage(state, userMessage('Bye')).state, userMessage('Ok'));
    expect(trimmed.state.messages.map((m) => m.content)).toEqual(['Bye', 'Ok']);
    expect(usageOf(trimmed.state)).toStrictEqual(ONE_CALL);
    expect(trimmed.effects).toMatchObject([{ type: 'memory/trimmed', usage: ONE_CALL }]);
    // Two calls: summed field by field, a missing cache field read as 0.
    const more = addMessage(
      trimmed.state,
      reply({ inputTokens: 300, cacheWriteTokens: 200, outputTokens: 5 }, 'Again'),
    ).state;
    expect(usageOf(more)).toStrictEqual({
      calls: 2,
      inputTokens: 1500,
      cachedInputTokens: 1024,
      cacheWriteTokens: 200,
      outputTokens: 45,
    });
    // What estimateCost takes: the conversation's cost.
    expect(
      estimateCost(usageOf(more), { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }),
    ).toBeCloseTo((276 * 3 + 1024 * 0.3 + 200 * 3.75 + 45 * 15) / 1e6, 12);
  });

  it('is all zeros for a memory whose messages record no usage; the result is frozen', () => {
    const state = addMessage(createMemory(), userMessage('hi')).state;
    const usage = usageOf(state);
    expect(usage).toStrictEqual({
      calls: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 0,
    });
    expect(Object.isFrozen(usage)).toBe(true);
    expect(Object.isFrozen(usageOf(conversation()))).toBe(true);
  });

  it('rejects what is not a state, naming the call', () => {
    expect(() => usageOf({} as MemoryState)).toThrow(MemoryArgumentError);
    expect(() => usageOf(null as unknown as MemoryState)).toThrow(/usageOf: /);
  });

  it('ignores, never throws on, a metadata.usage that is not a usage (the application’s own)', () => {
    const cases: readonly unknown[] = [
      'lots',
      42,
      null,
      [],
      [1, 2],
      { tokens: 12 },
      { inputTokens: 10 },
      { outputTokens: 10 },
      { inputTokens: -1, outputTokens: 1 },
      { inputTokens: 1.5, outputTokens: 1 },
      { inputTokens: '10', outputTokens: 1 },
      { inputTokens: 2 ** 53, outputTokens: 1 },
      { inputTokens: 10, outputTokens: 1, cachedInputTokens: null },
      { inputTokens: 10, outputTokens: 1, cachedInputTokens: 8, cacheWriteTokens: 3 },
    ];
    for (const usage of cases) {
      let state = createMemory({ maxMessages: 1, tokenizer: 'heuristic' });
      state = addMessage(state, reply(usage)).state;
      expect(usageOf(state).calls, JSON.stringify(usage)).toBe(0);
      const { state: next, effects } = addMessage(state, userMessage('next'));
      expect(usageOf(next).calls).toBe(0);
      expect(next).not.toHaveProperty('trimmedUsage');
      expect(effects[0]).not.toHaveProperty('usage');
    }
    // A valid usage on a message of another role records no call either.
    const fromUser = { ...userMessage('hi'), metadata: { usage: USAGE } };
    expect(usageOf(addMessage(createMemory(), fromUser).state).calls).toBe(0);
  });

  it('without usage, states, effects and files are what they always were (no new key)', () => {
    let state = createMemory({ maxMessages: 1, tokenizer: 'heuristic' });
    state = addMessage(state, assistantMessage('a')).state;
    const { state: next, effects } = addMessage(state, userMessage('b'));
    expect(Object.keys(next)).not.toContain('trimmedUsage');
    expect(Object.keys(effects[0] as object)).not.toContain('usage');
    expect(JSON.stringify(toDict(next))).not.toContain('trimmed_usage');
    const cleared = clearMemory(next);
    expect(Object.keys(cleared.effects[0] as object)).not.toContain('usage');
  });
});

describe('usageOf and clearMemory: a clear starts a new conversation', () => {
  it('drops the total; the clear effect carries the usage of the window’s calls, as a trim does', () => {
    const state = addMessage(conversation(), reply({ inputTokens: 7, outputTokens: 3 }, 'x')).state;
    expect(usageOf(state).calls).toBe(2);
    const { state: cleared, effects } = clearMemory(state);
    expect(usageOf(cleared).calls).toBe(0);
    expect(cleared).not.toHaveProperty('trimmedUsage');
    expect(effects[0]).toMatchObject({
      type: 'memory/trimmed',
      reason: 'clear',
      usage: {
        calls: 1,
        inputTokens: 7,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: 3,
      },
    });
  });

  it('clears a memory whose window is empty but whose total is not (not a no-op)', () => {
    let state = createMemory({ maxMessages: 1, startOn: 'user', tokenizer: 'heuristic' });
    // startOn: 'user' drops the reply at once: the window is empty, the total is not.
    state = addMessage(state, reply(USAGE)).state;
    expect(state.messages).toHaveLength(0);
    expect(usageOf(state)).toStrictEqual(ONE_CALL);
    const { state: cleared, effects } = clearMemory(state);
    expect(cleared).not.toBe(state);
    expect(effects).toEqual([]);
    expect(usageOf(cleared).calls).toBe(0);
    expect(cleared).toStrictEqual({ ...createMemory(state.config), nextPosition: 1 });
  });
});

describe('usageOf: files, stored states and where states travel carry the total', () => {
  it('toDict writes it under conversation_memory.trimmed_usage; fromDict reads it back', () => {
    const state = conversation();
    const file = JSON.parse(JSON.stringify(toDict(state))) as Record<string, unknown>;
    expect(file['conversation_memory']).toMatchObject({ trimmed_usage: ONE_CALL });
    const loaded = fromDict(file);
    if (E.isLeft(loaded)) throw loaded.left;
    expect(loaded.right).toStrictEqual(state);
    expect(usageOf(loaded.right)).toStrictEqual(ONE_CALL);
  });

  const hostile: readonly (readonly [unknown, string])[] = [
    [null, ': expected usage object, got null'],
    ['1', ': expected usage object, got "1"'],
    [
      { ...ONE_CALL, calls: 0 },
      '.calls must be at least 1 (the usage is left out when no call left), received 0',
    ],
    [{ ...ONE_CALL, calls: -1 }, '.calls must be an integer from 0 to 2^53 − 1, received -1'],
    [
      { ...ONE_CALL, inputTokens: -1 },
      '.inputTokens must be an integer from 0 to 2^53 − 1, received -1',
    ],
    [
      { ...ONE_CALL, outputTokens: 0.5 },
      '.outputTokens must be an integer from 0 to 2^53 − 1, received 0.5',
    ],
    [
      { ...ONE_CALL, cacheWriteTokens: '3' },
      '.cacheWriteTokens must be an integer from 0 to 2^53 − 1, received "3"',
    ],
    [
      { ...ONE_CALL, cachedInputTokens: 2 ** 53 },
      '.cachedInputTokens must be an integer from 0 to 2^53 − 1, received 9007199254740992',
    ],
    [
      { ...ONE_CALL, cachedInputTokens: undefined },
      '.cachedInputTokens must be an integer from 0 to 2^53 − 1, received undefined',
    ],
    [
      { ...ONE_CALL, cacheWriteTokens: 200 },
      ': cachedInputTokens + cacheWriteTokens must be at most inputTokens (1200), received 1224',
    ],
  ];

  it('fromDict refuses a hostile trimmed_usage, naming the field and the value', () => {
    const file = JSON.parse(JSON.stringify(toDict(conversation()))) as Record<string, unknown>;
    for (const [value, problem] of hostile) {
      const bad = {
        ...file,
        conversation_memory: { ...(file['conversation_memory'] as object), trimmed_usage: value },
      };
      const loaded = fromDict(bad);
      if (E.isRight(loaded)) throw new Error(`accepted ${JSON.stringify(value)}`);
      expect(loaded.left.problems).toEqual([`conversation_memory.trimmed_usage${problem}`]);
    }
  });

  it('decodeState checks trimmedUsage with the same rules, named by the state’s field', () => {
    const stored = JSON.parse(JSON.stringify(conversation())) as Record<string, unknown>;
    const decoded = decodeState(stored);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(decoded.right).toStrictEqual(conversation());
    for (const [value, problem] of hostile) {
      const result = decodeState({ ...stored, trimmedUsage: value });
      if (E.isRight(result)) throw new Error(`accepted ${JSON.stringify(value)}`);
      expect(result.left.problems).toEqual([`trimmedUsage${problem}`]);
    }
    // -0 reads as 0 (JSON has no -0); other keys are left out, as readUsage leaves them.
    const decodedLoose = decodeState({
      ...stored,
      trimmedUsage: { ...ONE_CALL, cacheWriteTokens: -0, note: 'x' },
    });
    if (E.isLeft(decodedLoose)) throw decodedLoose.left;
    expect(Object.is(decodedLoose.right.trimmedUsage?.cacheWriteTokens, 0)).toBe(true);
    expect(decodedLoose.right.trimmedUsage).toStrictEqual(ONE_CALL);
  });

  it('envelopes carry it, for a state and for an event log; a replay reproduces it', () => {
    const state = conversation();
    const back = decodeEnvelope(JSON.parse(JSON.stringify(encodeEnvelope(state))));
    if (E.isLeft(back)) throw back.left;
    expect(back.right).toMatchObject({ kind: 'state' });
    expect(usageOf((back.right as { state: MemoryState }).state)).toStrictEqual(ONE_CALL);

    let log = createEventLog({ maxMessages: 2, tokenizer: 'heuristic' }, { snapshotEvery: 2 });
    for (const message of [
      userMessage('Hi'),
      reply(USAGE),
      userMessage('Bye'),
      userMessage('Ok'),
    ]) {
      log = appendAction(log, memoryActions.messageAdded(message));
    }
    expect(replay(log)).toStrictEqual(state);
    const logBack = decodeEnvelope(JSON.parse(JSON.stringify(encodeEnvelope(log))));
    if (E.isLeft(logBack)) throw logBack.left;
    expect(replay((logBack.right as { log: typeof log }).log)).toStrictEqual(state);
  });

  it('the in-memory session store saves and loads it', async () => {
    const store = new InMemorySessionStore();
    await store.save('s1', conversation());
    const loaded = await store.load('s1');
    expect(usageOf(loaded?.state as MemoryState)).toStrictEqual(ONE_CALL);
  });

  it('the Redux and Zustand adapters keep it as plain, serializable data', () => {
    const chats = createConversationsSlice();
    const store = configureStore({ reducer: { conversations: chats.reducer } });
    store.dispatch(
      chats.actions.conversationCreated({
        conversationId: 'a',
        config: { maxMessages: 2, tokenizer: 'heuristic' },
      }),
    );
    for (const message of [
      userMessage('Hi'),
      reply(USAGE),
      userMessage('Bye'),
      userMessage('Ok'),
    ]) {
      store.dispatch(chats.actions.messageAdded({ conversationId: 'a', message }));
    }
    const memory = store.getState().conversations.conversations['a'] as MemoryState;
    expect(memory).toStrictEqual(conversation());
    expect(usageOf(memory)).toStrictEqual(ONE_CALL);
    expect(findNonSerializableValue(store.getState())).toBe(false);

    const zustand = createMemoryStore({ maxMessages: 2, tokenizer: 'heuristic' });
    for (const message of [
      userMessage('Hi'),
      reply(USAGE),
      userMessage('Bye'),
      userMessage('Ok'),
    ]) {
      zustand.getState().dispatch(memoryActions.messageAdded(message));
    }
    expect(zustand.getState().memory).toStrictEqual(conversation());
    expect(zustand.getState().lastEffects).toMatchObject([{ usage: ONE_CALL }]);
    expect(JSON.parse(JSON.stringify(zustand.getState().memory))).toStrictEqual(
      JSON.parse(JSON.stringify(conversation())),
    );
  });
});

describe('usageOf over an agent’s conversation', () => {
  it('equals the sum of the usages reported to onModelResult, after the window trimmed the replies', async () => {
    const reported: CompletionUsage[] = [];
    const memory = new ConversationMemory({ maxMessages: 2, tokenizer: 'heuristic' });
    const agent = createAgent({
      provider: new LocalProvider(),
      memory,
      observers: [{ onModelResult: (_runId, { usage }) => void (usage && reported.push(usage)) }],
    });
    for (const text of ['Hello', 'How are you?', 'Tell me more.', 'Thanks!']) await agent.run(text);
    expect(reported.length).toBeGreaterThanOrEqual(4);
    expect(memory.state.trimmedUsage?.calls).toBeGreaterThan(0);
    expect(usageOf(memory.state)).toStrictEqual({
      calls: reported.length,
      inputTokens: reported.reduce((n, u) => n + u.inputTokens, 0),
      cachedInputTokens: reported.reduce((n, u) => n + (u.cachedInputTokens ?? 0), 0),
      cacheWriteTokens: reported.reduce((n, u) => n + (u.cacheWriteTokens ?? 0), 0),
      outputTokens: reported.reduce((n, u) => n + u.outputTokens, 0),
    });
  });
});
