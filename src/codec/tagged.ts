import * as t from 'io-ts';
import { isPlainObject } from '../internal/isPlainObject';
import { ownStruct } from './ownStruct';

type Props = Readonly<Record<string, t.Mixed>>;

/** One member of a {@link tagged} union: its fields besides the tag. */
export interface TaggedCase {
  readonly required: Props;
  readonly optional: Props;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * An io-ts codec for a union of plain objects told apart by a string tag (`role`, `type`), safe
 * on hostile input as {@link ownStruct} is: the own properties that any member knows are read
 * once each into a snapshot, the tag picks the member, and the member's struct decodes the
 * snapshot. So a getter cannot answer `"user"` to the dispatch and `"assistant"` to the member.
 * An unknown tag fails at `<path>.<tag key>` with the list of known tags.
 *
 * The decoded type is given by the caller (`A`), since the members are built here.
 *
 * @internal
 */
export const tagged = <A>(
  name: string,
  tagKey: string,
  cases: Readonly<Record<string, TaggedCase>>,
): t.Type<A, unknown, unknown> => {
  const tags = Object.keys(cases);
  const tagCodec = /* @__PURE__ */ t.keyof(Object.fromEntries(tags.map((tag) => [tag, null])));
  const members = new Map<string, t.Mixed>(
    tags.map((tag) => {
      const { required, optional } = cases[tag] as TaggedCase;
      return [
        tag,
        /* @__PURE__ */ ownStruct(
          `${tag} ${name}`,
          { ...required, [tagKey]: /* @__PURE__ */ t.literal(tag) },
          optional,
        ),
      ];
    }),
  );
  const fields = [
    ...new Set([
      tagKey,
      ...Object.values(cases).flatMap((c) => [
        ...Object.keys(c.required),
        ...Object.keys(c.optional),
      ]),
    ]),
  ];
  const snapshot = (u: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of fields) if (hasOwn.call(u, key)) out[key] = u[key];
    return out;
  };
  return new t.Type<A, unknown, unknown>(
    name,
    (u): u is A => {
      if (!isPlainObject(u)) return false;
      const tag = hasOwn.call(u, tagKey) ? u[tagKey] : undefined;
      return typeof tag === 'string' && members.get(tag)?.is(u) === true;
    },
    (u, context) => {
      if (!isPlainObject(u)) return t.failure(u, context);
      const read = snapshot(u);
      const tag = read[tagKey];
      const member = typeof tag === 'string' ? members.get(tag) : undefined;
      if (member === undefined) {
        return tagCodec.validate(
          tag,
          t.appendContext(context, tagKey, tagCodec, tag),
        ) as t.Validation<A>;
      }
      return member.validate(read, context) as t.Validation<A>;
    },
    t.identity,
  );
};
