/**
 * Options objects that throw when read (issue #27 §15), tried on every public call that takes an
 * options object (the inventory of test/support/optionCalls.ts, so a call added there is covered
 * here too): a getter that throws, on each option the call reads; a Proxy whose `get`,
 * `ownKeys`, `getOwnPropertyDescriptor`, `getPrototypeOf` or `has` trap throws, or one of the
 * traps that write (`set`, `defineProperty`, `deleteProperty`, `preventExtensions`,
 * `isExtensible`, `setPrototypeOf`: a call never writes to the caller's options); a revoked Proxy.
 *
 * The call throws its own error class for options (the class of its other option errors:
 * `MemoryArgumentError` for most, `AgentConfigError` for the provider factories, …), a
 * conversation-memory error naming the call and saying the options could not be read, with the
 * caller's error as `cause` (shortened and escaped in the message), never the caller's error or a
 * revoked Proxy's `TypeError`; and nothing is written or changed (the stores' records, the
 * folders, an agent's memory, a body's lock). A getter that throws and a revoked Proxy are always
 * refused; a trap the call does not use (the writing ones never are) leaves the
 * call doing what it does with the plain options.
 */
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError } from 'conversation-memory';
import { ALL_TRAPS, HostileError, makeHostile, type Hostility } from '../arbitraries/hostile';
import { optionCalls, optionsFor, usePlaces, type OptionCall } from '../support/optionCalls';

const places = usePlaces();

/** Every way an options object can throw, a throwing getter on each option the call reads. */
const hostilities = (row: OptionCall): Hostility[] => [
  ...ALL_TRAPS.map((trap): Hostility => ({ kind: 'trap', trap })),
  { kind: 'revoked' },
  ...Object.keys(row.options).map((key): Hostility => ({ kind: 'throwing getter', key })),
];

const outcome = async (run: () => unknown): Promise<{ value?: unknown; error?: unknown }> => {
  try {
    return { value: await run() };
  } catch (error) {
    return { error };
  }
};

/** A value as JSON without its clock readings (two worlds are made at different times). */
const timeless = (value: unknown): unknown =>
  value === undefined
    ? undefined
    : JSON.parse(
        JSON.stringify(value, (key, item: unknown) =>
          key === 'createdAt' || key === 'updatedAt' || key === 'savedAt' ? undefined : item,
        ),
      );

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the call does with its plain options, in a world of its own (once per call). */
const plainOutcomes = new Map<string, Promise<{ value?: unknown; error?: unknown }>>();
const plainOutcome = (row: OptionCall) => {
  let found = plainOutcomes.get(row.call);
  if (found === undefined) {
    found = (async () => {
      const subject = await row.open(places);
      try {
        return await outcome(() => subject.run(optionsFor(subject, row.options)));
      } finally {
        await subject.close?.();
      }
    })();
    plainOutcomes.set(row.call, found);
  }
  return found;
};

describe('hostile options: the call refuses them with the cause, nothing written', () => {
  for (const row of optionCalls()) {
    it.each(hostilities(row).map((h) => [JSON.stringify(h), h] as const))(
      `${row.call}: %s`,
      async (_name, hostility) => {
        const plain = await plainOutcome(row);
        // The plain call works: what the hostile one is compared with.
        expect(plain.error).toBeUndefined();

        const subject = await row.open(places);
        try {
          const before = await subject.contents?.();
          const hostile = makeHostile(optionsFor(subject, row.options), hostility);
          const result = await outcome(() => subject.run(hostile));
          if (hostility.kind === 'trap' && result.error === undefined) {
            // A trap the call does not use: it did what it does with the plain options.
            expect(timeless(result.value)).toEqual(timeless(plain.value));
            return;
          }
          const { error } = result;
          expect(error, 'the call must refuse options it cannot read').toBeInstanceOf(row.error);
          expect(isConversationMemoryError(error)).toBe(true);
          const { message, cause } = error as Error;
          const where = escape(row.where ?? 'options');
          expect(message).toMatch(
            new RegExp(
              `^\\[conversation-memory\\] ${escape(row.api)}: ${where}(\\.\\w+)? could not be read: `,
            ),
          );
          // The caller's own error is the cause: its text is shown shortened and escaped.
          if (hostility.kind === 'revoked') expect(cause).toBeInstanceOf(TypeError);
          else expect(cause).toBeInstanceOf(HostileError);
          // eslint-disable-next-line no-control-regex -- finding control characters is the point
          expect(message).not.toMatch(/[\n\u001b]/);
          // Nothing was written, deleted or changed.
          expect(await subject.contents?.()).toEqual(before);
        } finally {
          await subject.close?.();
        }
      },
    );
  }
});
