/**
 * The kinds of fact ids: `e12` (entity), `a4` (entity attribute), `r3` (relation), `k7` (entry),
 * and the reference's uuid4 hex strings for entries it wrote.
 *
 * @example
 * ```ts
 * const kind: FactIdKind = 'relation';
 * ```
 */
export type FactIdKind = 'entity' | 'attribute' | 'relation' | 'entry';

/** A counter id: lower-case letters, then a number without leading zeros. */
const COUNTER_ID = /^([a-z]{1,8})(0|[1-9][0-9]{0,15})$/u;

/** The reference's entry ids: `uuid.uuid4().hex`, 32 lower-case hex digits. */
const UUID_HEX = /^[0-9a-f]{32}$/u;

/** The letter each kind's counter ids start with (attributes: any letters). */
const PREFIX: Readonly<Record<FactIdKind, string | undefined>> = {
  entity: 'e',
  attribute: undefined,
  relation: 'r',
  entry: 'k',
};

/**
 * The number of a counter id (`12` for `e12`), or `undefined` for an id that has none (a uuid).
 *
 * @example
 * ```ts
 * counterOf('e12'); // 12
 * counterOf('0123456789abcdef0123456789abcdef'); // undefined
 * ```
 */
export const counterOf = (id: string): number | undefined => {
  const match = COUNTER_ID.exec(id);
  return match === null ? undefined : Number(match[2]);
};

/**
 * What is wrong with a fact id of a kind, phrased to follow its path, or `undefined` when it is
 * one: `e<n>` for entities, `r<n>` for relations, `k<n>` or a 32-digit lower-case hex uuid (the
 * reference's) for entries, letters then a number for attributes.
 *
 * @example
 * ```ts
 * factIdProblem('entity', 'e1'); // undefined
 * factIdProblem('entity', 'r1'); // 'must be an entity id (e<n>), received "r1"'
 * ```
 */
export const factIdProblem = (
  kind: FactIdKind,
  id: string,
  describe: (value: unknown) => string,
): string | undefined => {
  if (kind === 'entry' && UUID_HEX.test(id)) return undefined;
  const match = COUNTER_ID.exec(id);
  const prefix = PREFIX[kind];
  if (match !== null && (prefix === undefined || match[1] === prefix)) return undefined;
  const shape =
    kind === 'entry'
      ? 'k<n> or a 32-digit hex uuid'
      : prefix === undefined
        ? 'letters then a number'
        : `${prefix}<n>`;
  return `must be ${kind === 'relation' ? 'a' : 'an'} ${kind} id (${shape}), received ${describe(id)}`;
};
