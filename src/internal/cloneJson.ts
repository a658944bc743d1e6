import type { JsonObject, JsonValue } from '../model/message';
import { describeValue } from './describeValue';
import { isPlainObject } from './isPlainObject';

/**
 * Thrown inside {@link cloneJsonObject} with the path of the first non-JSON value; callers turn
 * it into their own error class.
 *
 * @internal
 */
export class NotJsonError extends Error {
  constructor(
    readonly path: string,
    readonly value: unknown,
  ) {
    super(`${path}: expected a JSON value, got ${describeValue(value)}`);
  }
}

/** Sets an own data property even for the key `__proto__`, so input can never pollute prototypes. */
const defineOwn = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
};

const cloneValue = (value: unknown, path: string, depth: number): JsonValue => {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw new NotJsonError(path, value);
  }
  if (depth > 200) throw new NotJsonError(path, value);
  if (Array.isArray(value)) {
    const out: JsonValue[] = new Array<JsonValue>(value.length);
    for (let i = 0; i < value.length; i++)
      out[i] = cloneValue(value[i], `${path}[${i}]`, depth + 1);
    return Object.freeze(out);
  }
  if (isPlainObject(value)) return cloneObject(value, path, depth + 1);
  throw new NotJsonError(path, value);
};

const cloneObject = (value: Record<string, unknown>, path: string, depth: number): JsonObject => {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    // JSON.stringify drops undefined members of objects; so do we, keeping state JSON-exact.
    if (item === undefined) continue;
    defineOwn(out, key, cloneValue(item, `${path}.${key}`, depth));
  }
  return Object.freeze(out) as JsonObject;
};

/**
 * Deep-copies a JSON object into frozen plain objects. Rejects what JSON cannot carry (functions,
 * `Date`, `Map`, `NaN`, cycles deeper than 200 levels) by throwing {@link NotJsonError}; drops
 * `undefined` members, as `JSON.stringify` does. `__proto__` keys stay own data keys.
 *
 * @internal
 */
export const cloneJsonObject = (value: unknown, path: string): JsonObject => {
  if (!isPlainObject(value)) throw new NotJsonError(path, value);
  return cloneObject(value, path, 0);
};
