import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import { MemoryDecodeError } from '../errors/memoryErrors';
import { checkKnowledgeRules } from '../knowledge/codec/knowledgeRules';
import { type FactIdKind, factIdProblem } from '../knowledge/codec/knowledgeIds';
import {
  MAX_ENTITY_PARTS,
  MAX_KNOWLEDGE_FACTS,
  MAX_KNOWLEDGE_POSITION,
  MAX_KNOWLEDGE_TEXT_LENGTH,
  MAX_KNOWLEDGE_TIME,
} from '../knowledge/codec/knowledgeLimits';
import { MAX_FACT_SOURCES, type KnowledgeState, type RetireReason } from '../model/knowledge';
import { describeValue, received } from '../util/describeValue';
import { boundedArray, BoundedArrayType } from './boundedArray';
import { type Budget, BudgetSlot, ProblemBudget } from './budget';
import { checkedCodec } from './checkedCodec';
import { JsonObjectCodec } from './jsonCodecs';
import { ownStruct } from './ownStruct';
import { codecFailure, publicDecode } from './publicDecoder';

const API = 'decodeKnowledgeState';

/** A number codec: `problem` decides, and `-0` (which JSON cannot keep) decodes as `0`. */
const numberCodec = (
  name: string,
  problem: (value: number) => string | undefined,
): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    name,
    (u): u is number => typeof u === 'number' && problem(u) === undefined,
    (u, c) => {
      if (typeof u !== 'number') return t.failure(u, c, `must be a number, ${received(u)}`);
      const found = problem(u);
      return found === undefined ? t.success(u === 0 ? 0 : u) : t.failure(u, c, found);
    },
    t.identity,
  );

/** `null`, or what `codec` accepts (its own message on failure: no second "expected null"). */
const nullable = <A>(codec: t.Type<A, A, unknown>): t.Type<A | null, A | null, unknown> =>
  new t.Type<A | null, A | null, unknown>(
    `${codec.name} or null`,
    (u): u is A | null => u === null || codec.is(u),
    (u, c) => (u === null ? t.success(null) : codec.validate(u, c)),
    t.identity,
  );

const Time = /* @__PURE__ */ numberCodec('time (ms)', (n) =>
  Number.isFinite(n) && Math.abs(n) <= MAX_KNOWLEDGE_TIME
    ? undefined
    : `must be a time in milliseconds (a finite number within ±${MAX_KNOWLEDGE_TIME}), received ${describeValue(n)}`,
);
const Unit = /* @__PURE__ */ numberCodec('number in [0, 1]', (n) =>
  n >= 0 && n <= 1 ? undefined : `must be a number from 0 to 1, received ${describeValue(n)}`,
);
const Mentions = /* @__PURE__ */ numberCodec('integer ≥ 1', (n) =>
  Number.isSafeInteger(n) && n >= 1
    ? undefined
    : `must be an integer ≥ 1, received ${describeValue(n)}`,
);
const Position = /* @__PURE__ */ numberCodec('position', (n) =>
  Number.isInteger(n) && n >= 0 && n <= MAX_KNOWLEDGE_POSITION
    ? undefined
    : `must be an integer from 0 to 2^48, received ${describeValue(n)}`,
);
const NextId = /* @__PURE__ */ numberCodec('integer ≥ 1', (n) =>
  Number.isSafeInteger(n) && n >= 1
    ? undefined
    : `must be an integer ≥ 1, received ${describeValue(n)}`,
);
const TtlDays = /* @__PURE__ */ numberCodec('days', (n) =>
  Number.isFinite(n) && n >= 0
    ? undefined
    : `must be a number of days ≥ 0 (or null), received ${describeValue(n)}`,
);

const textProblem = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return `must be a string, ${received(value)}`;
  return value.length <= MAX_KNOWLEDGE_TEXT_LENGTH
    ? undefined
    : `must be at most ${MAX_KNOWLEDGE_TEXT_LENGTH} characters long, received ${value.length}`;
};
const Text = /* @__PURE__ */ checkedCodec<string>('string', textProblem);

