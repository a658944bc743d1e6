/**
 * A one-consumer queue that turns pushes into an async iterable: `push` never blocks the
 * producer (events wait in order until read), `close` ends the iteration after the events
 * already pushed, `fail` ends it with an error after them. A producer that wants to go no faster
 * than its reader awaits `whenRead()` after a push.
 *
 * @internal
 */
export class EventQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #waiting: (() => void) | undefined;
  #done = false;
  #error: { readonly reason: unknown } | undefined;
  /** Producers waiting for the reader to take every item and ask for more. */
  #drained: (() => void)[] = [];

  push(item: T): void {
    if (this.#done) return;
    this.#items.push(item);
    this.#wake();
  }

  close(): void {
    this.#done = true;
    this.#wake();
    this.#release();
  }

  fail(reason: unknown): void {
    if (this.#done) return;
    this.#error = { reason };
    this.#done = true;
    this.#wake();
    this.#release();
  }

  /**
   * Resolves once the reader has taken every item pushed so far and asked for the next one (it
   * is done with them), or the queue has ended (closed, failed, or the reader left).
   */
  whenRead(): Promise<void> {
    // Ended, or the reader already waits on an empty queue.
    if (this.#done || this.#waiting !== undefined) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  #release(): void {
    const drained = this.#drained;
    this.#drained = [];
    for (const resolve of drained) resolve();
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let next = 0;
    for (;;) {
      if (next < this.#items.length) {
        const item = this.#items[next] as T;
        // Read items are released (a long stream does not keep every delta).
        this.#items[next] = undefined as T;
        next += 1;
        if (next > 1024 && next * 2 > this.#items.length) {
          this.#items.splice(0, next);
          next = 0;
        }
        yield item;
        continue;
      }
      if (this.#done) {
        if (this.#error !== undefined) throw this.#error.reason;
        return;
      }
      // Every item is taken and the reader asks for more: a producer waiting for it goes on.
      this.#release();
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
      });
    }
  }
}
