import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import type { KnowledgeExtractionError } from '../../errors/knowledgeErrors';
import type { ExtractedEntity } from '../../model/knowledge';
import { EntityAttributes, FactName, withDefault } from './answerFields';
import { readAnswerList } from './answerList';

/** One item of an entity answer, with the reference's defaults. */
const EntityItem = /* @__PURE__ */ t.type({
  name: FactName,
  entity_type: /* @__PURE__ */ withDefault(FactName, 'other'),
  attributes: EntityAttributes,
});

/**
 * Reads a model's answer to an entity extraction ({@link ENTITY_EXTRACTION_PROMPT}) as the
 * reference reads it (`entity_memory.py`, lines 152–176), within bounds:
 *
 * 1. White space and a markdown code fence around the answer are stripped (```` ```json ````
 *    and ```` ``` ````).
 * 2. The answer must be JSON: a list of items, or an object holding exactly one list
 *    (`{"entities": [...]}`; the reference returned `[]` for this, we read the list).
 * 3. Each item is an object with a `name` that is a string, not blank, trimmed; other items are
 *    skipped, as the reference skips them. `entity_type` that is not a non-blank string reads as
 *    `'other'`; `attributes` that is not an object reads as `{}`; of the attributes, strings are
 *    kept, numbers and booleans are written as strings, other values dropped.
 *
 * A bad answer is a `Left` ({@link KnowledgeExtractionError}, `source: 'entities'`), so the
 * caller commits nothing: not a string, longer than {@link MAX_ANSWER_CHARS}, not JSON, not a
 * list, more than {@link MAX_EXTRACTED_ITEMS} items. Items and attributes beyond the other bounds
 * ({@link MAX_EXTRACTED_NAME_CHARS}, {@link MAX_ATTRIBUTE_VALUE_CHARS},
 * {@link MAX_ENTITY_ATTRIBUTES}) are skipped. Never throws; an error shows at most a short,
 * escaped excerpt of the answer.
 *
 * @param answer - the model's text
 * @returns the entities found (possibly none), or why the answer cannot be read
 * @example
 * ```ts
 * readEntityAnswer('```json\n[{"name": " Alice ", "attributes": {"age": 30}}]\n```');
 * // right([{ name: 'Alice', type: 'other', attributes: { age: '30' } }])
 * ```
 */
export const readEntityAnswer = (
  answer: string,
): E.Either<KnowledgeExtractionError, readonly ExtractedEntity[]> =>
  E.map((items: readonly unknown[]) => {
    const entities: ExtractedEntity[] = [];
    for (const item of items) {
      const read = EntityItem.decode(item);
      if (E.isRight(read)) {
        const { name, entity_type: type, attributes } = read.right;
        entities.push({ name, type, attributes });
      }
    }
    return entities;
  })(readAnswerList(answer, 'readEntityAnswer', 'entities'));