const idCodec = (kind: FactIdKind): t.Type<string, string, unknown> =>
  checkedCodec<string>(`${kind} id`, (value) =>
    typeof value !== 'string' || value.length > MAX_KNOWLEDGE_TEXT_LENGTH
      ? textProblem(value)
      : factIdProblem(kind, value, describeValue),
  );
const AnyId = /* @__PURE__ */ checkedCodec<string>('fact id', textProblem);

const RETIRE_REASONS: readonly RetireReason[] = ['superseded', 'evicted', 'forgotten', 'expired'];
const RetireReasonCodec = /* @__PURE__ */ checkedCodec<RetireReason>('retire reason', (value) =>
  RETIRE_REASONS.includes(value as RetireReason)
    ? undefined
    : `must be one of ${RETIRE_REASONS.map((r) => `"${r}"`).join(', ')}, received ${describeValue(value)}`,
);

const Metadata = /* @__PURE__ */ new t.Type<t.TypeOf<typeof JsonObjectCodec>, unknown, unknown>(
  'JSON object',
  // An arrow, not `JsonObjectCodec.is`: a property read at load would keep io-ts in every bundle.
  (u): u is t.TypeOf<typeof JsonObjectCodec> => JsonObjectCodec.is(u),
  (u, c) => {
    const decoded = JsonObjectCodec.validate(u, c);
    if (E.isLeft(decoded)) return decoded;
    const length = JSON.stringify(decoded.right).length;
    return length <= MAX_KNOWLEDGE_TEXT_LENGTH
      ? decoded
      : t.failure(
          u,
          c,
          `must be at most ${MAX_KNOWLEDGE_TEXT_LENGTH} characters long as JSON, received ${length}`,
        );
  },
  t.identity,
);

/** A list refused whole when longer than `max` (before any item is read), else item by item. */
const cappedArray = <C extends t.Mixed>(
  name: string,
  item: C,
  max: number,
  budget: Budget,
): BoundedArrayType<t.TypeOf<C>> => {
  const items = boundedArray(name, item, budget);
  // A BoundedArrayType, so that reports name its items `entities[3]`.
  return new BoundedArrayType<t.TypeOf<C>>(name, items.is, (u, c) =>
    Array.isArray(u) && u.length > max
      ? t.failure(u, c, `must hold at most ${max} items, received ${u.length}`)
      : items.validate(u, c),
  );
};

/** The codec of a whole state; built once, on the first decode. */
const stateCodec = (budget: Budget) => {
  const Source = ownStruct('fact source', { from: Position, to: Position }, {});
  const fact = (kind: FactIdKind) => ({
    id: idCodec(kind),
    sources: cappedArray('list of sources', Source, MAX_FACT_SOURCES, budget),
    confidence: Unit,
    mentions: Mentions,
    validFrom: Time,
    validTo: nullable(Time),
    recordedAt: Time,
    retiredAt: nullable(Time),
    retiredBy: nullable(RetireReasonCodec),
    supersededBy: nullable(AnyId),
  });
  const Attribute = ownStruct(
    'entity attribute',
    { ...fact('attribute'), key: Text, value: Text },
    {},
  );
  const Entity = ownStruct(
    'entity',
    {
      ...fact('entity'),
      name: Text,
      aliases: cappedArray('list of aliases', Text, MAX_ENTITY_PARTS, budget),
      type: Text,
      attributes: cappedArray('list of attributes', Attribute, MAX_ENTITY_PARTS, budget),
      lastMentioned: Time,
    },
    {},
  );
  const Relation = ownStruct(
    'relation',
    {
      ...fact('relation'),
      subject: Text,
      relation: Text,
      object: Text,
      subjectId: nullable(idCodec('entity')),
      objectId: nullable(idCodec('entity')),
      lastMentioned: Time,
    },
    {},
  );
  const Entry = ownStruct(
    'knowledge entry',
    {
      ...fact('entry'),
      content: Text,
      category: Text,
      importance: Unit,
      persistent: t.boolean,
      ttlDays: nullable(TtlDays),
      metadata: Metadata,
      updatedAt: Time,
    },
    {},
  );
  return ownStruct(
    'knowledge state',
    {
      entities: cappedArray('list of entities', Entity, MAX_KNOWLEDGE_FACTS, budget),
      relations: cappedArray('list of relations', Relation, MAX_KNOWLEDGE_FACTS, budget),
      entries: cappedArray('list of entries', Entry, MAX_KNOWLEDGE_FACTS, budget),
      cursors: ownStruct('cursors', { entities: Position, relations: Position }, {}),
      nextId: NextId,
    },
    {},
  );
};

