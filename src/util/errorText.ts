import { describeValue } from './describeValue';
import { escapeText } from './escapeText';

/** A thrown message is echoed up to this many characters. */
const MAX_THROWN_TEXT = 200;

/**
 * A thrown value as text for an error message, whatever was thrown: an `Error`'s name and
 * message (shortened and escaped: a thrown message is input too), otherwise a description of the
 * value. Never throws (a thrown object whose `toString` or `message` getter throws, or one with
 * no prototype, is still described).
 *
 * @internal
 */
export const errorText = (thrown: unknown): string => {
  try {
    if (thrown instanceof Error) {
      const { name, message } = thrown;
      return escapeText(`${String(name)}: ${String(message)}`, MAX_THROWN_TEXT);
    }
    return typeof thrown === 'string' ? escapeText(thrown, MAX_THROWN_TEXT) : describeValue(thrown);
  } catch {
    return describeValue(thrown);
  }
};
