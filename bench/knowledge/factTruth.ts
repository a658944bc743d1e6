/**
 * The ground truth of a scripted conversation: which facts hold after each statement, as the
 * script's world defines them (not as any memory decides). In the script's world `works_at`,
 * `lives_in` and `is_a` hold one object at a time (a new one replaces the old), and `likes`
 * accumulates.
 */

/**
 * One fact, `subject --[relation]--> object`, as a benchmark compares facts.
 *
 * @example
 * ```ts
 * const fact: Triple = { subject: 'Priya', relation: 'works_at', object: 'Globex' };
 * ```
 */
export interface Triple {
  readonly subject: string;
  readonly relation: string;
  readonly object: string;
}

/**
 * The relations of the script's world that hold one object at a time.
 *
 * @example
 * ```ts
 * SCRIPT_SINGLE_VALUED.has('lives_in'); // true
 * ```
 */
export const SCRIPT_SINGLE_VALUED: ReadonlySet<string> = new Set(['works_at', 'lives_in', 'is_a']);

/**
 * The comparison key of a fact: subject, relation and object, in lower case.
 *
 * @example
 * ```ts
 * factKey({ subject: 'Priya', relation: 'works_at', object: 'Globex' }); // 'priya\u0000works_at\u0000globex'
 * ```
 */
export const factKey = (fact: Triple): string =>
  `${fact.subject}\u0000${fact.relation}\u0000${fact.object}`.toLowerCase();

/**
 * How a list of injected or stored facts compares with the truth: `current` facts in force,
 * `stale` ones (stated once, superseded since), `unknown` ones (never stated: an extraction
 * error), and `duplicates` (a fact listed more than once, each copy after the first).
 *
 * @example
 * ```ts
 * const none: FactCheck = { current: 0, stale: 0, unknown: 0, duplicates: 0 };
 * ```
 */
export interface FactCheck {
  readonly current: number;
  readonly stale: number;
  readonly unknown: number;
  readonly duplicates: number;
}

/**
 * The facts in force and every fact ever stated, updated statement by statement.
 *
 * @example
 * ```ts
 * const truth = new FactTruth();
 * truth.state({ subject: 'Priya', relation: 'lives_in', object: 'Oslo' });
 * truth.state({ subject: 'Priya', relation: 'lives_in', object: 'Lisbon' });
 * truth.current().map((f) => f.object); // ['Lisbon']
 * ```
 */
export class FactTruth {
  /** Facts in force by key, in the order they came into force. */
  readonly #current = new Map<string, Triple>();
  readonly #ever = new Set<string>();

  /** Records a statement: a single-valued relation's old object stops holding. */
  state(fact: Triple): void {
    const key = factKey(fact);
    this.#ever.add(key);
    if (this.#current.has(key)) return;
    if (SCRIPT_SINGLE_VALUED.has(fact.relation)) {
      for (const [otherKey, other] of this.#current) {
        if (
          other.subject.toLowerCase() === fact.subject.toLowerCase() &&
          other.relation === fact.relation
        )
          this.#current.delete(otherKey);
      }
    }
    this.#current.set(key, fact);
  }

  /** The facts in force. */
  current(): Triple[] {
    return [...this.#current.values()];
  }

  /** The facts in force about `subject`. */
  currentAbout(subject: string): Triple[] {
    return this.current().filter((fact) => fact.subject.toLowerCase() === subject.toLowerCase());
  }

  /** Compares `facts` (a block's or a store's) with the truth as it stands. */
  check(facts: readonly Triple[]): FactCheck {
    let current = 0;
    let stale = 0;
    let unknown = 0;
    let duplicates = 0;
    const seen = new Set<string>();
    for (const fact of facts) {
      const key = factKey(fact);
      if (seen.has(key)) duplicates++;
      seen.add(key);
      if (this.#current.has(key)) current++;
      else if (this.#ever.has(key)) stale++;
      else unknown++;
    }
    return { current, stale, unknown, duplicates };
  }
}
