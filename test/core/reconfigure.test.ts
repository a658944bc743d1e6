import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  appendAction,
  ConversationMemory,
  createEventLog,
  createMemory,
  decodeAction,
  DEFAULT_CONFIG,
  getPositions,
  holdForSummary,
  isConversationMemoryError,
  MemoryConfigError,
  memoryActions,
  memoryTransition,
  PROVIDER_SAFE,
  reconfigure,
  RecordedMemory,
  memoryReducer,
  replay,
  seek,
  TokenizerError,
  type MemoryAction,
  type MemoryOptions,
  type MemoryState,
  type Message,
} from 'conversation-memory';
import { countMessageTokens, registerTokenizer } from 'conversation-memory/tokens';
import { assistant, call, contents, system, tool, user } from '../helpers';
import { checkPurity } from '../laws';
import { checkReconfigureLaws } from '../laws/reconfigure';

const filled = (options: MemoryOptions, messages: readonly Message[]): MemoryState =>
  addMessages(createMemory({ tokenizer: 'heuristic', ...options }), messages).state;

const five = (): MemoryState =>
  filled({ maxMessages: 20 }, ['one', 'two', 'three', 'four', 'five'].map(user));

/** `reconfigure` through `checkPurity` (a deep-frozen input is not changed), laws checked. */
const lawful = (state: MemoryState, config: MemoryOptions) => {
  const transition = checkPurity(reconfigure, state, config);
  checkReconfigureLaws(state, transition);
  return transition;
};

describe('PROVIDER_SAFE', () => {
  it('is the frozen provider-safe policy, spread into createMemory', () => {
    expect(PROVIDER_SAFE).toEqual({ toolPairs: 'strict', startOn: 'user', pinSystem: true });
    expect(Object.isFrozen(PROVIDER_SAFE)).toBe(true);
    const { config } = createMemory({ ...PROVIDER_SAFE, maxMessages: 50 });
    expect(config).toEqual({ ...DEFAULT_CONFIG, ...PROVIDER_SAFE, maxMessages: 50 });
  });

  it('leaves the defaults of createMemory and ConversationMemory as the reference', () => {
    expect(createMemory().config.toolPairs).toBe('reference');
    expect(new ConversationMemory().state.config).toEqual(DEFAULT_CONFIG);
  });
});

