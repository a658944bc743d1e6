import type { FactRecord, KnowledgeState } from '../../model/knowledge';
import { counterOf } from './knowledgeIds';

/**
 * Checks the rules of a knowledge state that span fields (its shape already checked): every id
 * unique across the state, `nextId` greater than the number of every counter id, and for each
 * fact `retiredAt === null` exactly when `retiredBy === null`, `retiredAt >= recordedAt`,
 * `validTo === null || validTo >= validFrom`, and each source's `from <= to`. Each problem names
 * its path and the values involved; `add` returns `false` to stop the walk (a full problem list).
 *
 * @param state - a state whose fields have the right types
 * @param add - receives each problem line; returns whether to go on
 * @param describe - renders a value for a message (`describeValue`)
 * @example
 * ```ts
 * const lines: string[] = [];
 * checkKnowledgeRules(state, (line) => lines.push(line) < 100, describeValue);
 * ```
 */
export const checkKnowledgeRules = (
  state: KnowledgeState,
  add: (line: string) => boolean,
  describe: (value: unknown) => string,
): void => {
  const seen = new Map<string, string>();
  let highest = 0;
  let highestPath = '';
  const checkFact = (fact: FactRecord, path: string): boolean => {
    const first = seen.get(fact.id);
    if (first !== undefined) {
      if (!add(`${path}.id: ${describe(fact.id)} is already the id of ${first}`)) return false;
    } else seen.set(fact.id, path);
    const counter = counterOf(fact.id);
    if (counter !== undefined && counter >= highest) {
      highest = counter;
      highestPath = `${path}.id`;
    }
    return checkTimes(fact, path, add, describe);
  };
  const lists = [
    ['entities', state.entities],
    ['relations', state.relations],
    ['entries', state.entries],
  ] as const;
  for (const [name, facts] of lists) {
    for (const [i, fact] of facts.entries()) {
      if (!checkFact(fact, `${name}[${i}]`)) return;
      if (name !== 'entities') continue;
      const { attributes } = state.entities[i] as (typeof state.entities)[number];
      for (const [j, attribute] of attributes.entries()) {
        if (!checkFact(attribute, `${name}[${i}].attributes[${j}]`)) return;
      }
    }
  }
  if (seen.size > 0 && highestPath !== '' && state.nextId <= highest) {
    add(
      `nextId must be greater than every id number (${highestPath} has ${highest}), received ${describe(state.nextId)}`,
    );
  }
};

/** The time and source rules of one fact; `false` when `add` asked to stop. */
const checkTimes = (
  fact: FactRecord,
  path: string,
  add: (line: string) => boolean,
  describe: (value: unknown) => string,
): boolean => {
  const { retiredAt, retiredBy, recordedAt, validFrom, validTo } = fact;
  if ((retiredAt === null) !== (retiredBy === null)) {
    const line =
      retiredAt === null
        ? `${path}.retiredBy must be null while retiredAt is null, received ${describe(retiredBy)}`
        : `${path}.retiredBy must name why the fact was retired at ${describe(retiredAt)}, received null`;
    if (!add(line)) return false;
  }
  if (retiredAt !== null && retiredAt < recordedAt) {
    const line = `${path}.retiredAt must not be before recordedAt (${describe(recordedAt)}), received ${describe(retiredAt)}`;
    if (!add(line)) return false;
  }
  if (validTo !== null && validTo < validFrom) {
    const line = `${path}.validTo must not be before validFrom (${describe(validFrom)}), received ${describe(validTo)}`;
    if (!add(line)) return false;
  }
  for (const [k, source] of fact.sources.entries()) {
    if (source.from > source.to) {
      const line = `${path}.sources[${k}].to must not be below from (${describe(source.from)}), received ${describe(source.to)}`;
      if (!add(line)) return false;
    }
  }
  return true;
};