let built: { codec: ReturnType<typeof stateCodec>; slot: BudgetSlot } | undefined;

/** Freezes a fresh decoded value and everything in it. */
const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
};

/** How many cross-field problems are listed before the decoder stops looking. */
const MAX_RULE_PROBLEMS = 1000;

/**
 * Reads a {@link KnowledgeState} back from untrusted data: the state's own JSON shape (exactly
 * what `JSON.stringify(state)` gives, camelCase), as a knowledge store, a file or another process
 * returns it. Every field is checked, each read once (own properties only; unknown keys are
 * ignored and never copied), and so are the rules between fields: ids of the right kind (`e<n>`,
 * `r<n>`, `k<n>` or the reference's uuid hex for entries, letters and a number for attributes)
 * and unique across the state, `nextId` above every id number, `retiredAt` null exactly when
 * `retiredBy` is, `retiredAt >= recordedAt`, `validTo` null or `>= validFrom`, confidence and
 * importance from 0 to 1, mentions ≥ 1, cursors and sources integers from 0 to 2^48.
 *
 * Hostile input is refused at bounded cost: a list longer than {@link MAX_KNOWLEDGE_FACTS} (or
 * {@link MAX_ENTITY_PARTS}, or `MAX_FACT_SOURCES`) before its items are read, a string longer
 * than {@link MAX_KNOWLEDGE_TEXT_LENGTH}, metadata nested deeper than 200 levels; the decoder
 * stops looking after 1,000 problems (`countComplete: false`). Never throws.
 *
 * @param input - parsed JSON of a knowledge state
 * @returns `Right(state)`, a fresh, deeply frozen state equal to a valid input (`-0` read as
 *   `0`), or `Left(MemoryDecodeError)` whose problems each name the path and the value
 *   (`entities[0].mentions must be an integer ≥ 1, received 0`)
 * @example
 * ```ts
 * const decoded = decodeKnowledgeState(JSON.parse(JSON.stringify(createKnowledge())));
 * if (decoded._tag === 'Right') decoded.right.nextId; // 1
 * ```
 */
export const decodeKnowledgeState = (
  input: unknown,
): E.Either<MemoryDecodeError, KnowledgeState> => {
  const budget = new ProblemBudget();
  return publicDecode(API, () => {
    const { codec, slot } = (built ??= ((slot) => ({ codec: stateCodec(slot), slot }))(
      new BudgetSlot(),
    ));
    const decoded = slot.run(budget, () => codec.decode(input));
    if (E.isLeft(decoded)) return codecFailure(API, decoded.left, budget);
    const state = decoded.right as KnowledgeState;
    const lines: string[] = [];
    checkKnowledgeRules(state, (line) => lines.push(line) < MAX_RULE_PROBLEMS, describeValue);
    if (lines.length > 0) {
      return E.left(
        new MemoryDecodeError(API, lines, { countComplete: lines.length < MAX_RULE_PROBLEMS }),
      );
    }
    return E.right(deepFreeze(state));
  });
};
