import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import type { KnowledgeState } from '../model/knowledge';
import { decodeKnowledgeState } from './knowledgeState';

/**
 * What a memory file holds under `conversation_memory.knowledge`, read with
 * `decodeKnowledgeState`: the state, or its problems with their paths under the field's
 * (`conversation_memory.knowledge.entities[0].mentions must be …`), at most 20 listed (as a
 * `MemoryDecodeError` lists them) and `problemCount` in all.
 *
 * @example
 * ```ts
 * const read: KnowledgeRead = { ok: true, state: createKnowledge() };
 * ```
 * @internal
 */
export type KnowledgeRead =
  | { readonly ok: true; readonly state: KnowledgeState }
  | {
      readonly ok: false;
      readonly problems: readonly string[];
      readonly problemCount: number;
      readonly countComplete: boolean;
    };

/** A problem of the knowledge state, under `path` (`(root): …` reads `path: …`). */
const under = (path: string, problem: string): string =>
  problem.startsWith('(root)') ? `${path}${problem.slice('(root)'.length)}` : `${path}.${problem}`;

/**
 * The field codec of a memory file's knowledge, for one decode, and what it read. The field is
 * read once by the file's codec (as every field), handed to `decodeKnowledgeState`, and its result
 * kept for the caller (`read()`, `undefined` when the field is absent), whether or not the rest of
 * the file decodes: so a file with several bad fields reports them all at once. The codec itself
 * always succeeds; the caller turns a failed read into problems.
 *
 * @param path - where the field is, for the problems (`conversation_memory.knowledge`)
 * @example
 * ```ts
 * const knowledge = knowledgeField('conversation_memory.knowledge');
 * persistedMemoryCodec(budget, knowledge.codec).decode(input);
 * knowledge.read(); // { ok: true, state } | { ok: false, problems, … } | undefined
 * ```
 * @internal
 */
export const knowledgeField = (
  path: string,
): { readonly codec: t.Type<unknown>; readonly read: () => KnowledgeRead | undefined } => {
  let found: KnowledgeRead | undefined;
  const codec = new t.Type<unknown>(
    'knowledge state',
    (u): u is unknown => E.isRight(decodeKnowledgeState(u)),
    (u) => {
      const decoded = decodeKnowledgeState(u);
      found = E.isRight(decoded)
        ? { ok: true, state: decoded.right }
        : {
            ok: false,
            problems: decoded.left.problems.map((problem) => under(path, problem)),
            problemCount: decoded.left.problemCount,
            countComplete: decoded.left.countComplete,
          };
      return t.success(u);
    },
    t.identity,
  );
  return { codec, read: () => found };
};

/**
 * Problems of knowledge cursors that point past the conversation's next position (a cursor is the
 * position of the next message its extractor reads: at most `nextPosition`).
 *
 * @example
 * ```ts
 * cursorProblems(knowledge, 2, 'knowledge');
 * // ['knowledge.cursors.entities: must not be past next_position (2), received 3']
 * ```
 * @internal
 */
export const cursorProblems = (
  knowledge: KnowledgeState,
  nextPosition: number,
  path: string,
): string[] =>
  (['entities', 'relations'] as const).flatMap((source) => {
    const cursor = knowledge.cursors[source];
    return cursor > nextPosition
      ? [
          `${path}.cursors.${source}: must not be past next_position (${nextPosition}), received ${cursor}`,
        ]
      : [];
  });
