/** How many records a store remembers as verified; older ones are forgotten first. */
const CAPACITY = 1000;

/**
 * The versions of records this store has decoded successfully (hash name → `recordToken`), so
 * that a save after a load or a save by the same store needs no second read. Bounded: the
 * oldest entries are forgotten first, which only costs a forgotten record one extra read.
 *
 * @example
 * ```ts
 * const verified = new VerifiedTokens();
 * verified.set('app:s:s1', '1|1764500000|1764500000|812');
 * verified.get('app:s:s1'); // '1|1764500000|1764500000|812'
 * ```
 */
export class VerifiedTokens {
  readonly #tokens = new Map<string, string>();

  get(hash: string): string | undefined {
    return this.#tokens.get(hash);
  }

  set(hash: string, token: string): void {
    this.#tokens.delete(hash);
    this.#tokens.set(hash, token);
    if (this.#tokens.size > CAPACITY) {
      const oldest = this.#tokens.keys().next();
      if (oldest.done !== true) this.#tokens.delete(oldest.value);
    }
  }

  delete(hash: string): void {
    this.#tokens.delete(hash);
  }
}
