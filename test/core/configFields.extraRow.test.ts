/**
 * The config table drives its consumers: this file adds a row for a field that exists only here
 * (`testOnlyRatio`, shaped as issue #29's `trimTo`: a number above 0 and at most 1, default 1,
 * kept under the extension key), through a module mock of the table and no hook in src/, and
 * checks that createMemory, decodeConfig, reconfigure, the reconfigured action, toDict, fromDict,
 * decodeState, sameConfig and the event stores' config records all know it without a change.
 */
import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it, vi } from 'vitest';
import {
  createMemory,
  decodeAction,
  decodeConfig,
  decodeState,
  DEFAULT_CONFIG,
  fromDict,
  MemoryConfigError,
  type MemoryOptions,
  memoryActions,
  reconfigure,
  toDict,
} from 'conversation-memory';
import { encodeConfigJson, readConfigJson, sameConfig } from 'conversation-memory/store-kit';
import type * as ConfigFields from '../../src/internal/configFields';

vi.mock('../../src/internal/configFields', async (importOriginal) => {
  const original = await importOriginal<typeof ConfigFields>();
  const row = {
    name: 'testOnlyRatio',
    default: 1,
    check: (value: unknown) =>
      typeof value === 'number' && value > 0 && value <= 1
        ? undefined
        : `must be a number above 0 and at most 1, received ${String(value)}`,
    json: 'number',
    file: 'extension',
    inEveryState: false,
  };
  return { ...original, CONFIG_FIELDS: Object.freeze([...original.CONFIG_FIELDS, row]) };
});

const FIELD = 'testOnlyRatio';
/** Options that give the test-only field (which `MemoryOptions` does not know). */
const withField = (ratio: unknown, options: MemoryOptions = {}): MemoryOptions =>
  ({ ...options, [FIELD]: ratio }) as MemoryOptions;
const PROBLEM = (value: unknown) =>
  `${FIELD} must be a number above 0 and at most 1, received ${String(value)}`;
const PLACE = { key: 's1', version: 0, location: 'memory', api: 'load' } as const;
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const ratioArb = fc.oneof(
  fc.constant(1),
  fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true }),
);
const badRatioArb = fc.oneof(
  fc.double().filter((value) => !(value > 0 && value <= 1)),
  fc.constantFrom(0, -0.5, 1.5, 2, Number.POSITIVE_INFINITY),
);

const leftOf = <L>(result: E.Either<L, unknown>): L => {
  if (E.isRight(result)) throw new Error('expected a Left');
  return result.left;
};

describe('a config field added only to the table', () => {
  it('has its default, last, in DEFAULT_CONFIG and in every new config', () => {
    expect((DEFAULT_CONFIG as unknown as Record<string, unknown>)[FIELD]).toBe(1);
    expect(Object.keys(createMemory().config).at(-1)).toBe(FIELD);
    expect(createMemory().config).toEqual(DEFAULT_CONFIG);
    // At its default, a file says nothing more than the reference's keys.
    expect(toDict(createMemory())).not.toHaveProperty('conversation_memory');
  });

  it('is an option that createMemory lists and suggests', () => {
    expect(() => createMemory({ testOnlyRatoi: 0.5 } as never)).toThrow(
      'testOnlyRatoi is not an option (did you mean testOnlyRatio?); expected maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem, prune, pruneThreshold, embedder, trimTo, testOnlyRatio',
    );
  });

  it('property: any valid value goes through every consumer', () => {
    fc.assert(
      fc.property(ratioArb, (ratio) => {
        const options = withField(ratio, { tokenizer: 'heuristic' });
        const state = createMemory(options);
        const config = state.config as unknown as Record<string, unknown>;
        expect(config[FIELD]).toBe(ratio);
        expect(decodeConfig(options)).toEqual(E.right(state.config));
        expect(readConfigJson(encodeConfigJson(state.config), PLACE)).toEqual(state.config);

        const dict = json(toDict(state));
        expect(dict.conversation_memory).toEqual(
          ratio === 1
            ? { tokenizer: 'heuristic' }
            : { tokenizer: 'heuristic', test_only_ratio: ratio },
        );
        expect(fromDict(dict)).toEqual(E.right(state));
        expect(decodeState(json(state))).toEqual(E.right(state));

        const base = createMemory({ tokenizer: 'heuristic' });
        expect(sameConfig(base.config, state.config)).toBe(ratio === 1);
        const { state: next, effects } = reconfigure(base, withField(ratio));
        expect(next.config).toEqual(state.config);
        expect(effects.map((effect) => effect.type)).toEqual(
          ratio === 1 ? [] : ['memory/reconfigured'],
        );
        const action = memoryActions.reconfigured(withField(ratio));
        expect(decodeAction(json(action))).toEqual(E.right(action));
      }),
      { numRuns: 100 },
    );
  });

  it('property: a value its check refuses is refused by every consumer, naming it', () => {
    const stored = json(createMemory({ tokenizer: 'heuristic' }));
    const file = json(toDict(createMemory({ tokenizer: 'heuristic' })));
    fc.assert(
      fc.property(badRatioArb, (ratio) => {
        const options = withField(ratio);
        expect(() => createMemory(options)).toThrow(MemoryConfigError);
        expect(() => createMemory(options)).toThrow(PROBLEM(ratio));
        expect(() => reconfigure(stored, options)).toThrow(PROBLEM(ratio));
        expect(() => memoryActions.reconfigured(options)).toThrow(PROBLEM(ratio));
        expect(leftOf(decodeConfig(options)).problems).toEqual([PROBLEM(ratio)]);
        const withRatio = { ...file, conversation_memory: { test_only_ratio: ratio } };
        expect(leftOf(fromDict(withRatio)).problems).toEqual([
          `conversation_memory.test_only_ratio must be a number above 0 and at most 1, received ${String(ratio)}`,
        ]);
        const config = { ...stored.config, [FIELD]: ratio };
        expect(leftOf(decodeState({ ...stored, config })).problems).toEqual([
          `config.${PROBLEM(ratio)}`,
        ]);
      }),
      { numRuns: 100 },
    );
  });

  it('is refused by its JSON type in a file, and absent from states stored before it', () => {
    const file = json(toDict(createMemory()));
    expect(
      leftOf(fromDict({ ...file, conversation_memory: { test_only_ratio: '0.5' } })).problems,
    ).toEqual(['conversation_memory.test_only_ratio: expected number, got "0.5"']);
    const stored = json(createMemory({ tokenizer: 'heuristic' }));
    const before = Object.fromEntries(
      Object.entries(stored.config).filter(([key]) => key !== FIELD),
    );
    expect(decodeState({ ...stored, config: before })).toEqual(E.right(stored));
  });
});
