/**
 * Rejects with a `TimeoutError` (the platform's `DOMException`, as `AbortSignal.timeout` gives)
 * when `promise` has not settled within `ms`: node-redis may wait for a reply forever once a
 * command is written, so a server that stops answering would otherwise hang every caller.
 *
 * @example
 * ```ts
 * await withRedisTimeout(client.sendCommand(['PING']), 1000); // 'PONG', or a TimeoutError
 * ```
 */
export const withRedisTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new DOMException(`Redis did not answer within ${ms} ms`, 'TimeoutError'));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
