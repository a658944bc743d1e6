import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  applySummary,
  clearMemory,
  commitSummary,
  createMemory,
  decodeAction,
  enforceLimits,
  fixToolPairBoundary,
  holdForSummary,
  InvalidMessageError,
  MemoryArgumentError,
  memoryActions,
  memoryTransition,
  memoryReducer,
  setSummary,
  type MemoryAction,
  type MemoryState,
  type TrimmedEffect,
} from 'conversation-memory';
import { messageArb } from '../arbitraries/message';
import { assistant, call, tool, user } from '../helpers';

const base = (): MemoryState => createMemory({ maxMessages: 2, tokenizer: 'heuristic' });
const full = (): MemoryState => addMessages(base(), [user('a'), user('b')]).state;
const trimOf = (state: MemoryState): TrimmedEffect =>
  addMessage(state, user('c')).effects[0] as TrimmedEffect;

describe('memoryActions: every reducer as data', () => {
  it('each creator has its type and a match guard', () => {
    for (const [name, creator] of Object.entries(memoryActions)) {
      expect(creator.type).toBe(`memory/${name}`);
      expect(creator.match({ type: creator.type })).toBe(true);
      expect(creator.match({ type: 'memory/other' })).toBe(false);
      expect(creator.match(null)).toBe(false);
    }
    expect(Object.keys(memoryActions).sort()).toEqual(
      [
        'cleared',
        'limitsEnforced',
        'messageAdded',
        'messagesAdded',
        'reconfigured',
        'summaryApplied',
        'summaryCommitted',
        'summarySet',
        'toolPairBoundaryFixed',
        'trimHeld',
      ].sort(),
    );
  });

  it('validates messages where the action is made, storing canonical frozen copies', () => {
    const action = memoryActions.messageAdded({
      role: 'user',
      content: 'hi',
      toolCallId: undefined,
    });
    expect(action).toEqual({ type: 'memory/messageAdded', payload: user('hi') });
    expect(Object.isFrozen(action.payload)).toBe(true);
    expect(() => memoryActions.messageAdded({ role: 'USER', content: 'x' } as never)).toThrow(
      InvalidMessageError,
    );
    expect(() =>
      memoryActions.messagesAdded([user('ok'), { role: 'user', content: 1 } as never]),
    ).toThrow(/messages\[1\]\.content/);
  });

  it('memoryTransition applies each action exactly as its reducer', () => {
    const state = full();
    const trim = trimOf(state);
    const trimmed = addMessage(state, user('c')).state;
    const held = holdForSummary(trimmed, trim).state;
    const cases: [MemoryAction, MemoryState, unknown][] = [
      [memoryActions.messageAdded(user('c')), state, addMessage(state, user('c'))],
      [
        memoryActions.messagesAdded([user('c'), user('d')]),
        state,
        addMessages(state, [user('c'), user('d')]),
      ],
      [memoryActions.limitsEnforced(), state, enforceLimits(state)],
      [memoryActions.toolPairBoundaryFixed(), state, fixToolPairBoundary(state)],
      [memoryActions.summaryApplied('S'), state, applySummary(state, 'S')],
      [
        memoryActions.summarySet(null),
        applySummary(state, 'S').state,
        setSummary(applySummary(state, 'S').state, null),
      ],
      [memoryActions.cleared(), state, clearMemory(state)],
      [memoryActions.trimHeld(trim), trimmed, holdForSummary(trimmed, trim)],
      [memoryActions.summaryCommitted('S', 0), held, commitSummary(held, 'S', 0)],
    ];
    for (const [action, from, expected] of cases) {
      expect(memoryTransition(from, action)).toEqual(expected);
      expect(memoryReducer(from, action)).toEqual((expected as { state: MemoryState }).state);
    }
  });

  it('returns the same state and no effects for any other action', () => {
    const state = full();
    for (const other of [{ type: '@@INIT' }, { type: 'chat/opened', payload: 1 }, null, 'x']) {
      const result = memoryTransition(state, other as never);
      expect(result.state).toBe(state);
      expect(result.effects).toEqual([]);
      expect(memoryReducer(state, other as never)).toBe(state);
    }
  });
});

