import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import { isPlainObject } from '../util/isPlainObject';

type Props = Readonly<Record<string, t.Mixed>>;

/** What a struct decodes to: the required fields, and the optional fields that were present. */
export type StructOf<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & {
  [K in keyof O]?: t.TypeOf<O[K]>;
};

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * An io-ts codec for a plain object with known fields, safe on hostile input:
 *
 * - only **own** properties are read (an inherited or `__proto__`-injected field is absent), and
 *   each known field is read **once**, so a getter cannot answer one value to the check and
 *   another to the result;
 * - unknown keys are never read and never copied (they are ignored, as the reference ignores
 *   them), so `__proto__` in the input cannot reach a prototype;
 * - the result is a new object holding only the known fields, as decoded;
 * - an optional field that is absent or `undefined` is left out.
 *
 * io-ts's own `type`/`partial`/`intersection` read fields through the prototype chain, read them
 * again after validation, and copy with assignment, which turns an own `"__proto__"` key into a
 * prototype; none of that happens here.
 *
 * @internal
 */
export const ownStruct = <R extends Props, O extends Props>(
  name: string,
  required: R,
  optional: O,
): t.Type<StructOf<R, O>, unknown, unknown> => {
  const fields: readonly (readonly [string, t.Mixed, boolean])[] = [
    ...Object.keys(required).map((key) => [key, required[key] as t.Mixed, true] as const),
    ...Object.keys(optional).map((key) => [key, optional[key] as t.Mixed, false] as const),
  ];
  return new t.Type<StructOf<R, O>, unknown, unknown>(
    name,
    (u): u is StructOf<R, O> =>
      isPlainObject(u) &&
      fields.every(([key, codec, isRequired]) => {
        const value = hasOwn.call(u, key) ? u[key] : undefined;
        return (!isRequired && value === undefined) || codec.is(value);
      }),
    (u, context) => {
      if (!isPlainObject(u)) return t.failure(u, context);
      const out: Record<string, unknown> = {};
      const errors: t.ValidationError[] = [];
      for (const [key, codec, isRequired] of fields) {
        const value = hasOwn.call(u, key) ? u[key] : undefined;
        if (!isRequired && value === undefined) continue;
        const result = codec.validate(value, t.appendContext(context, key, codec, value));
        if (E.isLeft(result)) errors.push(...result.left);
        else out[key] = result.right;
      }
      return errors.length > 0 ? t.failures(errors) : t.success(out as StructOf<R, O>);
    },
    t.identity,
  );
};
