import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import { isConversationMemoryError } from '../errors/errorBrand';
import type { MemoryDecodeError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { checkOptionFields } from '../internal/checkConfig';
import { errorText } from '../util/errorText';
import { normalizeMessage } from '../internal/normalizeMessage';
import type { MemoryAction } from '../model/actions';
import type { MemoryOptions } from '../model/config';
import type { Message } from '../model/message';
import { cloneJsonObject } from '../internal/cloneJson';
import { deepFreeze } from '../model/freeze';
import {
  readFactsPayload,
  readForgottenPayload,
  readRememberedPayload,
} from '../knowledge/readKnowledgePayload';
import { boundedArray } from './boundedArray';
import { BudgetSlot, ProblemBudget, type Budget } from './budget';
import { ownStruct } from './ownStruct';
import { positionCodec } from './position';
import { codecFailure, publicDecode } from './publicDecoder';
import { taggedCodec, type TaggedMember } from './taggedCodec';

const API = 'decodeAction';

/**
 * A message in our own shape (`{ role, content, toolCalls, … }`), checked as every message is on
 * entry, and decoded to its canonical frozen copy. The failure is the check's own sentence
 * (`message.role must be one of …, received "USER"`).
 */
const MessageCodec = /* @__PURE__ */ new t.Type<Message, Message, unknown>(
  'message',
  (u): u is Message => typeof u === 'object' && u !== null,
  (u, c) => {
    try {
      return t.success(normalizeMessage(u, API));
    } catch (error) {
      return t.failure(u, c, isConversationMemoryError(error) ? error.detail : errorText(error));
    }
  },
  t.identity,
);

/** A position in an action: a safe integer ≥ 0 (`-0` decodes to `0`). */
const Position = /* @__PURE__ */ positionCodec('position', (value) =>
  Number.isSafeInteger(value) && (value as number) >= 0
    ? undefined
    : `must be an integer ≥ 0, received ${describeValue(value)}`,
);

/**
 * `through` of a summary commit: what `commitSummary` and `memoryActions.summaryCommitted` take, a
 * safe integer (one below every held position commits nothing), so every recorded action reads
 * back.
 */
const Through = /* @__PURE__ */ positionCodec('position', (value) =>
  Number.isSafeInteger(value) ? undefined : `must be an integer, received ${describeValue(value)}`,
);

/**
 * The config fields of a `memory/reconfigured` action, checked as `createMemory` checks them
 * (each problem is its sentence: `payload: maxMessages must be at least 1, received 0`), decoded
 * to a frozen copy of the fields given.
 */
const ConfigFields = /* @__PURE__ */ new t.Type<MemoryOptions, MemoryOptions, unknown>(
  'config fields',
  (u): u is MemoryOptions => typeof u === 'object' && u !== null,
  (u, c) => {
    const checked = checkOptionFields(u);
    return checked.ok
      ? t.success(checked.fields)
      : t.failures(checked.problems.map((message) => ({ value: u, context: c, message })));
  },
  t.identity,
);

const NullableString = /* @__PURE__ */ t.union([t.string, t.null], 'string or null');

/**
 * A knowledge action's payload: a deep JSON copy, checked as its reducer checks it (the reducer's
 * problem, naming the field and the value, is the decode's).
 */
const knowledgePayload = (name: string, check: (payload: never, api: string) => unknown) =>
  new t.Type<object, object, unknown>(
    name,
    (u): u is object => typeof u === 'object' && u !== null,
    (u, c) => {
      try {
        const copy = cloneJsonObject(u, 'action.payload');
        check(copy as never, API);
        return t.success(deepFreeze(copy));
      } catch (error) {
        return t.failure(u, c, isConversationMemoryError(error) ? error.detail : errorText(error));
      }
    },
    t.identity,
  );

/** The codec of the action union; its lists share `budget` (a slot holding the call's budget). */
const actionCodec = (budget: Budget): t.Type<MemoryAction, unknown, unknown> => {
  const messages = boundedArray('list of messages', MessageCodec, budget);
  // Each member's shape is checked by io-ts; the union's type is MemoryAction's own.
  const bare = (type: string): TaggedMember<MemoryAction> =>
    ownStruct(
      `${type} action`,
      { type: t.literal(type) },
      {},
    ) as unknown as TaggedMember<MemoryAction>;
  const withPayload = (type: string, payload: t.Mixed): TaggedMember<MemoryAction> =>
    ownStruct(
      `${type} action`,
      { type: t.literal(type), payload },
      {},
    ) as unknown as TaggedMember<MemoryAction>;
  return taggedCodec<MemoryAction>('memory action object', 'type', {
    'memory/messageAdded': withPayload('memory/messageAdded', MessageCodec),
    'memory/messagesAdded': withPayload('memory/messagesAdded', messages),
    'memory/limitsEnforced': bare('memory/limitsEnforced'),
    'memory/toolPairBoundaryFixed': bare('memory/toolPairBoundaryFixed'),
    'memory/summaryApplied': withPayload('memory/summaryApplied', t.string),
    'memory/summarySet': withPayload('memory/summarySet', NullableString),
    'memory/cleared': bare('memory/cleared'),
    'memory/trimHeld': withPayload(
      'memory/trimHeld',
      ownStruct(
        'held trim object',
        { removed: messages, positions: boundedArray('list of positions', Position, budget) },
        {},
      ),
    ),
    'memory/summaryCommitted': withPayload(
      'memory/summaryCommitted',
      ownStruct('summary commit object', { text: t.string, through: Through }, {}),
    ),
    'memory/reconfigured': withPayload('memory/reconfigured', ConfigFields),
    'knowledge/factsExtracted': withPayload(
      'knowledge/factsExtracted',
      knowledgePayload('facts extracted object', readFactsPayload),
    ),
    'knowledge/remembered': withPayload(
      'knowledge/remembered',
      knowledgePayload('remembered entry object', readRememberedPayload),
    ),
    'knowledge/forgotten': withPayload(
      'knowledge/forgotten',
      knowledgePayload('forgotten entry object', readForgottenPayload),
    ),
    'knowledge/cleared': bare('knowledge/cleared'),
  });
};

/** The action codec, built on the first decode (never at module load: bundles can drop it). */
let built: { codec: t.Type<MemoryAction, unknown, unknown>; slot: BudgetSlot } | undefined;

const buildOnce = () => {
  const slot = new BudgetSlot();
  return { codec: actionCodec(slot), slot };
};

/**
 * Reads an action back from untrusted data (a stored event log, a message from another process),
 * as the reducers' action union. Only the fields of the action are read (a Redux `meta` is
 * ignored), each once; messages are checked as on entry and come back as canonical frozen copies.
 * Never throws on bad input.
 *
 * @param input - parsed JSON
 * @returns `Right(action)`, or `Left(MemoryDecodeError)` naming each problem's path
 *   (`type: expected "memory/messageAdded" | …, got "memory/nope"`,
 *   `payload: message.role must be one of …`)
 * @example
 * ```ts
 * const decoded = decodeAction(JSON.parse('{"type":"memory/summaryApplied","payload":"S"}'));
 * // Right({ type: 'memory/summaryApplied', payload: 'S' })
 * ```
 */
export const decodeAction = (input: unknown): E.Either<MemoryDecodeError, MemoryAction> => {
  const budget = new ProblemBudget();
  return publicDecode(API, () => {
    const { codec, slot } = (built ??= buildOnce());
    const decoded = slot.run(budget, () => codec.decode(input));
    if (E.isLeft(decoded)) return codecFailure(API, decoded.left, budget);
    // The payload's parts are copies made by the decode; freeze the record around them.
    return E.right(Object.freeze(decoded.right));
  });
};
