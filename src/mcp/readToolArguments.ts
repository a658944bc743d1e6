import { describeValue, MAX_KNOWLEDGE_TEXT_LENGTH } from '../library';
import type { McpEntity, McpRelation } from './graph/mcpGraph';
import type { PageRequest } from './graph/graphPages';
import { McpToolError } from './mcpErrors';

/**
 * The most items one list of a tool's arguments may hold (entities, relations, names,
 * observations): a longer one is refused before any item is read.
 *
 * @internal
 */
export const MAX_TOOL_ITEMS = 10_000;

/**
 * The largest `maxTokens` a read may ask for.
 *
 * @internal
 */
export const MAX_PAGE_TOKENS = 10_000_000;

/** Reads one tool's arguments; each problem throws, naming the tool, the path and the value. */
class ArgumentReader {
  constructor(readonly tool: string) {}

  fail(path: string, must: string, value: unknown): never {
    throw new McpToolError(
      `MCP error -32602: Input validation error: Invalid arguments for tool ${this.tool}: ${path} must be ${must}, received ${describeValue(value)}`,
    );
  }

  object(value: unknown, path: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return this.fail(path, 'an object', value);
    }
    return value as Record<string, unknown>;
  }

  text(value: unknown, path: string): string {
    if (typeof value !== 'string') return this.fail(path, 'a string', value);
    if (value.length > MAX_KNOWLEDGE_TEXT_LENGTH) {
      return this.fail(path, `at most ${MAX_KNOWLEDGE_TEXT_LENGTH} characters long`, value);
    }
    return value;
  }

  list<T>(value: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
    if (!Array.isArray(value)) return this.fail(path, 'an array', value);
    if (value.length > MAX_TOOL_ITEMS) {
      return this.fail(path, `an array of at most ${MAX_TOOL_ITEMS} items`, value);
    }
    return value.map((v, i) => item(v, `${path}[${i}]`));
  }

  /** An optional whole number from `min` to `max`. */
  count(value: unknown, path: string, min: number, max: number): number | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      return this.fail(path, `a whole number from ${min} to ${max}`, value);
    }
    return value;
  }

  texts(value: unknown, path: string): string[] {
    return this.list(value, path, (v, p) => this.text(v, p));
  }
}

const own = (fields: Record<string, unknown>, key: string): unknown =>
  Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;

/** `args[list]`: a list of `{ entityName, [texts]: string[] }` (the observation tools' shape). */
const perEntity = (
  tool: string,
  args: unknown,
  list: string,
  texts: string,
): { entityName: string; texts: string[] }[] => {
  const r = new ArgumentReader(tool);
  return r.list(own(r.object(args ?? {}, 'arguments'), list), list, (v, p) => {
    const o = r.object(v, p);
    return {
      entityName: r.text(own(o, 'entityName'), `${p}.entityName`),
      texts: r.texts(own(o, texts), `${p}.${texts}`),
    };
  });
};

/** The arguments of each reference tool, read from what the client sent (untrusted). */
export const readArguments = {
  create_entities(args: unknown): McpEntity[] {
    const r = new ArgumentReader('create_entities');
    return r.list(own(r.object(args ?? {}, 'arguments'), 'entities'), 'entities', (v, p) => {
      const e = r.object(v, p);
      return {
        name: r.text(own(e, 'name'), `${p}.name`),
        entityType: r.text(own(e, 'entityType'), `${p}.entityType`),
        observations: r.texts(own(e, 'observations'), `${p}.observations`),
      };
    });
  },
  relations(tool: string, args: unknown): McpRelation[] {
    const r = new ArgumentReader(tool);
    return r.list(own(r.object(args ?? {}, 'arguments'), 'relations'), 'relations', (v, p) => {
      const e = r.object(v, p);
      return {
        from: r.text(own(e, 'from'), `${p}.from`),
        to: r.text(own(e, 'to'), `${p}.to`),
        relationType: r.text(own(e, 'relationType'), `${p}.relationType`),
      };
    });
  },
  add_observations(args: unknown): { entityName: string; contents: string[] }[] {
    return perEntity('add_observations', args, 'observations', 'contents').map((item) => ({
      entityName: item.entityName,
      contents: item.texts,
    }));
  },
  delete_observations(args: unknown): { entityName: string; observations: string[] }[] {
    return perEntity('delete_observations', args, 'deletions', 'observations').map((item) => ({
      entityName: item.entityName,
      observations: item.texts,
    }));
  },
  names(tool: string, key: string, args: unknown): string[] {
    const r = new ArgumentReader(tool);
    return r.texts(own(r.object(args ?? {}, 'arguments'), key), key);
  },
  query(tool: string, args: unknown): string {
    const r = new ArgumentReader(tool);
    return r.text(own(r.object(args ?? {}, 'arguments'), 'query'), 'query');
  },
  /** A paged read's `limit`, `cursor` and `maxTokens` (each optional). */
  page(tool: string, args: unknown): PageRequest {
    const r = new ArgumentReader(tool);
    const fields = r.object(args ?? {}, 'arguments');
    const cursor = own(fields, 'cursor');
    if (cursor !== undefined && (typeof cursor !== 'string' || cursor.length > 1024)) {
      r.fail('cursor', 'a nextCursor this server gave', cursor);
    }
    return {
      limit: r.count(own(fields, 'limit'), 'limit', 1, MAX_TOOL_ITEMS),
      cursor: cursor as string | undefined,
      maxTokens: r.count(own(fields, 'maxTokens'), 'maxTokens', 1, MAX_PAGE_TOKENS),
    };
  },
  /** `recall`'s `limit` (default 10) and `maxTokens`. */
  recall(args: unknown): { limit: number; maxTokens: number | undefined } {
    const r = new ArgumentReader('recall');
    const fields = r.object(args ?? {}, 'arguments');
    return {
      limit: r.count(own(fields, 'limit'), 'limit', 1, 100) ?? 10,
      maxTokens: r.count(own(fields, 'maxTokens'), 'maxTokens', 1, MAX_PAGE_TOKENS),
    };
  },
};
