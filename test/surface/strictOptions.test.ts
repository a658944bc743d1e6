/**
 * Misspelled options are refused, not ignored (issue #17 §3, first slice): one shared check
 * names the key, the call and a did-you-mean. The cases users hit: `createAgent({ memroy })`
 * made an agent without memory, `createAgent({ systemPrompt })` ignored the prompt,
 * `new InMemorySessionStore({ ttl })` kept sessions forever, `createEventLog(c, { snapshotevery })`
 * used the default distance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AgentConfigError,
  ConversationMemory,
  createAgent,
  createEventLog,
  InMemorySessionStore,
  MemoryArgumentError,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { suggestOption, unknownOption } from '../../src/util/unknownOption';

const provider = new LocalProvider();

describe('strict options', () => {
  it('createAgent refuses a misspelled option, and a config field given at the top level', () => {
    const memory = new ConversationMemory();
    expect(() => createAgent({ provider, memroy: memory } as never)).toThrow(AgentConfigError);
    expect(() => createAgent({ provider, memroy: memory } as never)).toThrow(
      'createAgent: options.memroy is not an option (did you mean memory?); expected provider, tools, memory, session, eventStore, config, observers',
    );
    expect(() => createAgent({ provider, systemPrompt: 'Be brief.' } as never)).toThrow(
      'options.systemPrompt is not an option (did you mean config.systemPrompt?)',
    );
    expect(() => createAgent({ provider, config: { max_iterations: 3 } } as never)).toThrow(
      'options.config.max_iterations is not an option (did you mean maxIterations?)',
    );
    // Known options still work.
    expect(createAgent({ provider, memory, config: { systemPrompt: 'x' } }).memory).toBe(memory);
  });

  it('InMemorySessionStore refuses { ttl }, which would have kept sessions forever', () => {
    expect(() => new InMemorySessionStore({ ttl: 60 } as never)).toThrow(MemoryArgumentError);
    expect(() => new InMemorySessionStore({ ttl: 60 } as never)).toThrow(
      'options.ttl is not an option (did you mean defaultTtl?); expected defaultTtl, now',
    );
    expect(() => new InMemorySessionStore({ defaultTtl: 60 })).not.toThrow();
  });

  it('createEventLog refuses { snapshotevery }', () => {
    expect(() => createEventLog({}, { snapshotevery: 8 } as never)).toThrow(
      'createEventLog: options.snapshotevery is not an option (did you mean snapshotEvery?); expected snapshotEvery',
    );
    expect(createEventLog({}, { snapshotEvery: 8 }).snapshotEvery).toBe(8);
  });

  it('a key that is not an identifier is quoted and escaped', () => {
    expect(unknownOption({ 'a\u001b[31mb': 1 }, ['memory'], 'options')).toBe(
      'options["a\\u001b[31mb"] is not an option; expected memory',
    );
  });

  it('property: every known key passes; a key one edit away from a known one is suggested', () => {
    const known = ['provider', 'memory', 'defaultTtl', 'snapshotEvery', 'observers'];
    fc.assert(
      fc.property(
        fc.constantFrom(...known),
        fc.nat(),
        fc.constantFrom('a', 'z', 'X', '_'),
        (name, at, letter) => {
          expect(unknownOption({ [name]: 1 }, known, 'options')).toBeUndefined();
          const i = at % name.length;
          const typo = name.slice(0, i) + letter + name.slice(i + 1);
          if (known.includes(typo)) return;
          expect(suggestOption(typo, known)).toBe(name);
          expect(unknownOption({ [typo]: 1 }, known, 'options')).toContain(`did you mean ${name}?`);
        },
      ),
    );
  });
});
