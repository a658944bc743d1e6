/** Past this many keys, the oldest are forgotten (they are checked again when next needed). */
const MAX_KEYS = 10_000;

/**
 * The keys whose rows this connection knows to decode: rows it wrote itself, or decoded since.
 * `list`, `search` and `save` skip decoding those again (checking a 1,000-message row costs
 * milliseconds). It is exact, not a guess: SQLite's `data_version` changes whenever another
 * connection commits, and then everything is forgotten; this connection's own writes keep the set
 * up to date.
 *
 * @example
 * ```ts
 * const known = new ValidatedRows();
 * known.sync(db.pragma('data_version', { simple: true }) as number); // inside a transaction
 * if (!known.has('s1')) { … decode the row … ; known.add('s1'); }
 * ```
 */
export class ValidatedRows {
  readonly #keys = new Set<string>();
  #version: number | undefined;

  /**
   * Takes the connection's `data_version` (read in the current transaction): when another
   * connection committed since the last call, everything known is forgotten.
   */
  sync(dataVersion: number): void {
    if (dataVersion !== this.#version) {
      this.#keys.clear();
      this.#version = dataVersion;
    }
  }

  /** Whether the row of `key` is known to decode. */
  has(key: string): boolean {
    return this.#keys.has(key);
  }

  /** Records that the row of `key` decodes (this connection wrote or decoded it). */
  add(key: string): void {
    if (this.#keys.size >= MAX_KEYS && !this.#keys.has(key)) {
      const oldest = this.#keys.values().next();
      if (oldest.done !== true) this.#keys.delete(oldest.value);
    }
    this.#keys.add(key);
  }

  /** Forgets `key` (its row was deleted or replaced by a row not yet checked). */
  delete(key: string): void {
    this.#keys.delete(key);
  }
}
