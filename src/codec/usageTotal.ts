import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import type { ConversationUsage } from '../model/conversationUsage';
import { ownStruct } from './ownStruct';
import { positionCodec, positionProblem } from './position';

/** A token count of a stored usage: `readUsage`'s rule, an integer from 0 to 2^53 − 1. */
const TokenCount = /* @__PURE__ */ positionCodec('token count', (u) =>
  positionProblem(u, Number.MAX_SAFE_INTEGER, '2^53 − 1'),
);

/** The number of calls of a stored usage: at least 1 (a state leaves the usage out when none). */
const CallCount = /* @__PURE__ */ positionCodec(
  'call count',
  (u) =>
    positionProblem(u, Number.MAX_SAFE_INTEGER, '2^53 − 1') ??
    (u === 0
      ? 'must be at least 1 (the usage is left out when no call left), received 0'
      : undefined),
);

const UsageFields = /* @__PURE__ */ ownStruct(
  'usage object',
  {
    calls: CallCount,
    inputTokens: TokenCount,
    cachedInputTokens: TokenCount,
    cacheWriteTokens: TokenCount,
    outputTokens: TokenCount,
  },
  {},
);

/** The fields, then the rule between them. */
const validateTotal = (u: unknown, context: t.Context): t.Validation<ConversationUsage> => {
  const fields = UsageFields.validate(u, context);
  if (E.isLeft(fields)) return fields;
  const usage = fields.right;
  const parts = usage.cachedInputTokens + usage.cacheWriteTokens;
  if (parts > usage.inputTokens) {
    return t.failure(
      u,
      context,
      `cachedInputTokens + cacheWriteTokens must be at most inputTokens (${usage.inputTokens}), received ${parts}`,
    );
  }
  return t.success(Object.freeze(usage));
};

/**
 * The codec of a summed usage a file or a stored state keeps (`conversation_memory.trimmed_usage`,
 * `MemoryState.trimmedUsage`): every field of `ConversationUsage` present, each a count by
 * `readUsage`'s rules (an integer from 0 to 2^53 − 1, `-0` read as 0; `calls` at least 1), the
 * cache reads and writes together at most `inputTokens`. Other keys are left out (as `readUsage`
 * leaves them). Decodes to a new frozen record; a problem names the field and the value
 * (`conversation_memory.trimmed_usage.inputTokens must be an integer from 0 to 2^53 − 1, received -1`).
 *
 * @internal
 */
export const UsageTotal = /* @__PURE__ */ new t.Type<ConversationUsage, unknown, unknown>(
  'usage object',
  (u): u is ConversationUsage => E.isRight(validateTotal(u, [])),
  (u, context) => validateTotal(u, context),
  t.identity,
);
