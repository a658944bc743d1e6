import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  createMemory,
  decodeAction,
  decodeConfig,
  decodeState,
  DEFAULT_CONFIG,
  fromDict,
  type MemoryConfig,
  MemoryConfigError,
  type MemoryState,
  memoryActions,
  reconfigure,
  toDict,
} from 'conversation-memory';
import { registerEmbedder } from 'conversation-memory/pruning';
import { encodeConfigJson, readConfigJson, sameConfig } from 'conversation-memory/store-kit';
import { CONFIG_FIELDS, fileKey, type ConfigField } from '../../src/internal/configFields';
import { anyConfigArb, CONFIG_VALUE_ARBS, TEST_EMBEDDER } from '../arbitraries/configFields';

registerEmbedder(TEST_EMBEDDER, (text) => [text.length, 1]);

const NAMES = CONFIG_FIELDS.map((field) => field.name);

/**
 * Where a memory file keeps each field: the persisted format (the reference's two keys at the
 * root, ours under `conversation_memory`), written out here so that the table cannot move a
 * field in files without a test saying so.
 */
const FILE_PATHS: { readonly [K in keyof MemoryConfig]: string } = {
  maxMessages: 'max_messages',
  maxTokens: 'max_tokens',
  tokenizer: 'conversation_memory.tokenizer',
  toolPairs: 'conversation_memory.tool_pairs',
  startOn: 'conversation_memory.start_on',
  pinSystem: 'conversation_memory.pin_system',
  prune: 'conversation_memory.prune',
  pruneThreshold: 'conversation_memory.prune_threshold',
  embedder: 'conversation_memory.embedder',
  trimTo: 'conversation_memory.trim_to',
};

/** The value at a dotted path of a file (`conversation_memory.tool_pairs`). */
const at = (dict: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], dict);

/** A file with `value` at `path` (the extension key made when the file has none). */
const withValue = (dict: Record<string, unknown>, path: string, value: unknown) => {
  const [first, second] = path.split('.') as [string, string | undefined];
  if (second === undefined) return { ...dict, [first]: value };
  return { ...dict, [first]: { ...(dict[first] as object | undefined), [second]: value } };
};

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const PLACE = { key: 's1', version: 0, location: 'memory', api: 'load' } as const;

/** A field and a value of it that differs from the one a config has. */
const fieldChangeArb = fc
  .tuple(anyConfigArb, fc.constantFrom(...CONFIG_FIELDS))
  .chain(([config, field]) =>
    (CONFIG_VALUE_ARBS[field.name] as fc.Arbitrary<unknown>)
      .filter((value) => value !== config[field.name])
      .map((value) => ({ config, field, value })),
  );

/** A field and a value its check refuses (`undefined` means "the default", so it is not one). */
const badValueArb = fc.constantFrom(...CONFIG_FIELDS).chain((field: ConfigField) =>
  fc
    .oneof(
      fc.anything(),
      fc.double(),
      fc.integer(),
      fc.string(),
      fc.constantFrom('USER', 'Strict', 'redundant ', 'heuristics', 0, -1, 1.5, 2, 'true', NaN),
    )
    .filter((value) => value !== undefined && field.check(value) !== undefined)
    .map((value) => ({ field, value })),
);

const leftOf = <L>(result: E.Either<L, unknown>): L => {
  if (E.isRight(result)) throw new Error('expected a Left');
  return result.left;
};

