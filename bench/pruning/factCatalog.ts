/**
 * The facts of the pruning benchmark: `key: value` strings planted verbatim in messages (a file
 * line, a search hit, a user's statement), and the scanner that finds them in a text. A fact is
 * found only as a whole: `retry_limit: 3` is not found in `max_retry_limit: 3` nor in
 * `retry_limit: 30`.
 */

/**
 * One planted fact: a key and one of its values.
 *
 * @example
 * ```ts
 * const fact: Fact = { key: 'retry_limit', value: '3' };
 * ```
 */
export interface Fact {
  readonly key: string;
  readonly value: string;
}

/**
 * The text a fact is planted as, and what the benchmark looks for: `key: value`.
 *
 * @example
 * ```ts
 * factText({ key: 'deadline', value: 'Friday 14:00' }); // 'deadline: Friday 14:00'
 * ```
 */
export const factText = (fact: Fact): string => `${fact.key}: ${fact.value}`;

const WORD = /[\p{L}\p{N}_]/u;

/** Whether the value that ends at `end` of `text` ends there (not `30` read as `3`). */
const endsAt = (text: string, end: number): boolean => {
  const next = text.charAt(end);
  if (next === '') return true;
  if (WORD.test(next)) return false;
  // `2.4` inside `2.4.1`, `14:00` inside `14:00:30`, `stg-eu` inside `stg-eu-3`.
  return !('.:/-@'.includes(next) && WORD.test(text.charAt(end + 1)));
};

/**
 * The facts a conversation can state: every key with every value it may take. Finds them in text.
 *
 * @example
 * ```ts
 * const catalog = new FactCatalog(new Map([['retry_limit', ['3', '30']]]));
 * catalog.factsIn('  12| retry_limit: 30'); // [{ key: 'retry_limit', value: '30' }]
 * ```
 */
export class FactCatalog {
  readonly #values: ReadonlyMap<string, readonly string[]>;

  constructor(valuesByKey: ReadonlyMap<string, readonly string[]>) {
    // Longest value first: `Friday 14:00` before a value `Friday`, if a key had both.
    this.#values = new Map(
      [...valuesByKey].map(([key, values]) => [
        key,
        [...values].sort((a, b) => b.length - a.length),
      ]),
    );
  }

  /** The keys, in the order they were given. */
  get keys(): readonly string[] {
    return [...this.#values.keys()];
  }

  /**
   * The facts `text` states, in the order they appear.
   *
   * @param text - a message's text
   * @returns every `key: value` of the catalog found as a whole in it
   */
  factsIn(text: string): Fact[] {
    const found: { at: number; fact: Fact }[] = [];
    for (const [key, values] of this.#values) {
      const needle = `${key}: `;
      for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
        if (at > 0 && WORD.test(text.charAt(at - 1))) continue;
        const start = at + needle.length;
        const value = values.find(
          (candidate) =>
            text.startsWith(candidate, start) && endsAt(text, start + candidate.length),
        );
        if (value !== undefined) found.push({ at, fact: { key, value } });
      }
    }
    return found.sort((a, b) => a.at - b.at).map((entry) => entry.fact);
  }
}
