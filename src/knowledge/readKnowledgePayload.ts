import { MemoryArgumentError } from '../errors/memoryErrors';
import {
  DEFAULT_KNOWLEDGE_LIMITS,
  SINGLE_VALUED_RELATIONS,
  type ExtractedEntity,
  type ExtractedTriple,
  type KnowledgeLimits,
} from '../model/knowledge';
import type {
  ExtractionSource,
  FactsExtractedPayload,
  ForgottenPayload,
  RememberedPayload,
} from '../model/knowledgeActions';
import type { JsonObject } from '../model/message';
import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';
import { normalizeRelation } from './normalize';

/**
 * The most entities or triples one `knowledge/factsExtracted` may carry, and the longest name,
 * relation, value or entry content (in UTF-16 units) a fact may have. Larger is an argument error:
 * an extractor's answer is bounded before it becomes an action.
 *
 * @example
 * ```ts
 * MAX_EXTRACTED_FACTS; // 500
 * ```
 */
export const MAX_EXTRACTED_FACTS = 500;

/** The longest name, relation or attribute value of a fact. */
export const MAX_FACT_TEXT = 1000;

/** The longest content of a knowledge entry. */
export const MAX_ENTRY_CONTENT = 10_000;

const fail = (api: string, what: string): never => {
  throw new MemoryArgumentError(api, what);
};

const field = (value: unknown, key: string): unknown =>
  isPlainObject(value) ? (value as Record<string, unknown>)[key] : undefined;

const text = (value: unknown, path: string, api: string, max: number, empty = false): string => {
  if (typeof value !== 'string' || (!empty && value.trim() === '') || value.length > max) {
    fail(
      api,
      `${path} must be a ${empty ? '' : 'non-empty '}string of at most ${max} characters, received ${describeValue(value)}`,
    );
  }
  return value as string;
};

const time = (value: unknown, path: string, api: string): number => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(
      api,
      `${path} must be a finite number (milliseconds since the epoch), received ${describeValue(value)}`,
    );
  }
  return value as number;
};

const position = (value: unknown, path: string, api: string): number => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(
      api,
      `${path} must be a non-negative integer (a message position), received ${describeValue(value)}`,
    );
  }
  return value as number;
};

const unit = (value: unknown, path: string, api: string): number => {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    fail(api, `${path} must be a number from 0 to 1, received ${describeValue(value)}`);
  }
  return value as number;
};

const list = (value: unknown, path: string, api: string, max: number): readonly unknown[] => {
  if (!Array.isArray(value) || value.length > max) {
    fail(api, `${path} must be an array of at most ${max} items, received ${describeValue(value)}`);
  }
  return value as readonly unknown[];
};

const readEntity = (value: unknown, path: string, api: string): ExtractedEntity => {
  if (!isPlainObject(value))
    fail(api, `${path} must be an object, received ${describeValue(value)}`);
  const attributes = field(value, 'attributes');
  if (!isPlainObject(attributes)) {
    fail(
      api,
      `${path}.attributes must be an object of strings, received ${describeValue(attributes)}`,
    );
  }
  const read: Record<string, string> = {};
  for (const [key, attribute] of Object.entries(attributes as Record<string, unknown>)) {
    text(key, `${path}.attributes key`, api, MAX_FACT_TEXT);
    read[key] = text(attribute, `${path}.attributes.${key}`, api, MAX_FACT_TEXT, true);
  }
  return {
    name: text(field(value, 'name'), `${path}.name`, api, MAX_FACT_TEXT),
    type: text(field(value, 'type'), `${path}.type`, api, MAX_FACT_TEXT),
    attributes: read,
  };
};

const readTriple = (value: unknown, path: string, api: string): ExtractedTriple => {
  if (!isPlainObject(value))
    fail(api, `${path} must be an object, received ${describeValue(value)}`);
  const validFrom = field(value, 'validFrom');
  return {
    subject: text(field(value, 'subject'), `${path}.subject`, api, MAX_FACT_TEXT),
    relation: text(field(value, 'relation'), `${path}.relation`, api, MAX_FACT_TEXT),
    object: text(field(value, 'object'), `${path}.object`, api, MAX_FACT_TEXT),
    confidence: unit(field(value, 'confidence'), `${path}.confidence`, api),
    ...(validFrom === undefined ? {} : { validFrom: time(validFrom, `${path}.validFrom`, api) }),
  };
};

const limit = (value: unknown, path: string, api: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    fail(api, `${path} must be a positive integer, received ${describeValue(value)}`);
  }
  return value as number;
};

/**
 * A checked `knowledge/factsExtracted` payload, with its limits and relation policy resolved.
 *
 * @internal
 */
export interface ReadFacts {
  readonly source: ExtractionSource;
  readonly at: number;
  readonly from: number;
  readonly to: number;
  readonly entities: readonly ExtractedEntity[];
  readonly triples: readonly ExtractedTriple[];
  readonly limits: KnowledgeLimits;
  readonly singleValued: ReadonlySet<string>;
}

/**
 * Checks a `knowledge/factsExtracted` payload; throws `MemoryArgumentError` naming the field.
 *
 * @internal
 */
