import * as t from 'io-ts';
import { cloneJsonObject, NotJsonError } from '../internal/cloneJson';
import { shortenPath } from '../internal/shortenPath';
import type { JsonObject } from '../model/message';

/**
 * An io-ts codec for a JSON object (a tool call's arguments), deep-copied into frozen own-key
 * objects, so `__proto__` stays data and pollutes nothing, each value is read once, and nesting,
 * cycles and non-JSON values (`NaN`, a `Date`) are rejected with their path
 * (`expected a JSON object, got "x"`, `expected a JSON value, got NaN at a.b`).
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
      return t.failure(
        u,
        c,
        error.path === '' ? error.reason : `${error.reason} at ${shortenPath(error.path)}`,
      );
    }
  },
  t.identity,
);
