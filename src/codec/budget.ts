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
