import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import type { Budget } from './budget';

/**
 * An io-ts codec for an array whose items are decoded by `item`, that stops inspecting items once
 * the decode call's budget ({@link Budget}) is exhausted: a list of a million bad entries (or a
 * sparse array of length 2^32 − 1, whose holes read as `undefined`) is rejected after a bounded
 * number of failures, with bounded memory, instead of building an error per entry. `length` and
 * each item are read once. The result is always a new array.
 *
 * Once the budget is exhausted, items are no longer inspected, so a list may be cut short: that
 * is only sound because exhaustion means some list of the same decode failed, which fails the
 * decode as a whole. Do not put it in a union beside another list codec, where a failing member
 * would not fail the decode.
 *
 * @internal
 */
export const boundedArray = <C extends t.Mixed>(
  name: string,
  item: C,
  budget: Budget,
): BoundedArrayType<t.TypeOf<C>> =>
  new BoundedArrayType<t.TypeOf<C>>(
    name,
    (u): u is t.TypeOf<C>[] => Array.isArray(u) && u.every((value) => item.is(value)),
    (u, context) => {
      if (!Array.isArray(u)) return t.failure(u, context);
      const items = u as readonly unknown[];
      const length = items.length;
      const out = new Array<t.TypeOf<C>>();
      const errors: t.ValidationError[] = [];
      for (let i = 0; i < length && !budget.exhausted; i++) {
        const value = items[i];
        const result = item.validate(value, t.appendContext(context, String(i), item, value));
        if (E.isLeft(result)) {
          errors.push(...result.left);
          budget.spend();
        } else if (errors.length === 0) {
          out.push(result.right);
        }
      }
      return errors.length > 0 ? t.failures(errors) : t.success(out);
    },
  );

/**
 * The codec type of {@link boundedArray}; its `_tag` lets error reports render item paths as
 * `messages[3]`.
 *
 * @internal
 */
export class BoundedArrayType<A> extends t.Type<A[], unknown, unknown> {
  readonly _tag = 'BoundedArrayType' as const;
  constructor(name: string, is: t.Is<A[]>, validate: t.Validate<unknown, A[]>) {
    super(name, is, validate, t.identity);
  }
}
