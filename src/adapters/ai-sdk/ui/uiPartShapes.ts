import type { JsonObject, JsonValue } from 'conversation-memory';

/**
 * Where `fromUIMessages` keeps, in each message's `metadata`, what it needs to give the same UI
 * message back: `metadata.ui = { metadata?, parts }`. `parts` lists the UI parts the message came
 * from, in order: a part the model never sees (`reasoning`, `source-url`, `source-document`,
 * `data-*`, `step-start`, a file that is not an image) whole, and a part the message holds
 * (`text`, an image `file`, a tool part) without what the message holds of it (its `text`, its
 * `url`, its `input`/`output`/`errorText`). `metadata` is the UI message's own, on the first
 * message made from it.
 *
 * @internal
 */
export const UI_KEY = 'ui';

/** What `metadata.ui` holds. @internal */
export interface UIRecord {
  readonly metadata?: JsonValue;
  readonly parts: readonly JsonObject[];
}

/** The deepest nesting of JSON a UI message may hold (parts, inputs, outputs, metadata). */
const MAX_DEPTH = 64;

/**
 * Whether `value` is JSON (no functions, `undefined` only as an absent object key, finite
 * numbers, plain objects and arrays, not too deep).
 *
 * @internal
 */
export const isJson = (value: unknown, depth = 0): value is JsonValue => {
  if (depth > MAX_DEPTH) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((item) => item === undefined || isJson(item, depth + 1));
};

/**
 * A copy of a JSON object without the given keys and without keys whose value is `undefined`.
 *
 * @internal
 */
export const without = (
  part: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): JsonObject => {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(part)) {
    if (!keys.includes(key) && value !== undefined) out[key] = value as JsonValue;
  }
  return out;
};

/** The tool name of a tool part (`tool-${name}`, or `dynamic-tool` with `toolName`). @internal */
export const toolNameOf = (part: Readonly<Record<string, unknown>>): string =>
  part['type'] === 'dynamic-tool' ? String(part['toolName']) : String(part['type']).slice(5);

/** Whether a part is a tool part. @internal */
export const isToolPart = (type: string): boolean =>
  type.startsWith('tool-') || type === 'dynamic-tool';

/** The parts the model never sees, kept whole in `metadata.ui`. @internal */
export const isKeptPart = (type: string): boolean =>
  type === 'reasoning' ||
  type === 'source-url' ||
  type === 'source-document' ||
  type === 'step-start' ||
  type.startsWith('data-');
