import type { MemoryConfig } from '../model/config';
import { CONFIG_FIELDS } from './configFields';

/**
 * The defaults: the reference's `max_messages=20`, `max_tokens=None` and trimming rules (oldest
 * first), and the GPT-4o encoding.
 *
 * @example
 * ```ts
 * DEFAULT_CONFIG.maxMessages; // 20
 * ```
 */
export const DEFAULT_CONFIG: MemoryConfig = /* @__PURE__ */ (() => {
  // Each field's default, from its row in the config table.
  const config: Record<string, unknown> = {};
  for (const field of CONFIG_FIELDS) config[field.name] = field.default;
  return Object.freeze(config as unknown as MemoryConfig);
})();
