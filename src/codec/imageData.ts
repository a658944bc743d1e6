import * as t from 'io-ts';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';

/**
 * An image as an AI SDK part carries it, reduced to what our content parts hold: a URL, or base64
 * data with the media type a `data:` URL names.
 *
 * @internal
 */
export type ImageData =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'base64'; readonly base64: string; readonly mediaType?: string };

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 of bytes, without Node's Buffer (the library stays browser-safe). */
const toBase64 = (bytes: Uint8Array): string => {
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out.push(
      ALPHABET[(n >> 18) & 63] ?? '',
      ALPHABET[(n >> 12) & 63] ?? '',
      b === undefined ? '=' : (ALPHABET[(n >> 6) & 63] ?? ''),
      c === undefined ? '=' : (ALPHABET[n & 63] ?? ''),
    );
  }
  return out.join('');
};

/** A string: an http(s) or other URL as a URL, a `data:` URL split, anything else base64 data. */
const fromString = (value: string): ImageData => {
  const data = DATA_URL.exec(value);
  if (data !== null) return { kind: 'base64', base64: data[2] ?? '', mediaType: data[1] ?? '' };
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
    ? { kind: 'url', url: value }
    : { kind: 'base64', base64: value };
};

const read = (u: unknown): ImageData | undefined => {
  if (typeof u === 'string') return fromString(u);
  if (u instanceof URL) return fromString(u.href);
  if (u instanceof Uint8Array) return { kind: 'base64', base64: toBase64(u) };
  if (u instanceof ArrayBuffer) return { kind: 'base64', base64: toBase64(new Uint8Array(u)) };
  return undefined;
};

/**
 * The data of an AI SDK image or file part (`DataContent | URL`): a string (URL, `data:` URL or
 * base64), a `URL`, a `Uint8Array` (a Node `Buffer` is one) or an `ArrayBuffer`; bytes become
 * base64. A string is read as a URL the way the AI SDK reads it (it has a scheme), else as base64.
 *
 * @internal
 */
export const ImageDataCodec = /* @__PURE__ */ new t.Type<ImageData, ImageData, unknown>(
  'image data (a URL, base64 text, or bytes)',
  (u): u is ImageData => typeof u === 'object' && u !== null && 'kind' in u,
  (u, c) => {
    try {
      const found = read(u);
      return found === undefined ? t.failure(u, c) : t.success(found);
    } catch (error) {
      // A hostile URL or typed-array subclass whose getters throw.
      return t.failure(u, c, `could not read ${describeValue(u)}: ${errorText(error)}`);
    }
  },
  t.identity,
);
