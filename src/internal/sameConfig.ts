import type { MemoryConfig } from '../model/config';
import { CONFIG_FIELDS } from './configFields';

/**
 * Whether two configs are the same (every field of the config table, each a JSON primitive
 * compared with `===`).
 *
 * @internal
 */
export const sameConfig = (a: MemoryConfig, b: MemoryConfig): boolean => {
  for (const { name } of CONFIG_FIELDS) if (a[name] !== b[name]) return false;
  return true;
};