describe('reconfigure', () => {
  it('applies a tighter limit: the trim is reported after the config change, positions kept', () => {
    const state = five();
    const { state: next, effects } = lawful(state, { maxMessages: 2 });
    expect(contents(next.messages)).toEqual(['four', 'five']);
    expect(getPositions(next)).toEqual([3, 4]);
    expect(next.config).toEqual({ ...state.config, maxMessages: 2 });
    expect(next.nextPosition).toBe(5);
    expect(effects).toEqual([
      { type: 'memory/reconfigured', from: state.config, to: next.config },
      {
        type: 'memory/trimmed',
        reason: 'enforce_limits',
        removed: state.messages.slice(0, 3),
        positions: [0, 1, 2],
        rules: ['messageLimit', 'messageLimit', 'messageLimit'],
        remaining: 2,
        removedTokens: state.tokenCounts.slice(0, 3).reduce((a, b) => a + b, 0),
        remainingTokens: next.totalTokens,
        breakdown: { messageLimit: 3, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 },
      },
    ]);
  });

  it('merges fields over the state config, or takes a whole config', () => {
    const state = five();
    const loose = lawful(state, { maxMessages: 30, maxTokens: 1000 });
    expect(loose.state.config).toEqual({ ...state.config, maxMessages: 30, maxTokens: 1000 });
    expect(loose.state.messages).toBe(state.messages);
    expect(loose.effects).toEqual([
      { type: 'memory/reconfigured', from: state.config, to: loose.state.config },
    ]);
    const whole = lawful(loose.state, state.config);
    expect(whole.state.config).toEqual(state.config);
    // `undefined` fields keep the state's value, as `createMemory` takes them for the default.
    expect(lawful(state, { maxMessages: 3, maxTokens: undefined }).state.config.maxTokens).toBe(
      null,
    );
  });

  it('returns the same state and no effects for the same config (identity)', () => {
    const state = five();
    for (const same of [{}, state.config, { maxMessages: 20 }, { ...state.config }]) {
      const result = lawful(state, same);
      expect(result.state).toBe(state);
      expect(result.effects).toEqual([]);
    }
  });

  it('validates like createMemory: same class and messages, unknown keys refused', () => {
    const state = five();
    const message = (call: () => unknown): string => {
      try {
        call();
      } catch (error) {
        expect(error).toBeInstanceOf(MemoryConfigError);
        expect(isConversationMemoryError(error) && error.code).toBe('CM_CONFIG');
        return (error as Error).message;
      }
      throw new Error('expected a MemoryConfigError');
    };
    const cases: unknown[] = [
      { maxMessages: 0 },
      { maxTokens: 1.5 },
      { tokenizer: 'gpt-4o' },
      { toolPairs: 'loose' },
      { startOn: 'assistant' },
      { pinSystem: 'yes' },
      { max_messages: 5 },
      { maxMessages: null },
      'twenty',
    ];
    for (const bad of cases) {
      const created = message(() => createMemory(bad as MemoryOptions));
      expect(message(() => reconfigure(state, bad as MemoryOptions))).toBe(
        created.replace('createMemory:', 'reconfigure:'),
      );
      expect(message(() => memoryActions.reconfigured(bad as MemoryOptions))).toBe(
        created.replace('createMemory:', 'memoryActions.reconfigured:'),
      );
    }
    expect(message(() => reconfigure(state, { max_messages: 5 } as MemoryOptions))).toContain(
      'max_messages is not an option (did you mean maxMessages?)',
    );
    expect(message(() => reconfigure(state, undefined as never))).toBe(
      '[conversation-memory] reconfigure: options must be an object, received undefined',
    );
  });

  it('recounts every message with a new tokenizer (and trims in its counts)', () => {
    const state = filled({ maxMessages: 20 }, [
      user('a few words here'),
      assistant('and a rather longer answer with many more words in it'),
      user('ok'),
    ]);
    const words = lawful(state, { tokenizer: 'o200k_base' });
    const counts = state.messages.map((m) => countMessageTokens('o200k_base', m));
    expect(words.state.tokenCounts).toEqual(counts);
    expect(words.state.totalTokens).toBe(counts.reduce((a, b) => a + b, 0));
    expect(words.state.messages).toBe(state.messages);
    expect(counts).not.toEqual(state.tokenCounts);

    const limit = (counts[1] ?? 0) + (counts[2] ?? 0);
    const tight = lawful(state, { tokenizer: 'o200k_base', maxTokens: limit });
    expect(contents(tight.state.messages)).toEqual(contents(state.messages.slice(1)));
    expect(tight.effects[1]).toMatchObject({
      removedTokens: counts[0],
      remainingTokens: limit,
      rules: ['tokenLimit'],
    });
  });

  it('re-plans the window under a new policy: strict pairs, startOn, pinned system messages', () => {
    // The reference policy keeps an orphan result inside the window; strict removes it.
    const orphan = filled({}, [user('a'), tool('x', 'nowhere'), user('b')]);
    const strict = lawful(orphan, { toolPairs: 'strict' });
    expect(contents(strict.state.messages)).toEqual(['a', 'b']);
    expect(strict.effects[1]).toMatchObject({ positions: [1], rules: ['toolPairBoundary'] });

    const greeting = filled({}, [assistant('Hi, how can I help?'), user('q')]);
    const startOn = lawful(greeting, { startOn: 'user' });
    expect(contents(startOn.state.messages)).toEqual(['q']);
    expect(startOn.effects[1]).toMatchObject({ positions: [0], rules: ['startOn'] });

    const withSystem = filled({}, [system('rules'), user('1'), user('2'), user('3')]);
    const pinned = lawful(withSystem, { pinSystem: true, maxMessages: 2 });
    expect(contents(pinned.state.messages)).toEqual(['rules', '3']);
    expect(getPositions(pinned.state)).toEqual([0, 3]);

    // A complete tool group survives the switch to strict; the provider-safe preset in one word.
    const turn = [user('2+2?'), assistant(null, call('c1')), tool('4', 'c1'), assistant('4.')];
    const safe = lawful(filled({}, turn), PROVIDER_SAFE);
    expect(safe.state.messages).toEqual(turn);
    expect(safe.effects).toHaveLength(1);
  });

  it('leaves the messages held for a summary untouched', () => {
    const state = filled({ maxMessages: 2 }, []);
    const added = addMessages(state, ['one', 'two', 'three'].map(user));
    const held = holdForSummary(added.state, added.effects[0] as never).state;
    const next = lawful(held, { maxMessages: 1, tokenizer: 'o200k_base' }).state;
    expect(next.pendingMessages).toBe(held.pendingMessages);
    expect(next.pendingPositions).toBe(held.pendingPositions);
    expect(next.summaryCoverage).toBe(held.summaryCoverage);
  });

  it('leaves the state untouched when the new tokenizer fails', () => {
    registerTokenizer('reconfigure-test-fails', (message) => {
      if (message.content === 'boom') throw new Error('cannot count');
      return 1;
    });
    const state = filled({}, [user('fine'), user('boom')]);
    expect(() => checkPurity(reconfigure, state, { tokenizer: 'reconfigure-test-fails' })).toThrow(
      TokenizerError,
    );
  });
});

