import type { JsonObject, JsonValue } from '../model/message';
import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';
import { keySegment } from '../util/escapeText';
import { shortenPath } from '../util/shortenPath';

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

/**
 * Where the copy is: the keys and containers on the way down from the root. Paths are rendered
 * only when a value fails, so the happy path builds no strings; each value is read once.
 */
interface Walk {
  readonly root: string;
  readonly keys: (string | number)[];
  readonly containers: object[];
}

const pathOf = (walk: Walk): string => {
  let path = walk.root;
  for (const key of walk.keys) {
    if (typeof key === 'number') path += `[${key}]`;
    else {
      // Input keys are shortened and escaped (`a.b`, `a["odd\nkey"]`).
      const segment = keySegment(key);
      path += path === '' && segment.startsWith('.') ? segment.slice(1) : segment;
    }
  }
  return path;
};

const notJson = (walk: Walk, value: unknown, reason?: string): NotJsonError =>
  new NotJsonError(pathOf(walk), value, reason);

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

/** Copies a value found at the end of `walk`. */
const cloneValue = (value: unknown, walk: Walk): JsonValue => {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON has no -0 (JSON.stringify writes 0); store 0 so state stays JSON-exact.
      if (Number.isFinite(value)) return value === 0 ? 0 : value;
      throw notJson(walk, value);
    case 'object':
      if (value === null) return null;
      return cloneContainer(value, walk);
    default:
      throw notJson(walk, value);
  }
};

/** Copies an array or a plain object, checking for cycles and depth on the way in. */
const cloneContainer = (value: object, walk: Walk): JsonValue => {
  const { keys, containers } = walk;
  if (containers.includes(value)) throw notJson(walk, value, 'circular reference');
  // The value's depth is the number of containers above it; the root object is at depth 0.
  if (containers.length >= MAX_DEPTH) {
    throw notJson(walk, value, `nested deeper than ${MAX_DEPTH} levels`);
  }
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) throw notJson(walk, value);
  containers.push(value);
  let out: JsonValue;
  if (isArray) {
    const items = value as readonly unknown[];
    const length = items.length;
    const copy = new Array<JsonValue>(length);
    for (let i = 0; i < length; i++) {
      keys.push(i);
      copy[i] = cloneValue(items[i], walk);
      keys.pop();
    }
    out = Object.freeze(copy);
  } else {
    const record = value as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      const item = record[key];
      // JSON.stringify drops undefined members of objects; so do we, keeping state JSON-exact.
      if (item === undefined) continue;
      keys.push(key);
      defineOwn(copy, key, cloneValue(item, walk));
      keys.pop();
    }
    out = Object.freeze(copy) as JsonObject;
  }
  containers.pop();
  return out;
};

/**
 * Deep-copies a JSON object into frozen plain objects, reading each value once. Rejects what JSON
 * cannot carry (functions, `Date`, `Map`, `NaN`, cycles, nesting deeper than 200 levels) by
 * throwing {@link NotJsonError} with the path of the culprit; drops `undefined` members, as
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
  return cloneContainer(value, { root: path, keys: [], containers: [] }) as JsonObject;
};
