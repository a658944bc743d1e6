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
  createMemory,
  InMemorySessionStore,
  MemoryArgumentError,
  MemoryConfigError,
} from 'conversation-memory';
import { createConversationsSlice } from 'conversation-memory/redux';
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

  it('createMemory keeps its messages, and now suggests a near miss too', () => {
    // The message users and hidden checks compare: unchanged for snake_case keys.
    expect(() => createMemory({ max_messages: 3 } as never)).toThrow(
      '[conversation-memory] createMemory: max_messages is not an option (did you mean maxMessages?); expected maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem, prune, pruneThreshold, embedder, trimTo',
    );
    // New: a misspelling gets the same did-you-mean as every other options object.
    expect(() => createMemory({ maxTokns: 3 } as never)).toThrow(
      'createMemory: maxTokns is not an option (did you mean maxTokens?)',
    );
    // Nothing is suggested for a key far from every option.
    expect(() => createMemory({ colour: 'red' } as never)).toThrow(
      'createMemory: colour is not an option; expected maxMessages',
    );
  });

  it("the redux slice's defaultConfig errors name createConversationsSlice and the field", () => {
    expect(() => createConversationsSlice({ defaultConfig: { max_messages: 3 } } as never)).toThrow(
      '[conversation-memory] createConversationsSlice: options.defaultConfig.max_messages is not an option (did you mean maxMessages?)',
    );
    expect(() => createConversationsSlice({ defaultConfig: { maxMessages: 0 } })).toThrow(
      MemoryConfigError,
    );
    expect(() => createConversationsSlice({ defaultConfig: { maxMessages: 0 } })).toThrow(
      'createConversationsSlice: options.defaultConfig.maxMessages must be',
    );
    expect(() => createConversationsSlice({ defaultConfig: 'big' } as never)).toThrow(
      'createConversationsSlice: options.defaultConfig must be an object',
    );
  });
});

/** A key one typing slip away from `name`: a letter changed, dropped, added or swapped. */
const nearMiss = (): fc.Arbitrary<(name: string) => string> =>
  fc.oneof(
    fc
      .tuple(fc.nat(), fc.constantFrom('a', 'q', 'z', 'X'))
      .map(([at, letter]) => (name: string) => {
        const i = at % name.length;
        return name.slice(0, i) + letter + name.slice(i + 1);
      }),
    fc.nat().map((at) => (name: string) => {
      const i = at % name.length;
      return name.slice(0, i) + name.slice(i + 1);
    }),
    fc.tuple(fc.nat(), fc.constantFrom('e', 's', '_')).map(([at, letter]) => (name: string) => {
      const i = at % (name.length + 1);
      return name.slice(0, i) + letter + name.slice(i);
    }),
    fc.nat().map((at) => (name: string) => {
      const i = at % (name.length - 1);
      return name.slice(0, i) + name.charAt(i + 1) + name.charAt(i) + name.slice(i + 2);
    }),
    fc.constant((name: string) => name.toLowerCase()),
    fc.constant((name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
  );

/** The error `run` throws, or `undefined`. */
const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('property: near-miss keys are refused with the option meant', () => {
  const memoryOptions = [
    'maxMessages',
    'maxTokens',
    'tokenizer',
    'toolPairs',
    'startOn',
    'pinSystem',
  ];
  const agentOptions = [
    'provider',
    'tools',
    'memory',
    'session',
    'eventStore',
    'config',
    'observers',
  ];

  it('createMemory', () => {
    fc.assert(
      fc.property(fc.constantFrom(...memoryOptions), nearMiss(), (name, slip) => {
        const key = slip(name);
        fc.pre(!memoryOptions.includes(key));
        const error = thrown(() => createMemory({ [key]: 1 } as never));
        expect(error).toBeInstanceOf(MemoryConfigError);
        expect((error as Error).message).toContain(
          `createMemory: ${key} is not an option (did you mean ${name}?)`,
        );
      }),
    );
  });

  it('createAgent', () => {
    fc.assert(
      fc.property(fc.constantFrom(...agentOptions), nearMiss(), (name, slip) => {
        const key = slip(name);
        fc.pre(!agentOptions.includes(key));
        const error = thrown(() => createAgent({ provider, [key]: 1 } as never));
        expect(error).toBeInstanceOf(AgentConfigError);
        expect((error as Error).message).toContain(
          `createAgent: options.${key} is not an option (did you mean ${name}?)`,
        );
      }),
    );
  });
});