describe('memoryActions.reconfigured', () => {
  it('carries the fields given, checked and frozen, and the reducers apply it', () => {
    const action = memoryActions.reconfigured({ maxMessages: 2, maxTokens: undefined });
    expect(action).toEqual({ type: 'memory/reconfigured', payload: { maxMessages: 2 } });
    expect(Object.keys(action.payload)).toEqual(['maxMessages']);
    expect(Object.isFrozen(action.payload)).toBe(true);
    expect(memoryActions.reconfigured.type).toBe('memory/reconfigured');
    expect(memoryActions.reconfigured.match(action)).toBe(true);

    const state = five();
    expect(memoryTransition(state, action)).toEqual(reconfigure(state, { maxMessages: 2 }));
    expect(memoryReducer(state, action)).toEqual(reconfigure(state, { maxMessages: 2 }).state);
  });

  it('is read back by decodeAction, and a bad payload is a Left naming the field', () => {
    const action = memoryActions.reconfigured({ ...PROVIDER_SAFE, tokenizer: 'heuristic' });
    expect(decodeAction(JSON.parse(JSON.stringify(action)))).toEqual({
      _tag: 'Right',
      right: action,
    });
    const bad = decodeAction({
      type: 'memory/reconfigured',
      payload: { maxMessages: 0, pinSystem: 'no', max_tokens: 3 },
    });
    expect(bad._tag).toBe('Left');
    if (bad._tag === 'Left') {
      expect(bad.left.problems).toEqual([
        'payload: max_tokens is not an option (did you mean maxTokens?); expected maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem, prune, pruneThreshold, embedder, trimTo',
        'payload: maxMessages must be at least 1, received 0',
        'payload: pinSystem must be true or false, received "no"',
      ]);
    }
    expect(decodeAction({ type: 'memory/reconfigured' })._tag).toBe('Left');
    expect(decodeAction({ type: 'memory/reconfigured', payload: 5 })._tag).toBe('Left');
  });

  it('is recorded by an event log: replay and seek equal the live states', () => {
    let log = createEventLog({ maxMessages: 10, tokenizer: 'heuristic' });
    const live: MemoryState[] = [log.head];
    const actions: MemoryAction[] = [
      memoryActions.messagesAdded(['a', 'b', 'c', 'd'].map(user)),
      memoryActions.reconfigured({ maxMessages: 2, tokenizer: 'o200k_base' }),
      memoryActions.messageAdded(user('e')),
      memoryActions.reconfigured({ ...PROVIDER_SAFE }),
    ];
    for (const action of actions) {
      log = appendAction(log, action);
      live.push(memoryTransition(live[live.length - 1] as MemoryState, action).state);
    }
    expect(replay(log)).toEqual(live[live.length - 1]);
    live.forEach((state, i) => expect(seek(log, i)).toEqual(state));
    expect(contents(replay(log).messages)).toEqual(['d', 'e']);
    expect(() =>
      appendAction(log, { type: 'memory/reconfigured', payload: { maxMessages: -1 } }),
    ).toThrow('[conversation-memory] appendAction: maxMessages must be at least 1, received -1');
  });
});

describe('ConversationMemory.reconfigure', () => {
  it('returns the effects, tells subscribers, sets lastTrimmed; the same config changes nothing', () => {
    const memory = ConversationMemory.fromState(five());
    const seen: string[][] = [];
    memory.subscribe((effects) => void seen.push(effects.map((e) => e.type)));
    const effects = memory.reconfigure({ maxMessages: 3 });
    expect(effects.map((e) => e.type)).toEqual(['memory/reconfigured', 'memory/trimmed']);
    expect(seen).toEqual([['memory/reconfigured', 'memory/trimmed']]);
    expect(contents(memory.lastTrimmed)).toEqual(['one', 'two']);
    expect(memory.maxMessages).toBe(3);
    const before = memory.state;
    expect(memory.reconfigure({ maxMessages: 3 })).toEqual([]);
    expect(memory.state).toBe(before);
    expect(seen).toHaveLength(1);
    expect(contents(memory.lastTrimmed)).toEqual(['one', 'two']);
  });

  it('is recorded by a RecordedMemory as memoryActions.reconfigured', () => {
    const memory = new RecordedMemory({ tokenizer: 'heuristic' });
    const actions: MemoryAction[] = [];
    memory.onAction((action) => void actions.push(action));
    memory.addMany(['a', 'b', 'c'].map(user));
    memory.reconfigure({ maxMessages: 1 });
    memory.reconfigure({ maxMessages: 1 });
    expect(actions.map((a) => a.type)).toEqual(['memory/messagesAdded', 'memory/reconfigured']);
    expect(actions[1]).toEqual(memoryActions.reconfigured({ maxMessages: 1 }));
    const replayed = actions.reduce(memoryReducer, createMemory({ tokenizer: 'heuristic' }));
    expect(replayed).toEqual(memory.state);
  });
});

describe('addMessage after reconfigure', () => {
  it('keeps the new limits on every later add', () => {
    let state = lawful(five(), { maxMessages: 2 }).state;
    state = addMessage(state, user('six')).state;
    expect(contents(state.messages)).toEqual(['five', 'six']);
  });
});
