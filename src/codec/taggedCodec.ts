import * as t from 'io-ts';
import { isPlainObject } from '../util/isPlainObject';
import { ownStruct } from './ownStruct';

const hasOwn = Object.prototype.hasOwnProperty;

type Props = Readonly<Record<string, t.Mixed>>;

/**
 * A member of a {@link taggedCodec} union given as a codec: a check and a validation (covariant
 * in `A`, so codecs of different shapes fit one union).
 *
 * @internal
 */
export interface TaggedMember<A> {
  is(u: unknown): boolean;
  readonly validate: t.Validate<unknown, A>;
}

/**
 * A member of a {@link taggedCodec} union given as its fields besides the tag: the helper builds
 * its struct (`ownStruct`, with the tag as a literal) and reads the object once for it.
 *
 * @internal
 */
export interface TaggedCase {
  readonly required: Props;
  readonly optional: Props;
}

const isCase = (member: TaggedMember<unknown> | TaggedCase): member is TaggedCase =>
  !('validate' in member);

/**
 * The one io-ts codec for a discriminated union: a plain object whose own `key` field (`type`,
 * `role`) picks the member that decodes it, such as Anthropic's content blocks or our messages.
 * Unlike `t.union`, a failure is reported once, by the chosen member (`content[0].input: …`), or
 * at the key when no member matches (`content[0].type: expected "text" | "image", got "video"`),
 * instead of once per member.
 *
 * Members are codecs ({@link TaggedMember}) or fields ({@link TaggedCase}). When every member is
 * given as fields, the object is safe on hostile input as {@link ownStruct} is: the own
 * properties any member knows are read once each into a snapshot, the tag picks the member, and
 * the member decodes the snapshot, so a getter cannot answer `"user"` to the dispatch and
 * `"assistant"` to the member. Codec members read the object's fields themselves.
 *
 * @param name - what the object is, for "expected …" messages (`content block object`); a member
 *   given as fields is named `<tag> <name>`
 * @param key - the discriminating field
 * @param members - the codec or the fields for each value of the key
 * @param other - the codec for any other value, if such objects are accepted
 * @internal
 */
export const taggedCodec = <A>(
  name: string,
  key: string,
  members: Readonly<Record<string, TaggedMember<A> | TaggedCase>>,
  other?: TaggedMember<A>,
): t.Type<A, unknown, unknown> => {
  const tags = Object.keys(members);
  const tagCodec = /* @__PURE__ */ t.keyof(
    Object.fromEntries(tags.map((tag) => [tag, null])),
    tags.map((tag) => JSON.stringify(tag)).join(' | '),
  );
  const built = new Map<string, TaggedMember<A>>(
    tags.map((tag) => {
      const member = members[tag] as TaggedMember<A> | TaggedCase;
      if (!isCase(member)) return [tag, member];
      const struct = /* @__PURE__ */ ownStruct(
        `${tag} ${name}`,
        { ...member.required, [key]: /* @__PURE__ */ t.literal(tag) },
        member.optional,
      );
      return [tag, struct as unknown as TaggedMember<A>];
    }),
  );
  // With fields for every member (and no catch-all), the fields to snapshot are known.
  const cases = Object.values(members);
  const fields =
    other === undefined && cases.every(isCase)
      ? [
          ...new Set([
            key,
            ...cases.flatMap((c) => [...Object.keys(c.required), ...Object.keys(c.optional)]),
          ]),
        ]
      : undefined;
  const snapshot = (u: Record<string, unknown>): Record<string, unknown> => {
    if (fields === undefined) return u;
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const field of fields) if (hasOwn.call(u, field)) out[field] = u[field];
    return out;
  };
  const memberFor = (tag: unknown): TaggedMember<A> | undefined =>
    typeof tag === 'string' && built.has(tag) ? built.get(tag) : other;
  const tagOf = (u: Record<string, unknown>): unknown => (hasOwn.call(u, key) ? u[key] : undefined);
  return new t.Type<A, unknown, unknown>(
    name,
    (u): u is A => isPlainObject(u) && memberFor(tagOf(u))?.is(u) === true,
    (u, context) => {
      if (!isPlainObject(u)) return t.failure(u, context);
      const read = snapshot(u);
      const tag = tagOf(read);
      const member = memberFor(tag);
      if (member === undefined) return t.failure(tag, t.appendContext(context, key, tagCodec, tag));
      return member.validate(read, context);
    },
    t.identity,
  );
};
