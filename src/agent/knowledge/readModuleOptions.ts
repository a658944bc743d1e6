import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { isPlainObject } from '../../util/isPlainObject';
import { unknownOption } from '../../util/unknownOption';
import type { KnowledgeStore } from '../../knowledge/store/types';

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
 * A reader of one factory's options: each read names `api` and the option in its error.
 *
 * @internal
 */
export const optionReader = (api: string, options: unknown, known: readonly string[]) => {
  const fail = (what: string): never => {
    throw new MemoryArgumentError(api, what);
  };
  if (options !== undefined && !isPlainObject(options)) {
    fail(`options must be an object, received ${describeValue(options)}`);
  }
  const record = (options ?? {}) as Record<string, unknown>;
  const unknown = unknownOption(record, known, 'options', SNAKE_HINTS);
  if (unknown !== undefined) fail(unknown);
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
      if (!isPlainObject(value)) {
        return fail(
          `options.prompt must be an object such as { system, user }, received ${describeValue(value)}`,
        );
      }
      const prompt = value as Record<string, unknown>;
      const unknownKey = unknownOption(prompt, ['system', 'user'], 'options.prompt');
      if (unknownKey !== undefined) fail(unknownKey);
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
      if (
        store !== undefined &&
        (typeof store !== 'object' ||
          store === null ||
          STORE_METHODS.some(
            (method) => typeof (store as Record<string, unknown>)[method] !== 'function',
          ))
      ) {
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
