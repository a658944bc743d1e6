import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import { isPlainObject } from '../util/isPlainObject';
import type { ContentPart } from '../model/message';
import type { Role } from '../model/role';
import { boundedArray } from './boundedArray';
import type { ProblemBudget } from './budget';
import { ownStruct } from './ownStruct';

/** The part types this library reads, by role: OpenAI's, less audio and files. */
type PartType = 'text' | 'image_url' | 'refusal';

const hasOwn = Object.prototype.hasOwnProperty;
const own = (u: Record<string, unknown>, key: string): unknown =>
  hasOwn.call(u, key) ? u[key] : undefined;

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

const ImageUrl = /* @__PURE__ */ ownStruct('image_url object', { url: t.string }, {});

/** An OpenAI image URL as our part: a base64 data URL becomes an `image_base64` part. */
const imagePart = (url: string): ContentPart => {
  const match = DATA_URL.exec(url);
  return match === null
    ? { type: 'image_url', imageUrl: url }
    : { type: 'image_base64', imageBase64: match[2] ?? '', mediaType: match[1] ?? '' };
};

/**
 * A content part of one of the `allowed` types, as our `ContentPart`: `text` → text part,
 * `refusal` → text part holding the refusal, `image_url` → `image_url` part (or `image_base64`
 * for a `data:…;base64,` URL; `detail` is not kept). Reads `type`, then only the field that type
 * needs, each once.
 */
const partCodec = (allowed: readonly PartType[]): t.Type<ContentPart, unknown, unknown> => {
  const typeName = allowed.map((type) => JSON.stringify(type)).join(' | ');
  const TypeField = /* @__PURE__ */ t.keyof(
    Object.fromEntries(allowed.map((type) => [type, null])),
    typeName,
  );
  const Text = t.string;
  return new t.Type<ContentPart, unknown, unknown>(
    'content part object',
    (u): u is ContentPart => isPlainObject(u),
    (u, c) => {
      if (!isPlainObject(u)) return t.failure(u, c);
      const type = own(u, 'type');
      const checked = TypeField.validate(type, t.appendContext(c, 'type', TypeField, type));
      if (E.isLeft(checked)) return checked;
      const key =
        checked.right === 'refusal' ? 'refusal' : checked.right === 'text' ? 'text' : 'image_url';
      const value = own(u, key);
      if (key === 'image_url') {
        const image = ImageUrl.validate(value, t.appendContext(c, key, ImageUrl, value));
        return E.map((decoded: { url: string }) => imagePart(decoded.url))(image);
      }
      const text = Text.validate(value, t.appendContext(c, key, Text, value));
      return E.map((decoded: string): ContentPart => ({ type: 'text', text: decoded }))(text);
    },
    t.identity,
  );
};

/** What `content` decodes to: the text, and the parts when it was a list. */
export interface DecodedContent {
  readonly content: string | null;
  readonly contentParts?: readonly ContentPart[];
}

/**
 * Our `content` for a list of parts: the non-empty text parts joined with a space (what
 * `messageText` reads from such a message), `''` when there are none.
 */
const joinTexts = (parts: readonly ContentPart[]): string =>
  parts
    .flatMap((part) =>
      part.type === 'text' && part.text !== undefined && part.text !== '' ? [part.text] : [],
    )
    .join(' ');

const fromParts = (parts: readonly ContentPart[]): DecodedContent =>
  parts.length === 0 ? { content: '' } : { content: joinTexts(parts), contentParts: parts };

/**
 * Our content for a value {@link contentCodec} accepted.
 *
 * @internal
 */
export const toDecodedContent = (decoded: unknown): DecodedContent => {
  if (typeof decoded === 'string') return { content: decoded };
  if (Array.isArray(decoded)) return fromParts(decoded as ContentPart[]);
  return { content: null };
};

/**
 * The codec of a message's `content` for `role`: a string, or a list of the parts OpenAI allows
 * on that role (user: text and image_url; assistant: text and refusal; others: text); `null` or
 * absent only on an assistant message. A union, so that error paths run through it
 * (`[2].content[1].type`); {@link toDecodedContent} turns what it accepts into our content. One
 * decode call's lists share `budget`.
 *
 * @internal
 */
export const contentCodec = (role: Role, budget: ProblemBudget): t.Mixed => {
  const allowed: readonly PartType[] =
    role === 'user' ? ['text', 'image_url'] : role === 'assistant' ? ['text', 'refusal'] : ['text'];
  const list = boundedArray('list of content parts', partCodec(allowed), budget);
  return role === 'assistant'
    ? /* @__PURE__ */ t.union(
        [t.string, list, t.null, t.undefined],
        'string, list of content parts or null',
      )
    : /* @__PURE__ */ t.union([t.string, list], 'string or list of content parts');
};
