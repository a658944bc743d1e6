import { InvalidMessageError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { unreadable } from './unreadable';

/**
 * The length of a caller's list of messages, read once. A value that is not an array, or that
 * throws when read (a revoked Proxy, a `length` trap), is an `InvalidMessageError`.
 *
 * @internal
 */
export const listLength = (list: unknown, api: string): number => {
  try {
    if (!Array.isArray(list)) {
      throw new InvalidMessageError(
        api,
        `messages must be an array, received ${describeValue(list)}`,
      );
    }
    return (list as readonly unknown[]).length;
  } catch (error) {
    throw unreadable(error, InvalidMessageError, api, 'messages');
  }
};

/**
 * Item `index` of a caller's list, read once; a throwing read is an `InvalidMessageError`.
 *
 * @internal
 */
export const listItem = (list: readonly unknown[], index: number, api: string): unknown => {
  try {
    return list[index];
  } catch (error) {
    throw unreadable(error, InvalidMessageError, api, `messages[${index}]`);
  }
};
