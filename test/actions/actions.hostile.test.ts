import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  applySummary,
  commitSummary,
  createMemory,
  holdForSummary,
  isConversationMemoryError,
  MemoryArgumentError,
  memoryActions,
  memoryTransition,
  setSummary,
  type MemoryState,
  type TrimmedEffect,
} from 'conversation-memory';
import {
  HostileError,
  hostilityArb,
  jsonNodes,
  makeHostile,
  replaceAt,
} from '../arbitraries/hostile';
import { user } from '../helpers';

/**
 * Action creators check their arguments where the action is made, with the rules the reducer
 * applies later (issue #15, items 6 and 11): a summary creator refuses what its reducer would
 * refuse, `trimHeld` reads its effect once and safely (never a `TypeError`, never the caller's own
 * error, never a walk over `{ length: 2 ** 32 - 1 }`), and `match` never throws.
 */

const base = (): MemoryState =>
  addMessages(createMemory({ maxMessages: 2, tokenizer: 'heuristic' }), [user('a'), user('b')])
    .state;
const trimOf = (state: MemoryState): TrimmedEffect =>
  addMessage(state, user('c')).effects[0] as TrimmedEffect;

/** What `run` throws: undefined when it returns. */
const thrown = (run: () => unknown): unknown => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error;
  }
};

const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

const REVOKED = Symbol('a revoked Proxy');

const throwingGetter = (key: string, base: object = {}): object =>
  Object.defineProperty({ ...base }, key, {
    get: () => {
      throw new HostileError();
    },
    enumerable: true,
  });

describe('summary action creators refuse what their reducer would refuse', () => {
  it('the issue example: summaryApplied(5) throws where it is made', () => {
    expect(() => memoryActions.summaryApplied(5 as never)).toThrow(MemoryArgumentError);
    expect(() => memoryActions.summaryApplied(5 as never)).toThrow(
      '[conversation-memory] memoryActions.summaryApplied: text must be a string, received 5',
    );
    expect(() => memoryActions.summarySet(undefined as never)).toThrow(
      'memoryActions.summarySet: text must be a string or null, received undefined',
    );
    expect(() => memoryActions.summaryCommitted(null as never, 1)).toThrow(
      'memoryActions.summaryCommitted: text must be a string, received null',
    );
    expect(() => memoryActions.summaryCommitted('S', 1.5)).toThrow(
      'memoryActions.summaryCommitted: through must be an integer position, received 1.5',
    );
  });

  it('property: a creator accepts exactly the arguments its reducer accepts', () => {
    const state = base();
    const held = holdForSummary(addMessage(state, user('c')).state, trimOf(state)).state;
    const argument = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.integer(),
      fc.constantFrom(null, -0, 1.5, Number.NaN, 2 ** 53, REVOKED),
    );
    // fast-check cannot hold a revoked Proxy (it inspects its values): made in the property.
    const real = (value: unknown): unknown => (value === REVOKED ? revoked() : value);
    const outcome = (run: () => unknown): string => {
      const error = thrown(run);
      if (error === undefined) return 'ok';
      expect(isConversationMemoryError(error)).toBe(true);
      return (error as MemoryArgumentError).detail;
    };
    fc.assert(
      fc.property(argument, argument, (textArg, throughArg) => {
        const text = real(textArg);
        const through = real(throughArg);
        expect(outcome(() => memoryActions.summaryApplied(text as never))).toBe(
          outcome(() => applySummary(state, text as never)),
        );
        expect(outcome(() => memoryActions.summarySet(text as never))).toBe(
          outcome(() => setSummary(state, text as never)),
        );
        expect(outcome(() => memoryActions.summaryCommitted(text as never, through as never))).toBe(
          outcome(() => commitSummary(held, text as never, through as never)),
        );
      }),
    );
  });

  it('summaryCommitted keeps a through of -0 as 0 (the action stays JSON-exact)', () => {
    const action = memoryActions.summaryCommitted('S', -0);
    expect(Object.is(action.payload.through, 0)).toBe(true);
  });
});

describe('match never throws', () => {
  it('returns false for a revoked Proxy, a throwing getter or trap, and non-objects', () => {
    const trap = new Proxy(
      {},
      {
        get: () => {
          throw new HostileError();
        },
      },
    );
    for (const creator of Object.values(memoryActions)) {
      for (const value of [revoked(), throwingGetter('type'), trap, null, undefined, 5, 'x']) {
        expect(creator.match(value)).toBe(false);
      }
      expect(creator.match({ type: creator.type })).toBe(true);
    }
  });
});

