import * as t from 'io-ts';
import { cloneJsonObject, NotJsonError } from '../internal/cloneJson';
import { shortenPath } from '../util/shortenPath';
import type { JsonObject } from '../model/message';

/** The failure for a value that is not JSON: the reason, and where inside the value it is. */
const notJson = (
  u: unknown,
  c: t.Context,
  error: NotJsonError,
  inner: string,
): t.Validation<never> =>
  t.failure(u, c, inner === '' ? error.reason : `${error.reason} at ${shortenPath(inner)}`);

/**
 * A JSON object (tool-call arguments), deep-copied into frozen own-key objects, each value read
 * once; `__proto__` stays data. Anything else fails with the path of the first non-JSON value.
 *
 * @internal
 */
export const JsonObjectCodec = /* @__PURE__ */ new t.Type<JsonObject, JsonObject, unknown>(
  'JSON object',
  (u): u is JsonObject => typeof u === 'object' && u !== null && !Array.isArray(u),
  (u, c) => {
    try {
      return t.success(cloneJsonObject(u, ''));
    } catch (error) {
      if (!(error instanceof NotJsonError)) throw error;
      return notJson(u, c, error, error.path);
    }
  },
  t.identity,
);

/**
 * Any JSON value, decoded to its JSON text (`JSON.stringify` of a checked copy, so a getter or a
 * `toJSON` of the input is never run by the stringify). For a tool's structured output, which
 * our messages keep as text.
 *
 * @internal
 */
export const JsonTextCodec = /* @__PURE__ */ new t.Type<string, string, unknown>(
  'JSON value',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (u === undefined) return t.failure(u, c);
    try {
      // Wrapped so that arrays and scalars go through the same checked copy as objects.
      const copy = cloneJsonObject({ value: u }, '');
      return t.success(JSON.stringify(copy['value'] ?? null));
    } catch (error) {
      if (!(error instanceof NotJsonError)) throw error;
      return notJson(u, c, error, error.path.replace(/^value\.?/, ''));
    }
  },
  t.identity,
);
