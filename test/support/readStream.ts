/**
 * A web `ReadableStream` as an async iterable, read with its reader (the DOM typings the project
 * compiles with do not declare `ReadableStream` async-iterable, although Node's is).
 */
export async function* iterateStream<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    reader.releaseLock();
  }
}
