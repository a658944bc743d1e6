import type { MemoryConfig, MemoryOptions } from 'conversation-memory';

/**
 * A conversation's options: the slice's checked defaults, with every own key of `config` whose
 * value is not `undefined` over them (`undefined` keeps the slice's default, where `createMemory`
 * would take the library's). Anything that is not a plain record is returned as it is, for
 * `createMemory` to reject with its own message; keys are copied as data, so a `__proto__` key is
 * reported as an unknown option instead of changing the prototype.
 *
 * @param defaults - the slice's `defaultConfig`, checked
 * @param config - the `config` of a `conversationCreated`
 * @returns the options to give `createMemory`
 * @internal
 */
export const withDefaults = (defaults: MemoryConfig, config: unknown): MemoryOptions => {
  if (config === undefined) return defaults;
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return config as MemoryOptions;
  }
  try {
    const merged: Record<string, unknown> = { ...defaults };
    for (const key of Object.keys(config)) {
      const value = (config as Record<string, unknown>)[key];
      if (value !== undefined) {
        Object.defineProperty(merged, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return merged as MemoryOptions;
  } catch {
    // A getter or Proxy trap threw: createMemory reads the config again and says so.
    return config as MemoryOptions;
  }
};
