import { escapeText } from '../../util/escapeText';
import type { FactRef, FactsInForce, KnowledgeChange } from './knowledgeTypes';

const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

/** The largest time a `Date` can show (±100,000,000 days from the epoch). */
const MAX_DATE = 8.64e15;

/**
 * A step's time as the inspector prints it: an ISO date when it is one, else the number.
 *
 * @param now - milliseconds since the epoch
 * @returns the text
 * @example
 * ```ts
 * timeText(2000); // '1970-01-01T00:00:02.000Z'
 * ```
 */
export const timeText = (now: number): string =>
  Number.isFinite(now) && Math.abs(now) <= MAX_DATE ? new Date(now).toISOString() : String(now);

/**
 * How many facts are in force, in a few words: `3 entities (2 attributes), 1 relation, 0 entries`.
 *
 * @param inForce - the facts in force at a step
 * @returns the text
 * @example
 * ```ts
 * inForceText(stepKnowledge(log, 7).inForce); // '3 entities (1 attribute), 2 relations, 0 entries'
 * ```
 */
export const inForceText = (inForce: FactsInForce): string => {
  const attributes = inForce.entities.reduce((sum, entity) => sum + entity.attributes.length, 0);
  return [
    `${plural(inForce.entities.length, 'entity', 'entities')} (${plural(attributes, 'attribute')})`,
    plural(inForce.relations.length, 'relation'),
    plural(inForce.entries.length, 'entry', 'entries'),
  ].join(', ');
};

/** A fact in a few words: `relation r5 "Alice --[works_at]--> Acme"` (escaped, one line). */
const factWords = (fact: FactRef): string =>
  `${fact.kind} ${escapeText(fact.id, 40)} "${escapeText(fact.text, 80)}"`;

/**
 * One knowledge change of a step in a line, as the CLI prints it and the page titles it:
 * `retired relation r5 "Alice --[works_at]--> Acme": superseded by r7 "Alice --[works_at]--> Globex"`,
 * `added entity e1 "Alice [person]"`, `merged entity e1 "Alice [person]" (name, reported as "alice")`,
 * `expired entry k2 "…": its TTL ran out`, `dropped …`, `read relations #1–#2`. Ids and texts are
 * escaped (`escapeText`), so the line stays one line whatever the file holds.
 *
 * @param change - a change of `stepKnowledge(...).changes`
 * @returns the line
 * @example
 * ```ts
 * knowledgeChangeText({ change: 'read', source: 'relations', from: 1, to: 2 }); // 'read relations #1–#2'
 * ```
 */
export const knowledgeChangeText = (change: KnowledgeChange): string => {
  switch (change.change) {
    case 'read':
      return `read ${change.source} #${change.from}–#${change.to}`;
    case 'added':
      return `added ${factWords(change.fact)}`;
    case 'merged': {
      const name = change.name === null ? '' : `, reported as "${escapeText(change.name, 80)}"`;
      const similarity = change.similarity === null ? '' : `, similarity ${change.similarity}`;
      return `merged ${factWords(change.fact)} (${change.rule}${name}${similarity})`;
    }
    case 'retired': {
      const by =
        change.by === null
          ? ''
          : ` by ${escapeText(change.by.id, 40)} "${escapeText(change.by.text, 80)}"`;
      const score = change.score === null ? '' : ` (keep score ${change.score})`;
      return `retired ${factWords(change.fact)}: ${change.reason}${by}${score}`;
    }
    case 'expired':
      return `expired ${factWords(change.fact)}: its TTL ran out`;
    case 'dropped':
      return `dropped ${factWords(change.fact)}`;
  }
};
