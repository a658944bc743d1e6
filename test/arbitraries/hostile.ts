import fc from 'fast-check';
import { messageToDict, type MessageDict } from 'conversation-memory';
import { messageArb } from './message';

/**
 * Hostile versions of valid input: objects whose getters or Proxy traps throw, revoked Proxies,
 * getters that answer differently on each read, and own `__proto__` keys (what `JSON.parse`
 * makes of `"__proto__": …`). Each is applied to one node (or every node) of a valid JSON tree,
 * so a property can say what must happen wherever the hostility sits.
 */

/** A JSON tree node: an object or an array, and the path that leads to it. */
export interface JsonNode {
  readonly path: readonly (string | number)[];
  readonly value: Record<string, unknown> | unknown[];
}

/** Every object and array of a JSON tree, the root included, in depth-first order. */
export const jsonNodes = (root: unknown): JsonNode[] => {
  const nodes: JsonNode[] = [];
  const walk = (value: unknown, path: (string | number)[]): void => {
    if (typeof value !== 'object' || value === null) return;
    nodes.push({ path, value: value as JsonNode['value'] });
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...path, i]));
    else
      for (const key of Object.keys(value))
        walk((value as Record<string, unknown>)[key], [...path, key]);
  };
  walk(root, []);
  return nodes;
};

/** A deep copy of a JSON tree in which the node at `path` is replaced by `replace(node)`. */
export const replaceAt = (
  root: unknown,
  path: readonly (string | number)[],
  replace: (node: unknown) => unknown,
): unknown => {
  if (path.length === 0) return replace(root);
  const [head, ...rest] = path;
  const copy = (
    Array.isArray(root) ? [...(root as unknown[])] : { ...(root as Record<string, unknown>) }
  ) as Record<string, unknown>;
  copy[head as string] = replaceAt(copy[head as string], rest, replace);
  return copy;
};

/** The Proxy traps a hostile object may throw from. */
export const TRAPS = [
  'get',
  'ownKeys',
  'getOwnPropertyDescriptor',
  'getPrototypeOf',
  'has',
] as const;

/**
 * Every trap a Proxy of a plain object can have: the reading ones above, and those that write or
 * freeze (a call must never write to a caller's object, so these change nothing).
 */
export const ALL_TRAPS = [
  ...TRAPS,
  'set',
  'defineProperty',
  'deleteProperty',
  'preventExtensions',
  'isExtensible',
  'setPrototypeOf',
] as const;
export type Trap = (typeof ALL_TRAPS)[number];

/** What a hostile node does. */
export type Hostility =
  | { readonly kind: 'trap'; readonly trap: Trap }
  | { readonly kind: 'revoked' }
  | { readonly kind: 'throwing getter'; readonly key: string };

/** An error thrown by hostile input; a test can tell it from anything else. */
export class HostileError extends Error {
  constructor() {
    super('hostile input\n[ERROR] forged log line \u001b[31mred');
    this.name = 'HostileError';
  }
}

/** Makes `node` hostile in the given way (a copy; the input is not changed). */
export const makeHostile = (node: unknown, hostility: Hostility): unknown => {
  const target = Array.isArray(node) ? [...node] : { ...(node as object) };
  switch (hostility.kind) {
    case 'trap':
      return new Proxy(target, {
        [hostility.trap]: () => {
          throw new HostileError();
        },
      });
    case 'revoked': {
      const { proxy, revoke } = Proxy.revocable(target, {});
      revoke();
      return proxy;
    }
    case 'throwing getter':
      Object.defineProperty(target, hostility.key, {
        get: () => {
          throw new HostileError();
        },
        enumerable: true,
        configurable: true,
      });
      return target;
  }
};

export const hostilityArb = (keys: readonly string[]): fc.Arbitrary<Hostility> =>
  fc.oneof(
    fc.constantFrom(...TRAPS).map((trap): Hostility => ({ kind: 'trap', trap })),
    fc.constant<Hostility>({ kind: 'revoked' }),
    fc
      .constantFrom(...(keys.length > 0 ? keys : ['extra']))
      .map((key): Hostility => ({ kind: 'throwing getter', key })),
  );