describe('trimHeld reads its effect once and safely', () => {
  const effect = (fields: Record<string, unknown>): TrimmedEffect =>
    ({ type: 'memory/trimmed', reason: 'enforce_limits', ...fields }) as never;
  const message = (what: string) => `[conversation-memory] memoryActions.trimHeld: ${what}`;

  it.each([
    [
      'null',
      null,
      'trimmed must be a memory/trimmed effect (with removed and positions), received null',
    ],
    [
      'a number',
      5,
      'trimmed must be a memory/trimmed effect (with removed and positions), received 5',
    ],
    [
      'positions: null',
      effect({ removed: [], positions: null }),
      'trimmed.positions must be a list of positions, received null',
    ],
    [
      'positions: a number (Array.from(5) would be [])',
      effect({ removed: [], positions: 5 }),
      'trimmed.positions must be a list of positions, received 5',
    ],
    [
      'positions: { length: 2 ** 32 - 1 }',
      effect({ removed: [user('a')], positions: { length: 2 ** 32 - 1 } }),
      'trimmed.positions must be a list of positions, received an object',
    ],
    [
      'positions: a Set (an iterable that is no array)',
      effect({ removed: [user('a')], positions: new Set([0]) }),
      'trimmed.positions must be a list of positions, received a Set',
    ],
    [
      'removed: missing',
      effect({ positions: [] }),
      'trimmed.removed must be a list of messages, received undefined',
    ],
    [
      'more positions than removed messages',
      effect({ removed: [user('a')], positions: [0, 1] }),
      'trimmed.positions must hold one position per removed message (1), received 2',
    ],
    [
      'a sparse list of 2^32 − 1 positions',
      effect({ removed: [user('a')], positions: Object.assign([], { length: 2 ** 32 - 1 }) }),
      'trimmed.positions must hold one position per removed message (1), received 4294967295',
    ],
    [
      'a negative position',
      effect({ removed: [user('a')], positions: [-5] }),
      'trimmed.positions[0] must be an integer ≥ 0, received -5',
    ],
    ['a revoked Proxy', revoked(), 'trimmed.removed could not be read: TypeError:'],
    [
      'a throwing getter on positions',
      throwingGetter('positions', { removed: [] }),
      'trimmed.positions could not be read: HostileError: hostile input',
    ],
    [
      'a revoked Proxy as positions',
      effect({ removed: [], positions: revoked() }),
      'trimmed.positions could not be read: TypeError:',
    ],
  ])('%s: a MemoryArgumentError naming the field and the value', (_, value, what) => {
    const error = thrown(() => memoryActions.trimHeld(value as never));
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect((error as Error).message.startsWith(message(what))).toBe(true);
  });

  it('both sparse lists of 2^32 − 1: refused at the first position, none after it read', () => {
    let reads = 0;
    const positions = new Proxy(Object.assign([], { length: 2 ** 32 - 1 }), {
      get: (target, key) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key) as unknown;
      },
    });
    const removed = Object.assign([], { length: 2 ** 32 - 1 });
    expect(() => memoryActions.trimHeld(effect({ removed, positions }))).toThrow(
      message('trimmed.positions[0] must be an integer ≥ 0, received undefined'),
    );
    expect(reads).toBe(1);
  });

  it('reads removed and positions once each, and stores -0 as 0', () => {
    const reads = { removed: 0, positions: 0 };
    const trimmed = {
      type: 'memory/trimmed',
      reason: 'enforce_limits',
      get removed() {
        reads.removed++;
        return reads.removed === 1 ? [user('a')] : 0;
      },
      get positions() {
        reads.positions++;
        return reads.positions === 1 ? [-0] : null;
      },
    };
    const action = memoryActions.trimHeld(trimmed as never);
    expect(reads).toEqual({ removed: 1, positions: 1 });
    expect(action.payload).toEqual({ removed: [user('a')], positions: [0] });
    expect(Object.is(action.payload.positions[0], 0)).toBe(true);
  });

  it('property: an effect made hostile anywhere gives the plain action or our own error', () => {
    const state = base();
    const trim = trimOf(state);
    const plain = JSON.parse(JSON.stringify(trim)) as TrimmedEffect;
    const nodes = jsonNodes(plain);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: nodes.length - 1 }),
        hostilityArb(['removed', 'positions', 'role', 'content', '0']),
        (at, hostility) => {
          const node = nodes[at] as (typeof nodes)[number];
          const hostile = replaceAt(plain, node.path, (value) => makeHostile(value, hostility));
          const error = thrown(() => memoryActions.trimHeld(hostile as never));
          if (error === undefined) {
            const action = memoryActions.trimHeld(hostile as never);
            expect(action).toEqual(memoryActions.trimHeld(plain));
            expect(memoryTransition(addMessage(state, user('c')).state, action).state).toEqual(
              holdForSummary(addMessage(state, user('c')).state, trim).state,
            );
            return;
          }
          expect(isConversationMemoryError(error)).toBe(true);
          expect(error).not.toBeInstanceOf(HostileError);
        },
      ),
    );
  });
});
