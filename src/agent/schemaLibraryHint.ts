import { isPlainObject } from '../util/isPlainObject';

/**
 * Why `value` is a validation library's schema rather than JSON Schema, or `undefined` when it
 * does not look like one: a zod schema (`_def` in zod 3, `_zod` in zod 4, `safeParse`) or any
 * Standard Schema (`~standard`: valibot, ArkType), except a plain JSON Schema object that holds
 * `~standard` as a hidden (non-enumerable) key, as zod 4's `z.toJSONSchema` returns it. Reads only
 * property presence and enumerability, never a getter's value.
 *
 * @example
 * ```ts
 * schemaLibraryHint(z.object({ city: z.string() }));
 * // 'a zod schema, not a JSON Schema object: convert it with z.toJSONSchema(schema)'
 * schemaLibraryHint({ type: 'object' }); // undefined
 * ```
 * @internal
 */
export const schemaLibraryHint = (value: unknown): string | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const has = (key: string): boolean => key in value;
  if (has('_zod') || has('_def') || has('safeParse')) {
    return 'a zod schema, not a JSON Schema object: convert it with z.toJSONSchema(schema)';
  }
  // zod 4's z.toJSONSchema output carries a non-enumerable `~standard` (Standard JSON Schema)
  // on a plain JSON Schema object: that one is JSON Schema, and JSON leaves the key out.
  const jsonWithStandard =
    isPlainObject(value) && !Object.prototype.propertyIsEnumerable.call(value, '~standard');
  if (has('~standard') && !jsonWithStandard) {
    return "a validation library's schema (Standard Schema), not a JSON Schema object: convert it to JSON Schema first (zod 4: z.toJSONSchema(schema); valibot: toJsonSchema from @valibot/to-json-schema)";
  }
  return undefined;
};
