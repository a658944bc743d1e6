import { InvalidMessageError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { unreadable } from '../internal/unreadable';
import { normalizeMessage } from '../internal/normalizeMessage';
import type { ContentPart, Message } from '../model/message';

/**
 * An image given as base64 data (what the reference reads from a file; this browser-safe core
 * does not read files).
 *
 * @example
 * ```ts
 * const image: Base64Image = { base64: 'iVBORw0KGgo=', mediaType: 'image/png' };
 * ```
 */
export interface Base64Image {
  readonly base64: string;
  /** Default `'image/jpeg'`, the reference's default. */
  readonly mediaType?: string;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

const imagePart = (image: string | Base64Image): ContentPart => {
  if (typeof image === 'string') {
    if (image.startsWith('http://') || image.startsWith('https://')) {
      return { type: 'image_url', imageUrl: image };
    }
    const match = DATA_URL.exec(image);
    if (match !== null) {
      return {
        type: 'image_base64',
        imageBase64: match[2] ?? '',
        mediaType: match[1] ?? 'image/jpeg',
      };
    }
    throw new InvalidMessageError(
      'imageMessage',
      `image must be an http(s) URL, a base64 data URL or { base64, mediaType }, received ${describeValue(image)}` +
        ' (files are not read here: load the bytes and pass them as base64)',
    );
  }
  if (typeof image !== 'object' || image === null) throw notAnImage(image);
  let base64: unknown;
  let mediaType: unknown;
  try {
    // Each field read once.
    ({ base64, mediaType } = image);
  } catch (error) {
    throw unreadable(error, InvalidMessageError, 'imageMessage', 'image');
  }
  if (typeof base64 !== 'string') throw notAnImage(image);
  if (mediaType !== undefined && typeof mediaType !== 'string') {
    throw new InvalidMessageError(
      'imageMessage',
      `image.mediaType must be a string, received ${describeValue(mediaType)}`,
    );
  }
  return { type: 'image_base64', imageBase64: base64, mediaType: mediaType ?? 'image/jpeg' };
};

const notAnImage = (image: unknown): InvalidMessageError =>
  new InvalidMessageError(
    'imageMessage',
    `image must be an http(s) URL, a base64 data URL or { base64, mediaType }, received ${describeValue(image)}`,
  );

/**
 * A user message with an image, shaped as the reference's `image_message`: `content` is the
 * prompt and `contentParts` holds a text part with the prompt and then the image part (an
 * `image_url` part for an http(s) URL, an `image_base64` part for base64 data).
 *
 * @param image - an http(s) URL, a `data:` URL, or `{ base64, mediaType }`
 * @param prompt - the question; default `'Describe this image.'`
 * @returns a frozen, canonical message
 * @throws InvalidMessageError for anything else (such as a file path)
 * @example
 * ```ts
 * imageMessage('https://example.com/cat.png');
 * // { role: 'user', content: 'Describe this image.', contentParts: [
 * //   { type: 'text', text: 'Describe this image.' },
 * //   { type: 'image_url', imageUrl: 'https://example.com/cat.png' } ] }
 * ```
 */
export const imageMessage = (
  image: string | Base64Image,
  prompt = 'Describe this image.',
): Message =>
  normalizeMessage(
    {
      role: 'user',
      content: prompt,
      contentParts: [{ type: 'text', text: prompt }, imagePart(image)],
    },
    'imageMessage',
  );
