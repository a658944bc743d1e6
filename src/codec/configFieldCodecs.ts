import * as t from 'io-ts';
import {
  CONFIG_FIELDS,
  type ConfigField,
  type ConfigFilePlace,
  type ConfigValue,
  fileKey,
} from '../internal/configFields';
import { checkedCodec } from './checkedCodec';

/** A literal value's codec (`null` included). */
const literal = (value: ConfigValue): t.Mixed => (value === null ? t.null : t.literal(value));

/**
 * The codec of a field's value in a file, from its row's JSON type: its `check` (`'checked'`), a
 * JSON type, a list of strings (`t.keyof`: `expected "reference" | "strict"`) or of other values
 * (a union of literals: `expected ("user" | null)`).
 */
const codecOf = (field: ConfigField): t.Mixed => {
  const { json } = field;
  if (json === 'checked') return checkedCodec(fileKey(field.name), field.check);
  if (json === 'string') return t.string;
  if (json === 'number') return t.number;
  if (json === 'boolean') return t.boolean;
  if (json.every((value) => typeof value === 'string')) {
    return t.keyof(Object.fromEntries(json.map((value) => [value, null])));
  }
  return t.union(json.map(literal) as unknown as [t.Mixed, t.Mixed, ...t.Mixed[]]);
};

/**
 * The codecs of the config fields a file keeps in one place, by file key, in the table's order.
 * Typed as having no known key: `fromDict` reads the values by the table, not by name.
 *
 * @internal
 */
export const configFieldCodecs = (place: ConfigFilePlace): Readonly<Record<never, t.Mixed>> => {
  const codecs: Record<string, t.Mixed> = {};
  for (const field of CONFIG_FIELDS) {
    if (field.file === place) codecs[fileKey(field.name)] = codecOf(field);
  }
  return codecs;
};
