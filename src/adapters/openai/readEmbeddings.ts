import { describeValue } from 'conversation-memory/store-kit';

/** What {@link readEmbeddings} finds: one vector (a copy) per input, in input order, or problems. */
export type ReadEmbeddings =
  | { readonly vectors: readonly number[][] }
  | { readonly problems: readonly string[]; readonly problemCount: number };

/** At most this many problems are listed (all are counted). */
const MAX_LISTED = 20;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (record: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** The position of the first entry that is not a finite number, or -1. */
const firstNonFinite = (values: readonly unknown[]): number => {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) return i;
  }
  return -1;
};

/**
 * Reads the reply of an embeddings request of `count` inputs as hostile input: `data` must hold
 * exactly one item per input, each with an `index` (a whole number below `count`, each once) and an
 * `embedding` (a non-empty array of finite numbers, all of one length: `length` when given, else
 * the first item's). The vectors come back ordered by `index`, not by their place in `data`,
 * copied. Nothing else of the reply is read (`model`, `usage`, `object`).
 *
 * @param reply - what the client returned
 * @param count - how many texts the request sent
 * @param length - the length every vector must have and why, for the problem (the `dimensions`
 *   option, or the length of the vectors already cached), or `undefined` when none is known yet
 * @returns the vectors in input order, or every problem with its path and value
 * @example
 * ```ts
 * readEmbeddings({ data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }] }, 2, undefined);
 * // { vectors: [[1, 0], [0, 1]] }
 * readEmbeddings({ data: [{ index: 0, embedding: [NaN] }] }, 1, undefined);
 * // { problems: ['data[0].embedding[0]: expected a finite number, got NaN'], problemCount: 1 }
 * ```
 * @internal
 */
export const readEmbeddings = (
  reply: unknown,
  count: number,
  length: { readonly length: number; readonly why: string } | undefined,
): ReadEmbeddings => {
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (text: string): void => {
    problemCount++;
    if (problems.length < MAX_LISTED) problems.push(text);
  };
  const data = isRecord(reply) ? own(reply, 'data') : undefined;
  if (!Array.isArray(data)) {
    problem(
      isRecord(reply)
        ? `data: expected an array of embeddings, got ${describeValue(data)}`
        : `(root): expected an object with data, got ${describeValue(reply)}`,
    );
    return { problems, problemCount };
  }
  if (data.length !== count) {
    problem(`data: expected ${count} items (one per input), got ${data.length}`);
  }
  const vectors: (number[] | undefined)[] = Array.from({ length: count });
  const seenAt: (number | undefined)[] = Array.from({ length: count });
  let expected = length?.length;
  let expectedFrom = length === undefined ? '' : ` (${length.why})`;
  for (const [position, item] of data.entries()) {
    const path = `data[${position}]`;
    if (!isRecord(item)) {
      problem(`${path}: expected an object with index and embedding, got ${describeValue(item)}`);
      continue;
    }
    const index = own(item, 'index');
    const embedding = own(item, 'embedding');
    let indexOk = false;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) {
      problem(
        `${path}.index: expected a whole number from 0 to ${count - 1}, got ${describeValue(index)}`,
      );
    } else if (seenAt[index] !== undefined) {
      problem(`${path}.index: ${index} again (data[${String(seenAt[index])}] has it)`);
    } else {
      seenAt[index] = position;
      indexOk = true;
    }
    if (!Array.isArray(embedding) || embedding.length === 0) {
      problem(
        `${path}.embedding: expected a non-empty array of numbers, got ${describeValue(embedding)}`,
      );
      continue;
    }
    const bad = firstNonFinite(embedding);
    if (bad >= 0) {
      problem(
        `${path}.embedding[${bad}]: expected a finite number, got ${describeValue(embedding[bad])}`,
      );
      continue;
    }
    if (expected === undefined) {
      expected = embedding.length;
      expectedFrom = ` (as ${path})`;
    } else if (embedding.length !== expected) {
      problem(
        `${path}.embedding: expected ${expected} numbers${expectedFrom}, got ${embedding.length}`,
      );
      continue;
    }
    if (indexOk) vectors[index as number] = (embedding as number[]).slice();
  }
  for (let index = 0; index < count; index++) {
    if (seenAt[index] === undefined) problem(`data: no item has index ${index}`);
  }
  if (problemCount > 0) return { problems, problemCount };
  return { vectors: vectors as number[][] };
};
