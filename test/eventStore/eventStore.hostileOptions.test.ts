/**
 * Options objects that throw when read (issue #27 §15): a getter that throws, a Proxy whose
 * `get`, `ownKeys` or `getOwnPropertyDescriptor` trap throws, a revoked Proxy. Every public call
 * of the event-log and event-store family that takes options (`createEventLog`, `exportEventLog`,
 * `importEventLog`, `new InMemoryEventStore` and the store's methods), and of the in-memory
 * session store beside it, throws `MemoryArgumentError` naming the call and saying the options
 * could not be read, with the caller's error as `cause` (as `fromDict` does), never the caller's
 * error or a revoked Proxy's `TypeError`; and nothing is written. Traps these calls never use
 * (`has`, `getPrototypeOf`) change nothing: the call does what it does with plain options.
 * Every hostility is tried on every call, a throwing getter on each option the call reads.
 */
import { describe, expect, it } from 'vitest';
import {
  createEventLog,
  exportEventLog,
  importEventLog,
  InMemoryEventStore,
  InMemorySessionStore,
  isConversationMemoryError,
  memoryActions,
  MemoryArgumentError,
  addMessage,
  createMemory,
  userMessage,
} from 'conversation-memory';
import { HostileError, makeHostile, TRAPS, type Hostility } from '../arbitraries/hostile';

const CONFIG = { tokenizer: 'heuristic' } as const;
const said = (text: string) => memoryActions.messageAdded(userMessage(text));

/** A store holding stream `s` (3 actions) in namespace `n`, and a session store holding `s`. */
const world = async () => {
  const events = new InMemoryEventStore({ snapshotEvery: 2 });
  await events.append('s', [said('a'), said('b'), said('c')], {
    namespace: 'n',
    expectedVersion: 0,
    config: CONFIG,
  });
  const sessions = new InMemorySessionStore();
  const state = addMessage(createMemory(CONFIG), userMessage('hello there')).state;
  await sessions.save('s', state, { namespace: 'n' });
  return { events, sessions, state };
};
type World = Awaited<ReturnType<typeof world>>;

/** Everything the stores hold, to show a refused call wrote nothing. */
const contents = async ({ events, sessions }: World): Promise<unknown> => ({
  streams: await events.streams(),
  all: await events.streams({ namespace: 'n' }),
  head: await events.load('s', { namespace: 'n' }),
  session: await sessions.load('s', { namespace: 'n' }),
  copies: [
    await sessions.exists('t', { namespace: 'n' }),
    await sessions.exists('t'),
    await sessions.exists('s'),
  ],
});

/** Drains an async iterable (a store's `read`). */
const drain = async (items: AsyncIterable<unknown>): Promise<unknown[]> => {
  const out: unknown[] = [];
  for await (const item of items) out.push(item);
  return out;
};

/** One public call: the name its errors use, valid options, and the call with given options. */
interface Call {
  readonly api: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly run: (options: unknown, w: World) => Promise<unknown>;
}