describe('decodeAction', () => {
  it('reads back every action from JSON, ignoring fields such as a Redux meta', () => {
    const trim = trimOf(full());
    const actions: MemoryAction[] = [
      memoryActions.messageAdded(assistant(null, call('c1', 'calc', { x: [1, { y: null }] }))),
      memoryActions.messagesAdded([user('a'), tool('4', 'c1')]),
      memoryActions.limitsEnforced(),
      memoryActions.toolPairBoundaryFixed(),
      memoryActions.summaryApplied('S'),
      memoryActions.summarySet(null),
      memoryActions.cleared(),
      memoryActions.trimHeld(trim),
      memoryActions.summaryCommitted('S', 3),
    ];
    for (const action of actions) {
      const json = JSON.parse(JSON.stringify({ ...action, meta: { requestId: 'r' } })) as unknown;
      expect(decodeAction(json)).toEqual(E.right(action));
    }
  });

  it('names the path of each problem', () => {
    const problems = (input: unknown): readonly string[] => {
      const result = decodeAction(input);
      return E.isLeft(result) ? result.left.problems : [];
    };
    expect(problems({ type: 'memory/nope' })[0]).toMatch(
      /^type: expected "memory\/messageAdded" \| /,
    );
    expect(
      problems({ type: 'memory/messageAdded', payload: { role: 'USER', content: 'x' } }),
    ).toEqual([
      'payload: message.role must be one of "user", "assistant", "system", "tool", received "USER"',
    ]);
    expect(
      problems({ type: 'memory/messagesAdded', payload: [{ role: 'user', content: 'ok' }, 7] })[0],
    ).toMatch(/^payload\[1\]: /);
    expect(
      problems({ type: 'memory/summaryCommitted', payload: { text: 'S', through: 1.5 } }),
    ).toEqual(['payload.through must be an integer, received 1.5']);
    expect(problems({ type: 'memory/summaryApplied' })).toEqual([
      'payload: expected string, got undefined',
    ]);
    expect(problems(42)[0]).toMatch(/expected memory action object/);
  });

  it('never throws, even on input whose getters throw', () => {
    const hostile = {
      type: 'memory/messageAdded',
      get payload(): never {
        throw new Error('boom');
      },
    };
    const result = decodeAction(hostile);
    expect(E.isLeft(result)).toBe(true);
  });

  it('each call has its own failure budget (the codec is built once and reused)', () => {
    const bad = (n: number) => ({
      type: 'memory/messagesAdded',
      payload: Array.from({ length: n }, () => ({ role: 'USER', content: 'x' })),
    });
    const countOf = (input: unknown) => {
      const result = decodeAction(input);
      if (E.isRight(result)) throw new Error('expected a Left');
      return { count: result.left.problemCount, complete: result.left.countComplete };
    };
    // A call that exhausts its budget stops counting; the next call starts from zero.
    expect(countOf(bad(5_000))).toEqual({ count: 1_000, complete: false });
    expect(countOf(bad(3))).toEqual({ count: 3, complete: true });
    // A decode that runs inside another one (a getter of the input) counts on its own, and the
    // outer one's count is not changed by it.
    let inner: { count: number; complete: boolean } | undefined;
    const outer = {
      type: 'memory/messagesAdded',
      get payload() {
        inner = countOf(bad(2_000));
        return bad(2).payload;
      },
    };
    expect(countOf(outer)).toEqual({ count: 2, complete: true });
    expect(inner).toEqual({ count: 1_000, complete: false });
  });

  it('property: a JSON round trip of any message action decodes to it, and replays the same', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 6 }), (messages) => {
        const actions = [
          ...messages.map((m) => memoryActions.messageAdded(m)),
          memoryActions.messagesAdded(messages),
        ];
        const decoded = actions.map((action) => {
          const result = decodeAction(JSON.parse(JSON.stringify(action)));
          if (E.isLeft(result)) throw result.left;
          return result.right;
        });
        expect(decoded).toEqual(actions);
        const start = createMemory({ maxMessages: 3, tokenizer: 'heuristic' });
        expect(decoded.reduce(memoryReducer, start)).toEqual(actions.reduce(memoryReducer, start));
      }),
    );
  });
});

describe('review fixes: actions read from anywhere', () => {
  it('trimHeld keeps checked, frozen copies: changing the effect later changes no recorded action', () => {
    const state = full();
    const trim = trimOf(state);
    const mutable = { ...trim, removed: [...trim.removed], positions: [...trim.positions] };
    const action = memoryActions.trimHeld(mutable);
    mutable.removed.length = 0;
    mutable.positions.length = 0;
    expect(action.payload.removed).toEqual([user('a')]);
    expect(action.payload.positions).toEqual([0]);
    expect(Object.isFrozen(action.payload.positions)).toBe(true);
    expect(() =>
      memoryActions.trimHeld({ ...trim, removed: [user('a')], positions: [-5] } as TrimmedEffect),
    ).toThrow('memoryActions.trimHeld: trimmed.positions[0] must be an integer ≥ 0, received -5');
  });

  it('memoryTransition throws our error, never a TypeError, for a malformed or hostile action', () => {
    const state = full();
    for (const action of [
      { type: 'memory/trimHeld' },
      { type: 'memory/summaryCommitted' },
      { type: 'memory/summaryCommitted', payload: { text: 1, through: 'x' } },
    ]) {
      expect(() => memoryTransition(state, action as never)).toThrow(MemoryArgumentError);
    }
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => memoryTransition(state, proxy as never)).toThrow(MemoryArgumentError);
    const trap = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(() => memoryTransition(state, trap as never)).toThrow(
      /memoryTransition: action\.type could not be read/,
    );
  });

  it('a clear effect hands out a frozen array', () => {
    const { effects } = clearMemory(full());
    expect(Object.isFrozen((effects[0] as TrimmedEffect).removed)).toBe(true);
  });
});
