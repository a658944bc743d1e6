import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import { KnowledgeExtractionError } from '../../errors/knowledgeErrors';
import type { ExtractionSource } from '../../model/knowledgeActions';
import { describeValue } from '../../util/describeValue';
import { quoteText } from '../../util/escapeText';
import { MAX_ANSWER_CHARS, MAX_EXTRACTED_ITEMS } from './answerLimits';

const FENCE = '```';

/** A character of a fence's language tag (`json`, `JSON5`, `py_3`): the reference's `\w`. */
const isTagChar = (code: number): boolean =>
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  code === 95;

/**
 * The answer without white space around it and without a markdown code fence around it: an
 * opening fence with its language tag (```` ```json ````, ```` ``` ````) and the line break after
 * it, and a closing fence at the end, as the reference strips them (`entity_memory.py`,
 * lines 152–155). Plain string work, no regular expression: linear in the text.
 *
 * @internal
 */
export const stripCodeFence = (answer: string): string => {
  let text = answer.trim();
  if (text.startsWith(FENCE)) {
    let i = FENCE.length;
    while (i < text.length && isTagChar(text.charCodeAt(i))) i++;
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    text = text.slice(i);
  }
  text = text.trimEnd();
  if (text.endsWith(FENCE)) text = text.slice(0, -FENCE.length);
  return text.trim();
};

/** The arrays among an object's own values. */
const arraysOf = (value: { readonly [key: string]: unknown }): unknown[][] =>
  Object.values(value).filter((item): item is unknown[] => Array.isArray(item));

/**
 * The list of an extraction answer: a JSON array, or an object holding exactly one array among
 * its values (`{"entities": [...]}`, `{"triples": [...]}`; the reference returned `[]` for
 * these, we read the list they hold).
 */
const AnswerList = /* @__PURE__ */ new t.Type<readonly unknown[], readonly unknown[], unknown>(
  'ExtractionAnswerList',
  (u): u is readonly unknown[] => Array.isArray(u),
  (u, context) => {
    if (Array.isArray(u)) return t.success(u as readonly unknown[]);
    if (!t.UnknownRecord.is(u)) return t.failure(u, context);
    const lists = arraysOf(u);
    const only = lists[0];
    return lists.length === 1 && only !== undefined ? t.success(only) : t.failure(u, context);
  },
  t.identity,
);

/** What an answer that holds no single list was. */
const describeAnswer = (value: unknown): string => {
  if (!t.UnknownRecord.is(value)) return describeValue(value);
  const count = arraysOf(value).length;
  return count === 0 ? 'an object holding no array' : `an object holding ${count} arrays`;
};

/**
 * Reads an extraction answer up to its list of items, or says why it cannot: the answer must be
 * a string of at most {@link MAX_ANSWER_CHARS} characters, be JSON once white space and a code
 * fence are stripped ({@link stripCodeFence}), be a list (or an object holding one list), and
 * have at most {@link MAX_EXTRACTED_ITEMS} items. Never throws; an error shows at most 60
 * escaped characters of the answer.
 *
 * @param answer - the model's text
 * @param api - the reader's name, for the error's prefix
 * @param source - which extractor asked
 * @returns the items, unread, or the error
 * @internal
 */
export const readAnswerList = (
  answer: unknown,
  api: string,
  source: ExtractionSource,
): E.Either<KnowledgeExtractionError, readonly unknown[]> => {
  const fail = (what: string): E.Either<KnowledgeExtractionError, never> =>
    E.left(new KnowledgeExtractionError(api, source, what));
  if (typeof answer !== 'string') {
    return fail(`the answer must be a string, received ${describeValue(answer)}`);
  }
  if (answer.length > MAX_ANSWER_CHARS) {
    return fail(
      `the answer has ${answer.length} characters, more than MAX_ANSWER_CHARS (${MAX_ANSWER_CHARS})`,
    );
  }
  const text = stripCodeFence(answer);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the text raw: only our escaped excerpt is shown.
    return fail(`the answer is not valid JSON, received ${quoteText(text)}`);
  }
  const list = AnswerList.decode(parsed);
  if (E.isLeft(list)) {
    return fail(
      `the answer must be a JSON array of objects (or an object holding one array), received ${describeAnswer(parsed)}`,
    );
  }
  if (list.right.length > MAX_EXTRACTED_ITEMS) {
    return fail(
      `the answer has ${list.right.length} items, more than MAX_EXTRACTED_ITEMS (${MAX_EXTRACTED_ITEMS})`,
    );
  }
  return E.right(list.right);
};
