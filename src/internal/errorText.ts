import { describeValue } from './describeValue';

/**
 * A thrown value as text for an error message, whatever was thrown: an `Error`'s name and
 * message, otherwise a description of the value. Never throws (a thrown object whose `toString`
 * throws, or one with no prototype, is still described).
 *
 * @internal
 */
export const errorText = (thrown: unknown): string => {
  try {
    if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}`;
    return typeof thrown === 'string' ? thrown : describeValue(thrown);
  } catch {
    return describeValue(thrown);
  }
};