/**
 * Drops `null` fields of the records of a reference dict (outside tool-call parameters and message metadata), one
 * flag per field: the reference writes every key, but reads a missing key as its default, and a
 * missing key is what an injected prototype could fill.
 */
const dropNulls = (value: unknown, flags: readonly boolean[], next: { i: number }): unknown => {
  if (Array.isArray(value)) return value.map((item) => dropNulls(item, flags, next));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'parameters' || key === 'metadata')
      out[key] = item; // data, kept as is
    else if (item === null && flags[next.i++ % flags.length]) continue;
    else out[key] = dropNulls(item, flags, next);
  }
  return out;
};

/**
 * A valid reference memory dict (`to_dict()` shape) with a few messages of every kind, the
 * heuristic tokenizer named in our extension key (cheap to count); some `null` fields are left
 * out, as the reference's reader allows.
 */
export const memoryDictArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    maxMessages: fc.integer({ min: 1, max: 30 }),
    maxTokens: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
    messages: fc.array(messageArb, { maxLength: 4 }),
    summary: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
    drop: fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
  })
  .map(
    ({ maxMessages, maxTokens, messages, summary, drop }) =>
      dropNulls(
        {
          max_messages: maxMessages,
          max_tokens: maxTokens,
          message_count: messages.length,
          messages: messages.map((message): MessageDict => messageToDict(message)),
          summary,
          conversation_memory: { tokenizer: 'heuristic' },
        },
        drop,
        { i: 0 },
      ) as Record<string, unknown>,
  );

/** Reads of each counted getter, by path; see {@link withCountedGetters}. */
export type ReadLog = Map<string, number>;

/**
 * A deep copy of a JSON tree in which every own property of every object, and every item of
 * every array, is a getter that answers its true value on the first read and `poison` on every
 * later one, and counts its reads in `log`. Decoding it must give the same result as decoding
 * the plain tree, and read each getter at most once.
 */
export const withCountedGetters = (root: unknown, poison: unknown, log: ReadLog): unknown => {
  const wrap = (value: unknown, path: string): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> | unknown[] = Array.isArray(value)
      ? new Array<unknown>(value.length)
      : {};
    for (const key of Object.keys(value)) {
      const inner = wrap((value as Record<string, unknown>)[key], `${path}/${key}`);
      const where = `${path}/${key}`;
      log.set(where, 0);
      Object.defineProperty(out, key, {
        get: () => {
          const reads = (log.get(where) ?? 0) + 1;
          log.set(where, reads);
          return reads === 1 ? inner : poison;
        },
        enumerable: true,
        configurable: true,
      });
    }
    return out;
  };
  return wrap(root, '');
};

/** The values a second read may answer: each would fail validation if it were used. */
export const poisonArb: fc.Arbitrary<unknown> = fc.constantFrom(
  0,
  'USER',
  12345,
  { a: 1 },
  null,
  () => 1,
  Number.NaN,
);

/**
 * A copy of a JSON tree with an own `__proto__` key (as `JSON.parse` makes it) added to the
 * object at `path`, holding `payload`.
 */
export const withProtoKey = (
  root: unknown,
  path: readonly (string | number)[],
  payload: unknown,
): unknown =>
  replaceAt(root, path, (node) => {
    const copy = { ...(node as object) };
    Object.defineProperty(copy, '__proto__', {
      value: payload,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return copy;
  });

/** Field values that would corrupt a memory if a `__proto__` payload were read through. */
export const protoPayloadArb: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(
  { max_tokens: 0 },
  { max_messages: 0 },
  { tool_name: { a: 1 } },
  { content: 12345 },
  { role: 'USER' },
  { name: 7, parameters: 'x' },
  { type: 3, text: 4 },
  { tokenizer: 'nope' },
  { conversation_memory: { tokenizer: 'nope' } },
  { messages: [0] },
);