describe('the config table', () => {
  it('has one row per field of DEFAULT_CONFIG, in its order, with its default', () => {
    expect(NAMES).toEqual(Object.keys(DEFAULT_CONFIG));
    expect(new Set(NAMES).size).toBe(NAMES.length);
    for (const field of CONFIG_FIELDS) expect(DEFAULT_CONFIG[field.name]).toBe(field.default);
    expect(Object.keys(createMemory().config)).toEqual(NAMES);
  });

  it('places each field in a file where the persisted format keeps it', () => {
    for (const { name, file } of CONFIG_FIELDS) {
      const place = file === 'extension' ? 'conversation_memory.' : '';
      expect(`${place}${fileKey(name)}`).toBe(FILE_PATHS[name]);
    }
    // The reference's format has max_messages (required by its from_dict) and max_tokens.
    expect(CONFIG_FIELDS.filter((field) => field.file !== 'extension')).toMatchObject([
      { name: 'maxMessages', file: 'required' },
      { name: 'maxTokens', file: 'reference' },
    ]);
  });

  it("gives every consumer the table's list of fields", () => {
    expect(() => createMemory({ maxMesages: 5 } as never)).toThrow(
      `maxMesages is not an option (did you mean maxMessages?); expected ${NAMES.join(', ')}`,
    );
    expect(leftOf(decodeConfig({ odd: 1 })).problems).toEqual([
      `odd is not an option; expected ${NAMES.join(', ')}`,
    ]);
    const stored = json(createMemory({ tokenizer: 'heuristic' }));
    for (const { name, inEveryState } of CONFIG_FIELDS) {
      const config = Object.fromEntries(
        Object.entries(stored.config).filter(([key]) => key !== name),
      );
      const decoded = decodeState({ ...stored, config });
      if (inEveryState) {
        expect(leftOf(decoded).problems).toEqual([`config.${name}: missing`]);
      } else {
        // A state stored before the field existed gets its default.
        expect(decoded).toEqual(E.right(stored));
      }
    }
    expect(
      leftOf(decodeState({ ...stored, config: { ...stored.config, odd: 1 } })).problems,
    ).toEqual(['config.odd: not a config field']);
  });

  it('property: a config of any valid values goes through every consumer unchanged', () => {
    fc.assert(
      fc.property(anyConfigArb, (config) => {
        const state = createMemory(config);
        expect(state.config).toEqual(config);
        expect(Object.keys(state.config)).toEqual(NAMES);
        expect(decodeConfig(config)).toEqual(E.right(state.config));
        expect(sameConfig(state.config, { ...config })).toBe(true);
        expect(reconfigure(createMemory(), config).state.config).toEqual(config);
        expect(readConfigJson(encodeConfigJson(state.config), PLACE)).toEqual(config);

        const dict = json(toDict(state));
        for (const { name, file } of CONFIG_FIELDS) {
          // The reference's keys always; ours only when they differ from the default.
          const written = file !== 'extension' || config[name] !== DEFAULT_CONFIG[name];
          expect(at(dict, FILE_PATHS[name])).toEqual(written ? config[name] : undefined);
        }
        const loaded = fromDict(dict);
        expect(E.isRight(loaded) && loaded.right.config).toEqual(config);
        const decoded = decodeState(json(state));
        expect(E.isRight(decoded) && Object.keys(decoded.right.config)).toEqual(NAMES);
        expect(decoded).toEqual(E.right(state));
      }),
      { numRuns: 100 },
    );
  });

  it('property: a change of any one field is seen by sameConfig, toDict and reconfigure', () => {
    fc.assert(
      fc.property(fieldChangeArb, ({ config, field, value }) => {
        const changed = { ...config, [field.name]: value } as MemoryConfig;
        expect(sameConfig(config, changed)).toBe(false);
        const state = createMemory(config);
        const { state: next, effects } = reconfigure(state, { [field.name]: value });
        expect(next.config).toEqual(changed);
        expect(effects[0]).toMatchObject({
          type: 'memory/reconfigured',
          from: config,
          to: changed,
        });
        const omitted = field.file === 'extension' && value === DEFAULT_CONFIG[field.name];
        expect(at(json(toDict(next)), FILE_PATHS[field.name])).toEqual(omitted ? undefined : value);
      }),
      { numRuns: 100 },
    );
  });

  it("property: a value a field's check refuses is refused by every consumer, naming the field", () => {
    const stored: MemoryState = json(createMemory({ tokenizer: 'heuristic' }));
    const file = json(toDict(createMemory({ tokenizer: 'heuristic' }))) as unknown as Record<
      string,
      unknown
    >;
    fc.assert(
      fc.property(badValueArb, ({ field, value }) => {
        const problem = `${field.name} ${field.check(value)}`;
        const options = { [field.name]: value };
        for (const call of [
          () => createMemory(options),
          () => reconfigure(stored, options),
          () => memoryActions.reconfigured(options),
        ]) {
          expect(call).toThrow(MemoryConfigError);
          expect(() => call()).toThrow(problem);
        }
        expect(leftOf(decodeConfig(options)).problems).toEqual([problem]);
        expect(E.isLeft(decodeAction({ type: 'memory/reconfigured', payload: options }))).toBe(
          true,
        );
        // In a file, at its key: refused by its JSON type or by its check.
        const path = FILE_PATHS[field.name];
        const fromFile = leftOf(fromDict(withValue(file, path, value))).problems;
        expect(fromFile.some((line) => line.startsWith(path))).toBe(true);
        // In a stored state: refused, named by the state's own field.
        const config = { ...stored.config, [field.name]: value };
        const fromState = leftOf(decodeState({ ...stored, config })).problems;
        expect(fromState.some((line) => line.startsWith(`config.${field.name}`))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
