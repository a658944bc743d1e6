import * as t from 'io-ts';

/**
 * An io-ts codec for values of type `A` that are valid exactly when `problem` returns
 * `undefined`; otherwise the failure carries `problem`'s text, which names what is wrong
 * (`must be at least 1, received 0`). The value passes through unchanged.
 *
 * @internal
 */
export const checkedCodec = <A>(
  name: string,
  problem: (value: unknown) => string | undefined,
): t.Type<A, A, unknown> =>
  new t.Type<A, A, unknown>(
    name,
    (u): u is A => problem(u) === undefined,
    (u, c) => {
      const found = problem(u);
      return found === undefined ? t.success(u as A) : t.failure(u, c, found);
    },
    t.identity,
  );
