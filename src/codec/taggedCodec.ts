import * as t from 'io-ts';
import { isPlainObject } from '../internal/isPlainObject';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * What {@link taggedCodec} needs of a member: a check and a validation (covariant in `A`, so
 * codecs of different shapes fit one union).
 *
 * @internal
 */
export interface TaggedMember<A> {
  is(u: unknown): boolean;
  readonly validate: t.Validate<unknown, A>;
}

/**
 * An io-ts codec for a plain object whose own `key` field (`type`, `role`) picks the codec of the
 * whole object: a discriminated union, such as Anthropic's content blocks. Unlike `t.union`, a
 * failure is reported once, by the chosen member (`content[0].input: …`), or at the key when no
 * member matches (`content[0].type: expected "text" | "image", got "video"`), instead of once per
 * member. The key is read once here; the member codec reads the object's fields itself.
 *
 * @param name - what the object is, for "expected …" messages (`content block object`)
 * @param key - the discriminating field
 * @param members - the codec for each value of the key
 * @param other - the codec for any other value, if such objects are accepted
 * @internal
 */
export const taggedCodec = <A>(
  name: string,
  key: string,
  members: Readonly<Record<string, TaggedMember<A>>>,
  other?: TaggedMember<A>,
): t.Type<A, unknown, unknown> => {
  const tags = Object.keys(members);
  const tagCodec = /* @__PURE__ */ t.keyof(
    Object.fromEntries(tags.map((tag) => [tag, null])),
    tags.map((tag) => JSON.stringify(tag)).join(' | '),
  );
  const memberFor = (tag: unknown): TaggedMember<A> | undefined =>
    typeof tag === 'string' && hasOwn.call(members, tag) ? members[tag] : other;
  const tagOf = (u: Record<string, unknown>): unknown => (hasOwn.call(u, key) ? u[key] : undefined);
  return new t.Type<A, unknown, unknown>(
    name,
    (u): u is A => isPlainObject(u) && memberFor(tagOf(u))?.is(u) === true,
    (u, context) => {
      if (!isPlainObject(u)) return t.failure(u, context);
      const tag = tagOf(u);
      const member = memberFor(tag);
      if (member === undefined) return t.failure(tag, t.appendContext(context, key, tagCodec, tag));
      return member.validate(u, context);
    },
    t.identity,
  );
};
