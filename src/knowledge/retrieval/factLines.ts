import type { Entity, EntityAttribute, KnowledgeEntry, Relation } from '../../model/knowledge';
import { pythonOneDecimal, pythonStrip } from './pythonText';
import { defangHeaders, sanitizeKnowledgeText } from './sanitizeKnowledgeText';

/** How a field's text is written into a line: as it is, or sanitized. */
export type FieldText = (text: string) => string;

const asIs: FieldText = (text) => text;

/**
 * The writer of fields: {@link sanitizeKnowledgeText} or the text as it is.
 *
 * @internal
 */
export const fieldText = (sanitize: boolean): FieldText =>
  sanitize ? sanitizeKnowledgeText : asIs;

/** A whole line, with our headers defanged when sanitizing (a type or a category is printed in brackets). */
const finish = (line: string, field: FieldText): string =>
  field === asIs ? line : defangHeaders(line);

/**
 * A relation's line: `- {subject} --[{relation}]--> {object}`, then ` (confidence: {c:.1f})` when
 * the confidence is below 1.
 *
 * @internal
 */
export const relationLine = (relation: Relation, field: FieldText): string => {
  const confidence =
    relation.confidence < 1 ? ` (confidence: ${pythonOneDecimal(relation.confidence)})` : '';
  return finish(
    `- ${field(relation.subject)} --[${field(relation.relation)}]--> ${field(relation.object)}${confidence}`,
    field,
  );
};

/**
 * An entity's line: `- {name} [{type}]`, then ` ({key}: {value}, …)` when it has attributes in
 * force.
 *
 * @internal
 */
export const entityLine = (
  entity: Entity,
  attributes: readonly EntityAttribute[],
  field: FieldText,
): string => {
  const listed = attributes.map((a) => `${field(a.key)}: ${field(a.value)}`).join(', ');
  const shown = listed === '' ? '' : ` (${listed})`;
  return finish(`- ${field(entity.name)} [${field(entity.type)}]${shown}`, field);
};

/**
 * An entry's line, as the reference writes it: `f"- {tag} {content}".strip()` with the tag
 * `[{category}]`, or nothing for `general` (so a general entry reads `-  content`, two spaces).
 *
 * @internal
 */
export const entryLine = (entry: KnowledgeEntry, field: FieldText): string => {
  const tag = entry.category === 'general' ? '' : `[${field(entry.category)}]`;
  return finish(pythonStrip(`- ${tag} ${field(entry.content)}`), field);
};
