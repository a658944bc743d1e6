/**
 * A one-consumer queue that turns pushes into an async iterable: `push` never blocks the
 * producer (events wait in order until read), `close` ends the iteration after the events
 * already pushed, `fail` ends it with an error after them.
 *
 * @internal
 */
export class EventQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #waiting: (() => void) | undefined;
  #done = false;
  #error: { readonly reason: unknown } | undefined;

  push(item: T): void {
    if (this.#done) return;
    this.#items.push(item);
    this.#wake();
  }

  close(): void {
    this.#done = true;
    this.#wake();
  }

  fail(reason: unknown): void {
    if (this.#done) return;
    this.#error = { reason };
    this.#done = true;
    this.#wake();
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
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
      });
    }
  }
}
