import { limitProblem, nullableLimitProblem } from '../util/limitProblem';
import { checkedCodec } from './checkedCodec';

/**
 * An io-ts codec for a limit: an integer ≥ 1, with a message that names the problem.
 *
 * @internal
 */
export const Limit = /* @__PURE__ */ checkedCodec<number>('integer ≥ 1', limitProblem);

/**
 * An io-ts codec for an optional limit: `null` (no limit) or an integer ≥ 1.
 *
 * @internal
 */
export const NullableLimit = /* @__PURE__ */ checkedCodec<number | null>(
  'integer ≥ 1 or null',
  nullableLimitProblem,
);
