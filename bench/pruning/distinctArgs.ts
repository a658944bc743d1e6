import { describeValue } from '../../src/util/describeValue';

/** What `npm run bench:pruning [conversations] [keepLast] [memoryFactor] [budgets]` was asked. */
export interface DistinctArgs {
  readonly conversations: number;
  readonly keepLast: number;
  readonly memoryFactor: number;
  readonly budgets: readonly number[];
}

/**
 * Reads the distinct-content benchmark's arguments (defaults 50, 2, 3, `2000,4000`); a bad one
 * throws, naming its place and value. The docs test parses the arguments the docs print with it.
 *
 * @example
 * ```ts
 * parseDistinctArgs(['200', '2', '3', '1000,2000']).budgets; // [1000, 2000]
 * ```
 */
export const parseDistinctArgs = (args: readonly string[]): DistinctArgs => {
  if (args.length > 4) {
    throw new Error(
      `bench:pruning: at most 4 arguments (conversations keepLast memoryFactor budgets), received ${args.length}`,
    );
  }
  const budgetList = args[3] ?? '2000,4000';
  if (!/^[1-9][0-9]{0,6}(,[1-9][0-9]{0,6})*$/.test(budgetList)) {
    throw new Error(
      `bench:pruning: argument 4 must be budgets such as 2000,4000, received ${describeValue(budgetList)}`,
    );
  }
  const [conversations, keepLast, memoryFactor] = [50, 2, 3].map((fallback, i) => {
    const value = Number(args[i] ?? fallback);
    if (!Number.isSafeInteger(value) || value < (i === 1 ? 0 : 1)) {
      throw new Error(
        `bench:pruning: argument ${i + 1} must be an integer, received ${describeValue(args[i])}`,
      );
    }
    return value;
  }) as [number, number, number];
  return { conversations, keepLast, memoryFactor, budgets: budgetList.split(',').map(Number) };
};
