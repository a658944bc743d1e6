import type { Entity, KnowledgeState, Relation } from '../../model/knowledge';
import { codePointLength } from '../../util/codePoints';
import {
  attributesInForce,
  entitiesInForce,
  entriesInForce,
  relationsInForce,
} from './factsInForce';
import { entityLine, entryLine, type FieldText, relationLine } from './factLines';
import {
  GENERAL_KNOWLEDGE_HEADER,
  IMPORTANT_KNOWLEDGE_HEADER,
  IMPORTANT_KNOWLEDGE_MIN,
  KNOWN_ENTITIES_HEADER,
  KNOWN_RELATIONSHIPS_HEADER,
} from './headers';
import type { BlockUnit } from './packBlock';
import { pythonSplit } from './pythonText';
import { type FactDocument, type FactScorer, scoreFactsFor } from './scoreFacts';
import { allWords, nameOccursIn } from './searchWords';

/**
 * A module's facts as block units: its section headers, and its units best first (`ranked`).
 *
 * @internal
 */
export interface ModuleUnits {
  readonly headers: readonly string[];
  readonly ranked: readonly BlockUnit[];
}

/**
 * What every module reads: the state, the query (`''`: none), how fields are written, the scorer.
 *
 * @internal
 */
export interface UnitContext {
  readonly api: string;
  readonly state: KnowledgeState;
  readonly query: string;
  readonly now: number;
  readonly field: FieldText;
  readonly score: FactScorer | undefined;
}

const namesOf = (entity: Entity | undefined): string[] =>
  entity === undefined ? [] : [entity.name, ...entity.aliases];

/** Units by score (highest first; ties by `tie`), or as they are without a query. */
const byScore = (
  context: UnitContext,
  units: readonly BlockUnit[],
  documents: readonly FactDocument[],
): BlockUnit[] => {
  if (context.query === '') return [...units];
  const scores = scoreFactsFor(context.api, context.query, documents, context.score);
  return units
    .map((unit, i) => ({ unit, score: scores[i] as number }))
    .sort((a, b) => b.score - a.score || a.unit.order - b.unit.order)
    .map(({ unit }) => unit);
};

/** The reference's `query_relevant` match: words of 3+ characters, as substrings of `s r o`. */
const keywordMatches = (query: string, relations: readonly Relation[]): number[] => {
  const keywords = pythonSplit(query.toLowerCase()).filter((word) => codePointLength(word) > 2);
  return relations.flatMap((r, i) => {
    const text = `${r.subject} ${r.relation} ${r.object}`.toLowerCase();
    return keywords.some((keyword) => text.includes(keyword)) ? [i] : [];
  });
};

/**
 * The knowledge graph's units. Without a query: newest first. With one: the relations that score
 * above 0, best first (ties: newest first); when none does, the reference's keyword match, in the
 * state's order; when nothing matches, none (as the reference).
 *
 * @internal
 */
export const graphUnits = (context: UnitContext): ModuleUnits => {
  const relations = relationsInForce(context.state);
  const units: BlockUnit[] = relations.map((relation, order) => ({
    ids: [relation.id],
    line: relationLine(relation, context.field),
    section: 0,
    order,
  }));
  const headers = [KNOWN_RELATIONSHIPS_HEADER];
  if (context.query === '') return { headers, ranked: units.reverse() };
  const entities = new Map(entitiesInForce(context.state).map((e) => [e.id, e]));
  const documents = relations.map((r) => ({
    text: `${r.subject} ${r.relation} ${r.object}`,
    names: [
      r.subject,
      r.object,
      ...namesOf(entities.get(r.subjectId ?? '')),
      ...namesOf(entities.get(r.objectId ?? '')),
    ],
  }));
  const scores = scoreFactsFor(context.api, context.query, documents, context.score);
  const relevant = units
    .filter((_, i) => (scores[i] as number) > 0)
    .sort((a, b) => (scores[b.order] as number) - (scores[a.order] as number) || b.order - a.order);
  if (relevant.length > 0) return { headers, ranked: relevant };
  return {
    headers,
    ranked: keywordMatches(context.query, relations).map((i) => units[i] as BlockUnit),
  };
};

/**
 * The entity memory's units, most recently mentioned first; with a query, best-scored first.
 *
 * @internal
 */
export const entityUnits = (context: UnitContext): ModuleUnits => {
  const entities = entitiesInForce(context.state);
  const documents: FactDocument[] = [];
  const units = entities.map((entity, order): BlockUnit => {
    const attributes = attributesInForce(entity);
    documents.push({
      text: [
        entity.name,
        ...entity.aliases,
        entity.type,
        ...attributes.map((a) => `${a.key} ${a.value}`),
      ].join(' '),
      names: namesOf(entity),
    });
    return {
      ids: [entity.id, ...attributes.map((a) => a.id)],
      line: entityLine(entity, attributes, context.field),
      section: 0,
      order,
    };
  });
  return { headers: [KNOWN_ENTITIES_HEADER], ranked: byScore(context, units, documents) };
};

/**
 * Long-term knowledge's units, most important first (important ones in section 0); with a query,
 * best-scored first. An entry names the entities in force whose name or alias its content holds.
 *
 * @internal
 */
export const entryUnits = (context: UnitContext): ModuleUnits => {
  const entries = entriesInForce(context.state, context.now);
  const names = context.query === '' ? [] : entitiesInForce(context.state).flatMap(namesOf);
  const documents = entries.map((entry) => {
    const words = allWords(entry.content);
    return {
      text: `${entry.content} ${entry.category}`,
      names: names.filter((name) => nameOccursIn(name, words)),
    };
  });
  const units = entries.map((entry, order): BlockUnit => ({
    ids: [entry.id],
    line: entryLine(entry, context.field),
    section: entry.importance >= IMPORTANT_KNOWLEDGE_MIN ? 0 : 1,
    order,
  }));
  return {
    headers: [IMPORTANT_KNOWLEDGE_HEADER, GENERAL_KNOWLEDGE_HEADER],
    ranked: byScore(context, units, documents),
  };
};
