/**
 * How many failing list items a decoder inspects before it stops looking: rejecting a hostile
 * input (a million bad messages, a sparse array of length 2^32 − 1) then costs time and memory
 * bounded by this number, not by the input.
 *
 * @internal
 */
export const MAX_INSPECTED_PROBLEMS = 1000;

/**
 * The failure budget of one decode call, shared by every list codec of that call.
 *
 * @internal
 */
export class ProblemBudget {
  #failures = 0;

  /** Records one failing list item. */
  spend(): void {
    this.#failures++;
  }

  /** True once {@link MAX_INSPECTED_PROBLEMS} failing items were seen: stop looking. */
  get exhausted(): boolean {
    return this.#failures >= MAX_INSPECTED_PROBLEMS;
  }
}

/**
 * What a list codec needs of a budget: to record a failure and to know when to stop.
 *
 * @internal
 */
export interface Budget {
  spend(): void;
  readonly exhausted: boolean;
}

/**
 * A budget that stands for the current decode call's {@link ProblemBudget}, so that a codec can be
 * built once and reused by every call (building the action codec cost more than decoding a
 * message). {@link BudgetSlot.run} installs a fresh budget for one call and restores the previous
 * one after it, so a decode that runs inside another (a getter of the input calling the decoder)
 * keeps its own count.
 *
 * @internal
 */
export class BudgetSlot implements Budget {
  #current = new ProblemBudget();

  spend(): void {
    this.#current.spend();
  }

  get exhausted(): boolean {
    return this.#current.exhausted;
  }

  /** Runs `decode` with `budget` as the current budget. */
  run<A>(budget: ProblemBudget, decode: () => A): A {
    const previous = this.#current;
    this.#current = budget;
    try {
      return decode();
    } finally {
      this.#current = previous;
    }
  }
}

/**
 * The problems one decode call found, with its {@link ProblemBudget}: once
 * {@link MAX_INSPECTED_PROBLEMS} were added, further ones are dropped and {@link ProblemList.full}
 * tells the decoder to stop looking (so `countComplete` is then `false`).
 *
 * @example
 * ```ts
 * const found = new ProblemList();
 * found.add('messages[0].role must be one of …');
 * found.lines; // ['messages[0].role must be one of …']
 * ```
 * @internal
 */
export class ProblemList {
  readonly lines: string[] = [];
  readonly budget = new ProblemBudget();

  /** Records one problem, unless the list is full. */
  add(line: string): void {
    if (this.budget.exhausted) return;
    this.lines.push(line);
    this.budget.spend();
  }

  /** True once {@link MAX_INSPECTED_PROBLEMS} problems were added: stop looking. */
  get full(): boolean {
    return this.budget.exhausted;
  }
}
