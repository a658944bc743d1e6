import { either as E } from 'fp-ts';
import { decodeKnowledgeState } from '../../codec/knowledgeState';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import type { KnowledgeState } from '../../model/knowledge';
import { describeValue } from '../../util/describeValue';
import { errorText } from '../../util/errorText';

// The knowledge stores' records: the state a save is given, checked, and the state a store kept as
// JSON, read back (the event stores' records are in eventRecords.ts).

/** A problem of a state, under the name `state` (`state.entities[0].id …`, `state: …`). */
const underState = (problem: string): string =>
  problem.startsWith('(root)') ? `state${problem.slice('(root)'.length)}` : `state.${problem}`;

/**
 * The state a knowledge store is asked to save, checked with `decodeKnowledgeState`: the
 * decoded (fresh, deeply frozen) copy, so that the caller changing its object afterwards changes
 * nothing stored. For store authors.
 *
 * @param state - what the caller passed
 * @param api - the calling method, for the error
 * @throws MemoryArgumentError listing the first problems (the decode error is its `cause`)
 * @example
 * ```ts
 * const checked = knowledgeStateToSave(state, 'MyKnowledgeStore.save');
 * ```
 */
export const knowledgeStateToSave = (state: unknown, api: string): KnowledgeState => {
  const decoded = decodeKnowledgeState(state);
  if (E.isRight(decoded)) return decoded.right;
  const { problems, problemCount } = decoded.left;
  const shown = problems.slice(0, 5);
  const more = problemCount > shown.length ? `; … ${problemCount - shown.length} more` : '';
  throw new MemoryArgumentError(
    api,
    `state is not a valid KnowledgeState: ${shown.map(underState).join('; ')}${more}`,
    { cause: decoded.left },
  );
};

/**
 * Reads a knowledge state a store kept as JSON text: the state, or the problems (the JSON's own
 * error, or `decodeKnowledgeState`'s, each prefixed with `state.`). Never throws. For store
 * authors: a record with problems is corrupt (`KnowledgeCorruptError`), never dropped.
 *
 * @param json - the stored text (anything: a column or a hash field may hold another type)
 * @example
 * ```ts
 * const read = readKnowledgeJson(row.state_json);
 * if ('problems' in read) throw new KnowledgeCorruptError(api, key, location, read.problems);
 * ```
 */
export const readKnowledgeJson = (
  json: unknown,
): { readonly state: KnowledgeState } | { readonly problems: readonly string[] } => {
  if (typeof json !== 'string') {
    return { problems: [`state: expected JSON text, got ${describeValue(json)}`] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    return { problems: [`state: not JSON (${errorText(error)})`] };
  }
  const decoded = decodeKnowledgeState(parsed);
  return E.isRight(decoded)
    ? { state: decoded.right }
    : { problems: decoded.left.problems.map(underState) };
};
