/**
 * Deep-freezes a value in place (objects and arrays, recursively, even under an already frozen
 * parent) and returns it, so a reducer that writes to its input throws a `TypeError` (modules are
 * strict code) instead of mutating it quietly.
 */
export const deepFreeze = <T>(value: T): T => {
  if (typeof value !== 'object' || value === null) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
};
