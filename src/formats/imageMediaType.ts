/** The base64 openings of the image formats providers accept, and their media types. */
const SIGNATURES: readonly (readonly [prefix: string, mediaType: string])[] = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
];

/**
 * The media type of base64 image data, read from its first bytes (PNG, JPEG, GIF, WebP);
 * `'image/jpeg'` (the reference's default) when the data is none of these. Used where a message
 * carries an image without a media type (`imageBase64`, or an `image_base64` part without
 * `mediaType`), since providers reject an image whose declared type does not match its bytes.
 *
 * @param base64 - the image data, base64-encoded
 * @returns `'image/png'`, `'image/jpeg'`, `'image/gif'` or `'image/webp'`
 * @example
 * ```ts
 * imageMediaType('iVBORw0KGgoAAAANSUhEUg'); // 'image/png'
 * imageMediaType('AAAA'); // 'image/jpeg'
 * ```
 */
export const imageMediaType = (base64: string): string => {
  for (const [prefix, mediaType] of SIGNATURES) if (base64.startsWith(prefix)) return mediaType;
  return 'image/jpeg';
};
