import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import type { KnowledgeExtractionError } from '../../errors/knowledgeErrors';
import type { ExtractedTriple } from '../../model/knowledge';
import { Confidence, FactName, ValidFrom } from './answerFields';
import { readAnswerList } from './answerList';

/** One item of a triple answer, with the reference's defaults and our `valid_from`. */
const TripleItem = /* @__PURE__ */ t.type({
  subject: FactName,
  relation: FactName,
  object: FactName,
  confidence: Confidence,
  valid_from: ValidFrom,
});

/**
 * Reads a model's answer to a triple extraction ({@link TRIPLE_EXTRACTION_PROMPT}) as the
 * reference reads it (`knowledge_graph.py`, lines 388–420), within bounds:
 *
 * 1. White space and a markdown code fence around the answer are stripped (```` ```json ````
 *    and ```` ``` ````).
 * 2. The answer must be JSON: a list of items, or an object holding exactly one list
 *    (`{"triples": [...]}`; the reference returned `[]` for this, we read the list).
 * 3. Each item is an object whose `subject`, `relation` and `object` are strings, not blank,
 *    trimmed; other items are skipped, as the reference skips them. `confidence` that is missing,
 *    `null` or not a finite number (a numeric string such as `"0.8"` is read, as the reference's
 *    `float()` reads it) is `1`; it is clamped to [0, 1].
 * 4. Our addition: `valid_from`, when the model dates the fact, as an ISO 8601 date
 *    (`"2024-03-01"`, UTC) or milliseconds since the epoch, becomes `validFrom`; an unreadable
 *    date is ignored.
 *
 * A bad answer is a `Left` ({@link KnowledgeExtractionError}, `source: 'relations'`), so the
 * caller commits nothing: not a string, longer than {@link MAX_ANSWER_CHARS}, not JSON, not a
 * list, more than {@link MAX_EXTRACTED_ITEMS} items. An item with a name longer than
 * {@link MAX_EXTRACTED_NAME_CHARS} is skipped. Never throws; an error shows at most a short,
 * escaped excerpt of the answer.
 *
 * @param answer - the model's text
 * @returns the triples found (possibly none), or why the answer cannot be read
 * @example
 * ```ts
 * readTripleAnswer('[{"subject": "Alice", "relation": "works_at", "object": "Acme", "confidence": "0.8"}]');
 * // right([{ subject: 'Alice', relation: 'works_at', object: 'Acme', confidence: 0.8 }])
 * ```
 */
export const readTripleAnswer = (
  answer: string,
): E.Either<KnowledgeExtractionError, readonly ExtractedTriple[]> =>
  E.map((items: readonly unknown[]) => {
    const triples: ExtractedTriple[] = [];
    for (const item of items) {
      const read = TripleItem.decode(item);
      if (E.isRight(read)) {
        const { subject, relation, object, confidence, valid_from: validFrom } = read.right;
        triples.push(
          validFrom === undefined
            ? { subject, relation, object, confidence }
            : { subject, relation, object, confidence, validFrom },
        );
      }
    }
    return triples;
  })(readAnswerList(answer, 'readTripleAnswer', 'relations'));
