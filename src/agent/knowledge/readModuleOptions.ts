import { MemoryArgumentError } from '../../errors/memoryErrors';
import { readOptionFields } from '../../internal/readOptionFields';
import { unreadable } from '../../internal/unreadable';
import { describeValue } from '../../util/describeValue';
import { isPlainObject } from '../../util/isPlainObject';
import type { KnowledgeStore } from '../../stores/knowledge/types';

/** The methods a knowledge store has. */
const STORE_METHODS = ['load', 'save', 'delete', 'list', 'close'] as const;

/** The reference's snake_case names, for a did-you-mean. */
export const SNAKE_HINTS: Readonly<Record<string, string>> = {
  max_entities: 'maxEntities',
  relevance_window: 'relevanceWindow',
  max_triples: 'maxTriples',
  max_context_triples: 'maxContextTriples',
  max_entries: 'maxEntries',
  max_context_chars: 'maxContextChars',
  max_tokens: 'maxTokens',
  single_valued_relations: 'singleValuedRelations',
  tokenBudget: 'budget',
};

/**
 * A plain object's known fields, read once (see `readOptionFields`): `where` is refused when it is
 * not a plain object, and an object that cannot be read is a `MemoryArgumentError` with the
 * caller's error as `cause`.
 */
const plainFields = (
  api: string,
  value: unknown,
  known: readonly string[],
  where: string,
  such: string,
  hints?: Readonly<Record<string, string>>,
): Record<string, unknown> => {
  let plain: boolean;
  try {
    plain = isPlainObject(value);
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, where);
  }
  if (!plain) {
    throw new MemoryArgumentError(
      api,
      `${where} must be an object${such}, received ${describeValue(value)}`,
    );
  }
  return readOptionFields(value, known, api, { where, ...(hints === undefined ? {} : { hints }) });
};

/** Whether `store` has every method of a knowledge store (one that cannot be read is refused). */
const isKnowledgeStore = (api: string, store: unknown): boolean => {
  if (typeof store !== 'object' || store === null) return false;
  try {
    return STORE_METHODS.every(
      (method) => typeof (store as Record<string, unknown>)[method] === 'function',
    );
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, 'options.store');
  }
};

/**
 * A reader of one factory's options: each read names `api` and the option in its error. The
 * options are read once, first (a getter or Proxy trap that throws is a `MemoryArgumentError` with
 * the caller's error as `cause`); the checks work on that copy.
 *
 * @internal
 */
export const optionReader = (api: string, options: unknown, known: readonly string[]) => {
  const fail = (what: string): never => {
    throw new MemoryArgumentError(api, what);
  };
  const record =
    options === undefined ? {} : plainFields(api, options, known, 'options', '', SNAKE_HINTS);
  return {
    record,
    positive(key: string, fallback: number): number {
      const value = record[key];
      if (value === undefined) return fallback;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
        return fail(`options.${key} must be a positive integer, received ${describeValue(value)}`);
      }
      return value;
    },
    optionalPositive(key: string): number | undefined {
      const value = record[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
        return fail(`options.${key} must be a positive integer, received ${describeValue(value)}`);
      }
      return value;
    },
    optionalText(key: string): string | undefined {
      const value = record[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'string' || value.trim() === '') {
        return fail(`options.${key} must be a non-empty string, received ${describeValue(value)}`);
      }
      return value;
    },
    texts(key: string, fallback: readonly string[]): readonly string[] {
      const value = record[key];
      if (value === undefined) return fallback;
      if (
        !Array.isArray(value) ||
        value.some((item) => typeof item !== 'string' || item.trim() === '')
      ) {
        return fail(
          `options.${key} must be an array of non-empty strings, received ${describeValue(value)}`,
        );
      }
      return Object.freeze([...(value as string[])]);
    },
    prompt(system: string, user: (conversation: string) => string) {
      const value = record.prompt;
      if (value === undefined) return Object.freeze({ system, user });
      const prompt = plainFields(
        api,
        value,
        ['system', 'user'],
        'options.prompt',
        ' such as { system, user }',
      );
      if (prompt.system !== undefined && typeof prompt.system !== 'string') {
        fail(`options.prompt.system must be a string, received ${describeValue(prompt.system)}`);
      }
      if (prompt.user !== undefined && typeof prompt.user !== 'function') {
        fail(
          `options.prompt.user must be a function (conversation) => string, received ${describeValue(prompt.user)}`,
        );
      }
      return Object.freeze({
        system: (prompt.system as string | undefined) ?? system,
        user: (prompt.user as ((conversation: string) => string) | undefined) ?? user,
      });
    },
    /**
     * `store` (a knowledge store: an object with every method of one), `id` (default
     * `'default'`) and `namespace`: where a module's facts live when they outlive a conversation.
     */
    storeLink(): {
      store: KnowledgeStore | undefined;
      id: string;
      namespace: string | undefined;
    } {
      const store = record.store;
      if (store !== undefined && !isKnowledgeStore(api, store)) {
        fail(
          `options.store must be a knowledge store (with ${STORE_METHODS.join(', ')}), received ${describeValue(store)}`,
        );
      }
      return {
        store: store as KnowledgeStore | undefined,
        id: this.optionalText('id') ?? 'default',
        namespace: this.optionalText('namespace'),
      };
    },
    fail,
  };
};
