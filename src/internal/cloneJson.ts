import type { JsonObject, JsonValue } from '../model/message';
import { describeValue } from './describeValue';
import { isPlainObject } from './isPlainObject';
import { keySegment } from './escapeText';
import { shortenPath } from './shortenPath';

/**
 * Thrown by {@link cloneJsonObject} with the path of the first non-JSON value; callers turn it
 * into their own error class.
 *
 * @internal
 */
export class NotJsonError extends Error {
  /** What is wrong, without the path: `expected a JSON value, got a Date`, `circular reference`. */
  readonly reason: string;
  constructor(
    readonly path: string,
    readonly value: unknown,
    reason?: string,
  ) {
    const why = reason ?? `expected a JSON value, got ${describeValue(value)}`;
    super(path === '' ? why : `${shortenPath(path)}: ${why}`);
    this.reason = why;
  }
}

/** Containers may nest this many levels deep, the root object included. */
const MAX_DEPTH = 200;

/** Thrown on the fast path, which builds no path strings; the slow path then finds the culprit. */
const NOT_JSON: unique symbol = Symbol('not JSON');

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

/** Copies a value found at `depth` (the root object is at depth 0). */
const cloneValue = (value: unknown, depth: number): JsonValue => {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON has no -0 (JSON.stringify writes 0); store 0 so state stays JSON-exact.
      if (Number.isFinite(value)) return value === 0 ? 0 : value;
      throw NOT_JSON;
    case 'object':
      if (value === null) return null;
      if (depth >= MAX_DEPTH) throw NOT_JSON;
      if (Array.isArray(value)) {
        const out = new Array<JsonValue>(value.length);
        for (let i = 0; i < value.length; i++) out[i] = cloneValue(value[i], depth + 1);
        return Object.freeze(out);
      }
      if (isPlainObject(value)) return cloneObject(value, depth);
      throw NOT_JSON;
    default:
      throw NOT_JSON;
  }
};

/** Copies a plain object found at `depth`. */
const cloneObject = (value: Record<string, unknown>, depth: number): JsonObject => {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    // JSON.stringify drops undefined members of objects; so do we, keeping state JSON-exact.
    if (item !== undefined) defineOwn(out, key, cloneValue(item, depth + 1));
  }
  return Object.freeze(out) as JsonObject;
};

/** The path of a member: input keys are shortened and escaped (`a.b`, `a["odd\\nkey"]`). */
const child = (path: string, key: string): string => {
  const segment = keySegment(key);
  return path === '' && segment.startsWith('.') ? segment.slice(1) : `${path}${segment}`;
};

/**
 * The slow path, run only after a failure: the path of the first value JSON cannot hold, with
 * cycles named as such (`ancestors` holds the objects on the way down).
 */
const findNonJson = (
  value: unknown,
  path: string,
  ancestors: object[],
): NotJsonError | undefined => {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : new NotJsonError(path, value);
  }
  if (typeof value !== 'object') return new NotJsonError(path, value);
  if (ancestors.includes(value)) return new NotJsonError(path, value, 'circular reference');
  // The value's depth is the number of containers above it, as in cloneValue.
  if (ancestors.length >= MAX_DEPTH) {
    return new NotJsonError(path, value, `nested deeper than ${MAX_DEPTH} levels`);
  }
  if (!Array.isArray(value) && !isPlainObject(value)) return new NotJsonError(path, value);
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const found = findNonJson(value[i], `${path}[${i}]`, ancestors);
        if (found) return found;
      }
      return undefined;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (record[key] === undefined) continue;
      const found = findNonJson(record[key], child(path, key), ancestors);
      if (found) return found;
    }
    return undefined;
  } finally {
    ancestors.pop();
  }
};

/**
 * Deep-copies a JSON object into frozen plain objects. Rejects what JSON cannot carry (functions,
 * `Date`, `Map`, `NaN`, nesting deeper than 200 levels, which includes cycles) by throwing
 * {@link NotJsonError} with the path of the culprit; drops `undefined` members, as
 * `JSON.stringify` does. `__proto__` keys stay own data keys.
 *
 * @param value - the object to copy
 * @param path - how errors name it (`message.toolCalls[0].parameters`), or `''` for paths
 *   relative to it
 * @internal
 */
export const cloneJsonObject = (value: unknown, path: string): JsonObject => {
  if (!isPlainObject(value)) {
    throw new NotJsonError(path, value, `expected a JSON object, got ${describeValue(value)}`);
  }
  try {
    return cloneObject(value, 0);
  } catch (error) {
    if (error !== NOT_JSON) throw error;
    throw findNonJson(value, path, []) ?? new NotJsonError(path, value);
  }
};
