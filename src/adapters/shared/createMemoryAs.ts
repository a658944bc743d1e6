import {
  createMemory,
  isConversationMemoryError,
  MemoryConfigError,
  type MemoryOptions,
  type MemoryState,
} from 'conversation-memory';

/** A problem of `createMemory`'s options, as a problem of the field `where` of the caller. */
const underField = (problem: string, where: string): string => {
  if (problem.startsWith('options ')) return `${where}${problem.slice('options'.length)}`;
  return problem.startsWith('[') ? `${where}${problem}` : `${where}.${problem}`;
};

/**
 * `createMemory(options)` for an adapter's public call: a bad config's `MemoryConfigError` names
 * that call (`createConversationsSlice`, `createMemoryStore`), not `createMemory`, and, with
 * `where`, the field that held the options (`options.defaultConfig.maxMessages must be …`);
 * options that could not be read keep their `cause`. Any other error is rethrown as it is.
 *
 * @param api - the public call, for the error's prefix
 * @param options - the memory's options as given
 * @param where - the field that holds them, when they are not the call's own options
 * @returns the new empty memory
 * @throws MemoryConfigError naming `api`
 * @example
 * ```ts
 * createMemoryAs('createMemoryStore', { maxMesages: 3 });
 * // MemoryConfigError: [conversation-memory] createMemoryStore: maxMesages is not an option (did you mean maxMessages?); …
 * ```
 * @internal
 */
export const createMemoryAs = (
  api: string,
  options: MemoryOptions | undefined,
  where?: string,
): MemoryState => {
  try {
    return createMemory(options);
  } catch (error) {
    if (!isConversationMemoryError(error) || error.code !== 'CM_CONFIG') throw error;
    const { problems, problemCount } = error as MemoryConfigError;
    const named = where === undefined ? problems : problems.map((p) => underField(p, where));
    // Options that could not be read keep what reading them threw.
    throw new MemoryConfigError(
      api,
      named,
      problemCount,
      'cause' in error ? { cause: error.cause } : undefined,
    );
  }
};