export const readFactsPayload = (payload: FactsExtractedPayload, api: string): ReadFacts => {
  if (!isPlainObject(payload))
    fail(api, `action.payload must be an object, received ${describeValue(payload)}`);
  const source = field(payload, 'source');
  if (source !== 'entities' && source !== 'relations') {
    fail(
      api,
      `action.payload.source must be 'entities' or 'relations', received ${describeValue(source)}`,
    );
  }
  const from = position(field(payload, 'from'), 'action.payload.from', api);
  const to = position(field(payload, 'to'), 'action.payload.to', api);
  if (to < from)
    fail(api, `action.payload.to (${to}) must not be below action.payload.from (${from})`);
  const entities = field(payload, 'entities');
  const triples = field(payload, 'triples');
  const limits = field(payload, 'limits');
  if (limits !== undefined && !isPlainObject(limits)) {
    fail(api, `action.payload.limits must be an object, received ${describeValue(limits)}`);
  }
  const single = field(payload, 'singleValuedRelations');
  return {
    source: source as ExtractionSource,
    at: time(field(payload, 'at'), 'action.payload.at', api),
    from,
    to,
    entities:
      entities === undefined
        ? []
        : list(entities, 'action.payload.entities', api, MAX_EXTRACTED_FACTS).map((item, i) =>
            readEntity(item, `action.payload.entities[${i}]`, api),
          ),
    triples:
      triples === undefined
        ? []
        : list(triples, 'action.payload.triples', api, MAX_EXTRACTED_FACTS).map((item, i) =>
            readTriple(item, `action.payload.triples[${i}]`, api),
          ),
    limits: {
      maxEntities: limit(
        field(limits, 'maxEntities'),
        'action.payload.limits.maxEntities',
        api,
        DEFAULT_KNOWLEDGE_LIMITS.maxEntities,
      ),
      maxRelations: limit(
        field(limits, 'maxRelations'),
        'action.payload.limits.maxRelations',
        api,
        DEFAULT_KNOWLEDGE_LIMITS.maxRelations,
      ),
      maxEntries: limit(
        field(limits, 'maxEntries'),
        'action.payload.limits.maxEntries',
        api,
        DEFAULT_KNOWLEDGE_LIMITS.maxEntries,
      ),
    },
    singleValued: new Set(
      (single === undefined
        ? SINGLE_VALUED_RELATIONS
        : list(single, 'action.payload.singleValuedRelations', api, MAX_EXTRACTED_FACTS).map(
            (item, i) =>
              text(item, `action.payload.singleValuedRelations[${i}]`, api, MAX_FACT_TEXT),
          )
      ).map(normalizeRelation),
    ),
  };
};

/**
 * Checks a `knowledge/remembered` payload.
 *
 * @internal
 */
export const readRememberedPayload = (
  payload: RememberedPayload,
  api: string,
): RememberedPayload & { readonly maxEntries: number } => {
  if (!isPlainObject(payload))
    fail(api, `action.payload must be an object, received ${describeValue(payload)}`);
  const persistent = field(payload, 'persistent');
  if (typeof persistent !== 'boolean') {
    fail(
      api,
      `action.payload.persistent must be true or false, received ${describeValue(persistent)}`,
    );
  }
  const ttlDays = field(payload, 'ttlDays');
  if (
    ttlDays !== null &&
    (typeof ttlDays !== 'number' || !(ttlDays > 0) || !Number.isFinite(ttlDays))
  ) {
    fail(
      api,
      `action.payload.ttlDays must be a positive number or null, received ${describeValue(ttlDays)}`,
    );
  }
  const metadata = field(payload, 'metadata');
  if (!isPlainObject(metadata)) {
    fail(api, `action.payload.metadata must be an object, received ${describeValue(metadata)}`);
  }
  return {
    id: text(field(payload, 'id'), 'action.payload.id', api, MAX_FACT_TEXT),
    content: text(field(payload, 'content'), 'action.payload.content', api, MAX_ENTRY_CONTENT),
    category: text(field(payload, 'category'), 'action.payload.category', api, MAX_FACT_TEXT),
    importance: unit(field(payload, 'importance'), 'action.payload.importance', api),
    persistent: persistent as boolean,
    ttlDays: ttlDays as number | null,
    metadata: metadata as JsonObject,
    at: time(field(payload, 'at'), 'action.payload.at', api),
    maxEntries: limit(
      field(payload, 'maxEntries'),
      'action.payload.maxEntries',
      api,
      DEFAULT_KNOWLEDGE_LIMITS.maxEntries,
    ),
  };
};

/**
 * Checks a `knowledge/forgotten` payload: `{ id, at }` or `{ content, at }`.
 *
 * @internal
 */
export const readForgottenPayload = (payload: ForgottenPayload, api: string): ForgottenPayload => {
  if (!isPlainObject(payload))
    fail(api, `action.payload must be an object, received ${describeValue(payload)}`);
  const at = time(field(payload, 'at'), 'action.payload.at', api);
  const id = field(payload, 'id');
  const content = field(payload, 'content');
  if ((id === undefined) === (content === undefined)) {
    fail(
      api,
      `action.payload must have exactly one of id and content, received ${describeValue(payload)}`,
    );
  }
  return id !== undefined
    ? { id: text(id, 'action.payload.id', api, MAX_FACT_TEXT), at }
    : { content: text(content, 'action.payload.content', api, MAX_ENTRY_CONTENT), at };
};
