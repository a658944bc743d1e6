import { KnowledgeConflictError } from '../../errors/knowledgeStoreErrors';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { SessionConflictError } from '../../errors/sessionErrors';
import { readOption } from '../../internal/readOption';
import { describeValue } from '../../util/describeValue';

/**
 * Reads `options.expectedRevision` of a save: `undefined` (an unconditional save) or an integer
 * ≥ 0.
 *
 * @throws MemoryArgumentError for anything else
 * @example
 * ```ts
 * expectedRevisionOf({ expectedRevision: 3 }); // 3
 * expectedRevisionOf({}); // undefined
 * ```
 */
export const expectedRevisionOf = (
  options: unknown,
  api = 'expectedRevisionOf',
): number | undefined => {
  const expected = readOption(options, 'expectedRevision', api);
  if (expected === undefined || expected === null) return undefined;
  if (typeof expected !== 'number' || !Number.isSafeInteger(expected) || expected < 0) {
    throw new MemoryArgumentError(
      api,
      `options.expectedRevision must be an integer ≥ 0 (0: only if absent), received ${describeValue(expected)}`,
    );
  }
  return expected;
};

/**
 * Refuses a conditional save whose expected revision is not the stored one (`0` for an absent or
 * expired session). Call it inside the store's write transaction.
 *
 * @throws SessionConflictError
 * @example
 * ```ts
 * checkExpectedRevision('s1', 0, 2); // throws SessionConflictError: … at revision 2, the save expected 0
 * checkExpectedRevision('s1', undefined, 2); // an unconditional save: passes
 * ```
 */
export const checkExpectedRevision = (
  key: string,
  expected: number | undefined,
  actual: number,
  api = 'checkExpectedRevision',
): void => {
  if (expected !== undefined && expected !== actual) {
    throw new SessionConflictError(api, key, expected, actual);
  }
};

/**
 * Refuses a conditional save whose expected revision is not the stored one (`0` when nothing, or
 * only a damaged record, is stored). Call it inside the store's write transaction or script.
 *
 * @throws KnowledgeConflictError
 * @example
 * ```ts
 * checkKnowledgeRevision('user-42', 0, 2, 'MyStore.save'); // throws KnowledgeConflictError
 * checkKnowledgeRevision('user-42', undefined, 2, 'MyStore.save'); // unconditional: passes
 * ```
 */
export const checkKnowledgeRevision = (
  key: string,
  expected: number | undefined,
  actual: number,
  api: string,
): void => {
  if (expected !== undefined && expected !== actual) {
    throw new KnowledgeConflictError(api, key, expected, actual);
  }
};
