import * as t from 'io-ts';
import { cloneJsonObject, NotJsonError } from '../internal/cloneJson';
import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';
import { shortenPath } from '../util/shortenPath';
import type { JsonObject } from '../model/message';

const notAnObjectString = (u: unknown): string =>
  `expected a JSON object string, got ${describeValue(u)}`;

/**
 * An io-ts codec for a tool call's `arguments` as OpenAI sends them: a string holding a JSON
 * object, decoded into frozen own-key objects (`__proto__` stays data), nesting at most 200 levels.
 * An empty (or blank) string reads as `{}`, as some OpenAI-compatible servers send it for a call
 * without arguments. Anything else fails with `expected a JSON object string, got "{oops"`.
 *
 * @internal
 */
export const JsonObjectString = /* @__PURE__ */ new t.Type<JsonObject, string, unknown>(
  'JSON object string',
  (u): u is JsonObject => isPlainObject(u),
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, notAnObjectString(u));
    if (u.trim() === '') return t.success(Object.freeze({}));
    let parsed: unknown;
    try {
      parsed = JSON.parse(u);
    } catch {
      // A syntax error, or nesting too deep for the engine's parser.
      return t.failure(u, c, notAnObjectString(u));
    }
    if (!isPlainObject(parsed)) return t.failure(u, c, notAnObjectString(u));
    try {
      return t.success(cloneJsonObject(parsed, ''));
    } catch (error) {
      if (!(error instanceof NotJsonError)) throw error;
      const where = error.path === '' ? '' : ` at ${shortenPath(error.path)}`;
      return t.failure(u, c, `${notAnObjectString(u)}: ${error.reason}${where}`);
    }
  },
  (parameters) => JSON.stringify(parameters),
);
