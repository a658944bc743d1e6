import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import {
  MAX_ATTRIBUTE_VALUE_CHARS,
  MAX_ENTITY_ATTRIBUTES,
  MAX_EXTRACTED_NAME_CHARS,
} from './answerLimits';

/**
 * io-ts codecs for the fields of an extraction answer's items, with the reference's defaults
 * (`entity_memory.py`, lines 162–171; `knowledge_graph.py`, lines 401–417). A field that cannot
 * be read either fails (a name: the item is skipped, as the reference skips an item without one)
 * or takes its default (a type, the attributes, the confidence).
 */

/**
 * A name: a string that is not blank and has at most {@link MAX_EXTRACTED_NAME_CHARS}
 * characters once trimmed; decodes to the trimmed string.
 *
 * @internal
 */
export const FactName = /* @__PURE__ */ new t.Type<string, string, unknown>(
  'FactName',
  (u): u is string =>
    typeof u === 'string' && u === u.trim() && u !== '' && u.length <= MAX_EXTRACTED_NAME_CHARS,
  (u, context) => {
    if (typeof u !== 'string') return t.failure(u, context);
    const name = u.trim();
    return name !== '' && name.length <= MAX_EXTRACTED_NAME_CHARS
      ? t.success(name)
      : t.failure(u, context);
  },
  t.identity,
);

/**
 * `codec`, or `fallback` whenever `codec` fails (a field the reference defaults).
 *
 * @internal
 */
export const withDefault = <A>(codec: t.Type<A, A, unknown>, fallback: A): t.Type<A, A, unknown> =>
  new t.Type<A, A, unknown>(
    `${codec.name} (default ${JSON.stringify(fallback)})`,
    codec.is,
    (u, context) => {
      const result = codec.validate(u, context);
      return E.isRight(result) ? result : t.success(fallback);
    },
    t.identity,
  );

/** An attribute's value as a string: strings kept, finite numbers and booleans written out. */
const attributeValue = (value: unknown): string | undefined => {
  if (typeof value === 'string')
    return value.length <= MAX_ATTRIBUTE_VALUE_CHARS ? value : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  return undefined;
};

/**
 * An entity's attributes: anything that is not a plain object reads as `{}` (the reference's
 * default); of an object, each key (trimmed, not blank, at most
 * {@link MAX_EXTRACTED_NAME_CHARS} characters) whose value is a string (at most
 * {@link MAX_ATTRIBUTE_VALUE_CHARS} characters), a finite number or a boolean is kept, the
 * number or boolean written as a string (`30` → `'30'`); other values (null, lists, objects) are
 * dropped. The first {@link MAX_ENTITY_ATTRIBUTES} kept attributes are kept. Never fails. Keys
 * are own data properties of the result, `__proto__` included.
 *
 * @internal
 */
export const EntityAttributes = /* @__PURE__ */ new t.Type<
  { readonly [key: string]: string },
  { readonly [key: string]: string },
  unknown
>(
  'EntityAttributes',
  (u): u is { readonly [key: string]: string } =>
    t.UnknownRecord.is(u) && Object.values(u).every((value) => typeof value === 'string'),
  (u) => {
    const kept: [string, string][] = [];
    if (t.UnknownRecord.is(u)) {
      for (const [rawKey, rawValue] of Object.entries(u)) {
        if (kept.length >= MAX_ENTITY_ATTRIBUTES) break;
        const key = rawKey.trim();
        const value = attributeValue(rawValue);
        if (key !== '' && key.length <= MAX_EXTRACTED_NAME_CHARS && value !== undefined)
          kept.push([key, value]);
      }
    }
    // fromEntries defines own properties, so a "__proto__" key stays a key.
    return t.success(Object.fromEntries(kept));
  },
  t.identity,
);

/** A number written as text (`"0.8"`, `"1e-1"`): the reference's `float(raw_conf)` reads these. */
const NUMERIC_TEXT = /^\s*[+-]?[0-9.eE+-]+\s*$/;

/**
 * A triple's confidence: a finite number, or a string that reads as one (`"0.8"`, as the
 * reference's `float()` reads it), clamped to [0, 1]; anything else (missing, `null`, `"high"`,
 * a boolean, a number too large for a double) reads as `1`, the reference's default. Never
 * fails.
 *
 * @internal
 */
export const Confidence = /* @__PURE__ */ new t.Type<number, number, unknown>(
  'Confidence',
  (u): u is number => typeof u === 'number' && u >= 0 && u <= 1,
  (u) => {
    let value = Number.NaN;
    if (typeof u === 'number') value = u;
    else if (typeof u === 'string' && u.length <= 40 && NUMERIC_TEXT.test(u)) value = Number(u);
    return t.success(Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1);
  },
  t.identity,
);

/**
 * `YYYY-MM-DD`, optionally with a time and its zone (`T10:30Z`, `T10:30:00.000+02:00`). A time
 * without a zone is refused: JavaScript would read it in the machine's zone.
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** The largest time a `Date` holds, in milliseconds either side of the epoch. */
const MAX_TIME = 8.64e15;

/**
 * The date a triple held from (our addition to the reference's keys, `valid_from`; the local
 * extractor writes it): milliseconds since the epoch as an integer, or an ISO 8601 date
 * (`2024-03-01`, read as UTC midnight, or with a time and its zone: `2024-03-01T09:00:00Z`) that
 * names a real day of a year from 100 on. Anything else reads as absent (`undefined`). Never fails.
 *
 * @internal
 */
export const ValidFrom = /* @__PURE__ */ new t.Type<
  number | undefined,
  number | undefined,
  unknown
>(
  'ValidFrom',
  (u): u is number | undefined =>
    u === undefined || (Number.isInteger(u) && Math.abs(u as number) <= MAX_TIME),
  (u) => {
    if (typeof u === 'number')
      return t.success(Number.isInteger(u) && Math.abs(u) <= MAX_TIME ? u : undefined);
    if (typeof u !== 'string' || u.length > 40) return t.success(undefined);
    const match = ISO_DATE.exec(u);
    if (match === null) return t.success(undefined);
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const midnight = new Date(Date.UTC(year, month - 1, day));
    const realDay =
      midnight.getUTCFullYear() === year &&
      midnight.getUTCMonth() === month - 1 &&
      midnight.getUTCDate() === day;
    const time = Date.parse(u.length === 10 ? `${u}T00:00:00Z` : u);
    return t.success(realDay && Number.isFinite(time) ? time : undefined);
  },
  t.identity,
);