const calls: readonly Call[] = [
  {
    api: 'createEventLog',
    options: { snapshotEvery: 8 },
    run: async (options) => createEventLog(CONFIG, options as never).snapshotEvery,
  },
  {
    api: 'InMemoryEventStore',
    options: { snapshotEvery: 8 },
    run: async (options) => {
      const store = new InMemoryEventStore(options as never);
      return store.streams();
    },
  },
  {
    api: 'exportEventLog',
    options: { namespace: 'n', snapshotEvery: 8, toVersion: 2 },
    run: async (options, w) => (await exportEventLog(w.events, 's', options as never))?.length,
  },
  {
    api: 'importEventLog',
    options: { namespace: 'n', batchSize: 1 },
    run: async (options, w) => {
      const log = await exportEventLog(w.events, 's', { namespace: 'n' });
      if (log === null) throw new Error('the seeded stream is missing');
      return importEventLog(w.events, 't', log, options as never);
    },
  },
  {
    api: 'InMemoryEventStore.append',
    options: { namespace: 'n', expectedVersion: 0, config: CONFIG },
    run: (options, w) => w.events.append('t', [said('x')], options as never),
  },
  {
    api: 'InMemoryEventStore.read',
    options: { namespace: 'n', fromVersion: 2, toVersion: 3 },
    run: (options, w) => drain(w.events.read('s', options as never)),
  },
  {
    api: 'InMemoryEventStore.load',
    options: { namespace: 'n', atVersion: 2 },
    run: (options, w) => w.events.load('s', options as never),
  },
  {
    api: 'InMemoryEventStore.streams',
    options: { namespace: 'n' },
    run: (options, w) => w.events.streams(options as never),
  },
  {
    api: 'InMemoryEventStore.delete',
    options: { namespace: 'n' },
    run: (options, w) => w.events.delete('s', options as never),
  },
  // The session store beside it reads its options the same way.
  {
    api: 'InMemorySessionStore',
    options: { defaultTtl: 60, now: () => 1 },
    run: async (options) => new InMemorySessionStore(options as never).exists('s'),
  },
  {
    api: 'InMemorySessionStore.save',
    options: { namespace: 'n', expectedRevision: 0 },
    run: (options, w) => w.sessions.save('t', w.state, options as never),
  },
  {
    api: 'InMemorySessionStore.load',
    options: { namespace: 'n' },
    run: (options, w) => w.sessions.load('s', options as never),
  },
  {
    api: 'InMemorySessionStore.exists',
    options: { namespace: 'n' },
    run: (options, w) => w.sessions.exists('s', options as never),
  },
  {
    api: 'InMemorySessionStore.delete',
    options: { namespace: 'n' },
    run: (options, w) => w.sessions.delete('s', options as never),
  },
  {
    api: 'InMemorySessionStore.branch',
    options: { namespace: 'n', expectedRevision: 0 },
    run: (options, w) => w.sessions.branch('s', 't', options as never),
  },
  {
    api: 'InMemorySessionStore.search',
    options: { namespace: 'n', limit: 3 },
    run: (options, w) => w.sessions.search('hello', options as never),
  },
];

/** Every way an options object can throw, a throwing getter on each option the call reads. */
const hostilities = (call: Call): Hostility[] => [
  ...TRAPS.map((trap): Hostility => ({ kind: 'trap', trap })),
  { kind: 'revoked' },
  ...Object.keys(call.options).map((key): Hostility => ({ kind: 'throwing getter', key })),
];

/** Traps no reading of options uses: the call must behave as with the plain options. */
const unused = (hostility: Hostility): boolean =>
  hostility.kind === 'trap' && (hostility.trap === 'has' || hostility.trap === 'getPrototypeOf');

const outcome = async (
  run: () => Promise<unknown>,
): Promise<{ value?: unknown; error?: unknown }> => {
  try {
    return { value: await run() };
  } catch (error) {
    return { error };
  }
};

/** A value with its clock readings left out (two worlds are made at different times). */
const timeless = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, item: unknown) =>
      key === 'createdAt' || key === 'updatedAt' ? undefined : item,
    ),
  );

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('hostile options: MemoryArgumentError with the cause, nothing written', () => {
  for (const call of calls) {
    it.each(hostilities(call).map((h) => [JSON.stringify(h), h] as const))(
      `${call.api}: %s`,
      async (_name, hostility) => {
        const plainWorld = await world();
        const plain = await outcome(() => call.run({ ...call.options }, plainWorld));
        // The plain call works: what the hostile one is compared with.
        expect(plain.error).toBeUndefined();

        const w = await world();
        const before = await contents(w);
        const hostile = makeHostile({ ...call.options }, hostility);
        const result = await outcome(() => call.run(hostile, w));
        if (unused(hostility)) {
          expect(timeless(result)).toEqual(timeless(plain));
          return;
        }
        const { error } = result;
        expect(error, 'the call must refuse options it cannot read').toBeInstanceOf(
          MemoryArgumentError,
        );
        expect(isConversationMemoryError(error)).toBe(true);
        const { message, cause } = error as Error;
        expect(message).toMatch(
          new RegExp(
            `^\\[conversation-memory\\] ${escape(call.api)}: options(\\.\\w+)? could not be read: `,
          ),
        );
        // The caller's own error is the cause: its text is shown shortened and escaped.
        if (hostility.kind === 'revoked') expect(cause).toBeInstanceOf(TypeError);
        else expect(cause).toBeInstanceOf(HostileError);
        // eslint-disable-next-line no-control-regex -- finding control characters is the point
        expect(message).not.toMatch(/[\n\u001b]/);
        // Nothing was written, deleted or changed.
        expect(await contents(w)).toEqual(before);
      },
    );
  }
});
