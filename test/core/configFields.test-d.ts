import { describe, expectTypeOf, it } from 'vitest';
import type { ExtensionDict, MemoryConfig, MemoryOptions } from 'conversation-memory';

/** A camelCase name in snake_case, as a memory file names a config field (`prune_threshold`). */
type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

describe('the public config types', () => {
  it('MemoryOptions has every field of MemoryConfig, optional, of the same type', () => {
    expectTypeOf<keyof MemoryOptions>().toEqualTypeOf<keyof MemoryConfig>();
    expectTypeOf<{
      readonly [K in keyof MemoryOptions]-?: Exclude<MemoryOptions[K], undefined>;
    }>().toEqualTypeOf<MemoryConfig>();
  });

  it('ExtensionDict has a key for every field other than the reference two', () => {
    type Extension = Snake<Exclude<keyof MemoryConfig, 'maxMessages' | 'maxTokens'>>;
    expectTypeOf<Extension>().toExtend<keyof ExtensionDict>();
    expectTypeOf<'tool_pairs' | 'prune_threshold'>().toExtend<Extension>();
  });
});
