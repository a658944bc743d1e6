import {
  extractEntitiesLocally,
  extractTriplesLocally,
} from '../../knowledge/extraction/localExtractor';
import {
  ENTITY_EXTRACTION_PROMPT,
  ENTITY_EXTRACTION_SYSTEM_PROMPT,
  TRIPLE_EXTRACTION_PROMPT,
  TRIPLE_EXTRACTION_SYSTEM_PROMPT,
} from '../../knowledge/extraction/prompts';
import type { Message } from '../../model/message';
import { messageText } from '../../tokens/messageText';
import { charCount } from './text';

/**
 * The extraction answers of `LocalProvider` (rule 0 of its table): a request whose system prompt
 * is the reference's entity or triple extraction system prompt gets, as its reply, the JSON list
 * the local extractor finds in the conversation of the user prompt, in the reference's keys.
 */

/** The conversation of an extraction request: the last user message, after the template. */
const conversationOf = (messages: readonly Message[], template: string): string => {
  const last = messages[messages.length - 1];
  const prompt = last?.role === 'user' ? messageText(last) : '';
  return prompt.startsWith(template) ? prompt.slice(template.length) : prompt;
};

/** The items as a JSON list of at most `maxChars` characters: as many whole items as fit. */
const listWithin = (items: readonly object[], maxChars: number): string => {
  const kept: string[] = [];
  let chars = 2;
  for (const item of items) {
    const json = JSON.stringify(item);
    const more = charCount(json) + (kept.length > 0 ? 1 : 0);
    if (chars + more > maxChars) break;
    kept.push(json);
    chars += more;
  }
  return `[${kept.join(',')}]`;
};

/** The date part of an ISO time (`2024-03-01`): the local extractor dates days, at UTC midnight. */
const isoDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

/**
 * The reply to an extraction request, or `undefined` when the request is not one. Entities are
 * written `{"name", "entity_type", "attributes"}`, triples `{"subject", "relation", "object",
 * "confidence"}` with `"valid_from": "YYYY-MM-DD"` when dated. The list holds the items that fit
 * in `maxChars` whole, in order, so the reply is always valid JSON.
 *
 * @param systemPrompt - the request's system prompt
 * @param messages - the request's messages
 * @param maxChars - the most characters the reply may have
 * @returns the JSON list, or `undefined`
 * @internal
 */
export const extractionReply = (
  systemPrompt: string,
  messages: readonly Message[],
  maxChars: number,
): string | undefined => {
  if (systemPrompt === ENTITY_EXTRACTION_SYSTEM_PROMPT) {
    const found = extractEntitiesLocally(conversationOf(messages, ENTITY_EXTRACTION_PROMPT));
    const items = found.map(({ name, type, attributes }) => ({
      name,
      entity_type: type,
      attributes,
    }));
    return listWithin(items, maxChars);
  }
  if (systemPrompt === TRIPLE_EXTRACTION_SYSTEM_PROMPT) {
    const found = extractTriplesLocally(conversationOf(messages, TRIPLE_EXTRACTION_PROMPT));
    const items = found.map(({ subject, relation, object, confidence, validFrom }) =>
      validFrom === undefined
        ? { subject, relation, object, confidence }
        : { subject, relation, object, confidence, valid_from: isoDay(validFrom) },
    );
    return listWithin(items, maxChars);
  }
  return undefined;
};
