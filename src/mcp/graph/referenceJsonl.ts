import { either as E } from 'fp-ts';
import {
  createKnowledge,
  describeValue,
  MAX_ENTITY_PARTS,
  MAX_KNOWLEDGE_FACTS,
  MAX_KNOWLEDGE_TEXT_LENGTH,
  MemoryDecodeError,
  newFact,
} from '../../library';
import type { Entity, KnowledgeState, Relation } from '../../model/knowledge';
import { OBSERVATION_KEY, type McpEntity, type McpGraph, type McpRelation } from './mcpGraph';

const API = 'parseReferenceJsonl';

/**
 * The reference memory server's file (`memory.jsonl`) for `graph`, byte for byte as that server
 * writes it: one JSON object per line, the entities first (`type`, `name`, `entityType`,
 * `observations`, in that order), then the relations (`type`, `from`, `to`, `relationType`),
 * lines joined by `\n` with none after the last.
 *
 * @example
 * ```ts
 * formatReferenceJsonl({ entities: [], relations: [] }); // ''
 * ```
 */
export const formatReferenceJsonl = (graph: McpGraph): string =>
  [
    ...graph.entities.map((e) =>
      JSON.stringify({
        type: 'entity',
        name: e.name,
        entityType: e.entityType,
        observations: e.observations,
      }),
    ),
    ...graph.relations.map((r) =>
      JSON.stringify({ type: 'relation', from: r.from, to: r.to, relationType: r.relationType }),
    ),
  ].join('\n');

/** The most lines a reference file may have (entities and relations together). */
const MAX_LINES = 2 * MAX_KNOWLEDGE_FACTS;

const text = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= MAX_KNOWLEDGE_TEXT_LENGTH;

/**
 * Reads a reference memory server's file: each line that is not blank is a JSON object; those of
 * `type` `"entity"` and `"relation"` are read, any other type is skipped (as that server does).
 * Every problem names its line and field: a line that is not JSON, a field of the wrong type, a
 * text over 100,000 characters, more than 200,000 lines, 100,000 entities or relations, or 1,000
 * observations of one entity (a stored knowledge state's bounds).
 *
 * @example
 * ```ts
 * const graph = parseReferenceJsonl('{"type":"entity","name":"Ada","entityType":"person","observations":[]}');
 * // Right({ entities: [{ name: 'Ada', entityType: 'person', observations: [] }], relations: [] })
 * ```
 */
export const parseReferenceJsonl = (input: string): E.Either<MemoryDecodeError, McpGraph> => {
  if (typeof input !== 'string') {
    return E.left(
      new MemoryDecodeError(API, [`the file must be text, received ${describeValue(input)}`]),
    );
  }
  const lines = input.split('\n');
  const entities: McpEntity[] = [];
  const relations: McpRelation[] = [];
  const problems: string[] = [];
  let read = 0;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    if (++read > MAX_LINES) {
      problems.push(`the file has more than ${MAX_LINES} lines`);
      break;
    }
    const at = `line ${i + 1}`;
    let item: unknown;
    try {
      item = JSON.parse(line);
    } catch (error) {
      problems.push(`${at}: not JSON (${(error as Error).message})`);
      continue;
    }
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(`${at}: must be a JSON object, received ${describeValue(item)}`);
      continue;
    }
    const fields = item as Record<string, unknown>;
    const field = (name: string): string | undefined => {
      const value = fields[name];
      if (text(value)) return value;
      problems.push(
        `${at}.${name}: must be a string of at most ${MAX_KNOWLEDGE_TEXT_LENGTH} characters, received ${describeValue(value)}`,
      );
      return undefined;
    };
    if (fields['type'] === 'entity') {
      const [name, entityType] = [field('name'), field('entityType')];
      const observations = fields['observations'];
      const listed =
        Array.isArray(observations) &&
        observations.length <= MAX_ENTITY_PARTS &&
        observations.every(text);
      if (!listed) {
        problems.push(
          `${at}.observations: must be a list of at most ${MAX_ENTITY_PARTS} strings of at most ${MAX_KNOWLEDGE_TEXT_LENGTH} characters, received ${describeValue(observations)}`,
        );
      }
      if (name !== undefined && entityType !== undefined && listed) {
        entities.push({ name, entityType, observations: observations as string[] });
      }
    } else if (fields['type'] === 'relation') {
      const [from, to, relationType] = [field('from'), field('to'), field('relationType')];
      if (from !== undefined && to !== undefined && relationType !== undefined) {
        relations.push({ from, to, relationType });
      }
    }
  }
  if (entities.length > MAX_KNOWLEDGE_FACTS || relations.length > MAX_KNOWLEDGE_FACTS) {
    problems.push(`the file has more than ${MAX_KNOWLEDGE_FACTS} entities or relations`);
  }
  return problems.length > 0
    ? E.left(new MemoryDecodeError(API, problems))
    : E.right({ entities, relations });
};

/**
 * A knowledge state holding `graph` as it is (every entity and relation in force, in order, even
 * two of one name), recorded at `at`: what importing a reference file starts from.
 *
 * @example
 * ```ts
 * knowledgeOfGraph({ entities: [], relations: [] }, Date.now()).entities; // []
 * ```
 */
export const knowledgeOfGraph = (graph: McpGraph, at: number): KnowledgeState => {
  let next = 1;
  const entities = graph.entities.map((e): Entity => ({
    ...newFact(`e${next++}`, at, at, null, 1),
    name: e.name,
    aliases: [],
    type: e.entityType,
    attributes: e.observations.map((value) => ({
      ...newFact(`a${next++}`, at, at, null, 1),
      key: OBSERVATION_KEY,
      value,
    })),
    lastMentioned: at,
  }));
  const idOf = (name: string) => entities.find((e) => e.name === name)?.id ?? null;
  const relations = graph.relations.map((r): Relation => ({
    ...newFact(`r${next++}`, at, at, null, 1),
    subject: r.from,
    relation: r.relationType,
    object: r.to,
    subjectId: idOf(r.from),
    objectId: idOf(r.to),
    lastMentioned: at,
  }));
  return { ...createKnowledge(), entities, relations, nextId: next };
};
