/**
 * Text from input (keys, values, thrown messages) is echoed in our error messages only through
 * these helpers, so that an error can never grow with its input (a key of a million characters)
 * or forge log lines and terminal output (newlines, ANSI escapes, bidi overrides).
 */

/**
 * Characters that could break a log line or change how a terminal renders it: C0 and C1
 * controls, DEL, the Unicode line and paragraph separators, bidirectional controls, and lone
 * surrogates (which UTF-8 output turns into U+FFFD, or refuses).
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const escapeOne = (char: string): string => {
  switch (char) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  }
};

/** The first `max` UTF-16 units of `text`, never ending inside a surrogate pair. */
const head = (text: string, max: number): string => {
  const unit = text.charCodeAt(max - 1);
  return text.slice(0, unit >= 0xd800 && unit <= 0xdbff ? max - 1 : max);
};

/**
 * Shortens `text` to at most `max` characters (ending with `...` when cut) and escapes every
 * character that could break a log line (`\n` → `\\n`, ESC → `\\u001b`). The result is safe to
 * embed in a one-line message.
 *
 * @internal
 */
export const escapeText = (text: string, max: number): string => {
  const shown = text.length > max ? `${head(text, max - 3)}...` : text;
  return shown.replace(UNSAFE, escapeOne);
};

/**
 * `text` as a short JSON-style string literal (`"ab\\ncd"`): quoted, shortened to `max`
 * characters, every control, separator and bidi character escaped, lone surrogates too.
 *
 * @internal
 */
export const quoteText = (text: string, max = 60): string => {
  const shown = text.length > max ? `${head(text, max - 3)}...` : text;
  return JSON.stringify(shown).replace(UNSAFE, escapeOne);
};

/**
 * The characters of {@link UNSAFE} that `JSON.stringify` leaves as they are: it already writes
 * every C0 control inside a string as an escape, and outside strings its only controls are the
 * newlines of its indentation, which must stay.
 */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text (from `JSON.stringify`, indented or not) with every character that could break a
 * terminal line or reorder what it shows (C1 controls, DEL, U+2028/U+2029, bidi controls) written
 * as a `\uXXXX` escape: still valid JSON, and `JSON.parse` gives back the same strings.
 *
 * @internal
 */
export const escapeJsonText = (json: string): string =>
  json.replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,39}$/;

/**
 * One step of a value path for an input key: `.name` for a short identifier, `["odd key"]`
 * (quoted, shortened, escaped) for anything else.
 *
 * @internal
 */
export const keySegment = (key: string): string =>
  IDENTIFIER.test(key) ? `.${key}` : `[${quoteText(key, 40)}]`;
