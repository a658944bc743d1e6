import type * as t from 'io-ts';
import { describeValue } from '../util/describeValue';
import { shortenPath } from '../util/shortenPath';

const isArrayTag = (tag: string | undefined): boolean =>
  tag === 'ArrayType' || tag === 'ReadonlyArrayType' || tag === 'BoundedArrayType';

/**
 * Walks an io-ts context and returns the readable path (`messages[3].role`), the type found at
 * the end of that path, and every proper prefix of the path. Union members, intersections and
 * refinements repeat their parent's position, so they extend neither the path nor the expected
 * type: a failing `string | null` is reported once, as `expected (string | null)`.
 */
const locate = (context: t.Context): { path: string; expected: string; prefixes: string[] } => {
  let path = '';
  let expected = context[0]?.type.name ?? 'a valid value';
  const prefixes: string[] = [];
  for (let i = 1; i < context.length; i++) {
    const entry = context[i];
    const parentTag = (context[i - 1]?.type as { _tag?: string } | undefined)?._tag;
    if (entry === undefined) continue;
    if (
      parentTag === 'UnionType' ||
      parentTag === 'IntersectionType' ||
      parentTag === 'RefinementType'
    ) {
      continue;
    }
    if (path !== '') prefixes.push(path);
    path += isArrayTag(parentTag) ? `[${entry.key}]` : path === '' ? entry.key : `.${entry.key}`;
    expected = entry.type.name;
  }
  return { path: path === '' ? '(root)' : path, expected, prefixes };
};

/**
 * Renders io-ts errors as one line each: `path: message`, where message is the codec's own text
 * when it gave one, else `expected <type>, got <value>`; a codec's predicate message is attached
 * to its subject (`maxMessages must be at least 1, received 0`). When one member of a union got
 * deeper (`tool_calls[0].name`), the shallow "expected Array | null" of the other member is
 * dropped. Identical lines are merged. Every distinct line is returned (the error classes list
 * the first 20 and count the rest); the decoders bound how many errors exist, and this is linear
 * in their number (times the path depth).
 *
 * @internal
 */
export const reportErrors = (errors: t.Errors): readonly string[] => {
  const located = errors.map((error) => ({ error, ...locate(error.context) }));
  const hasDeeper = new Set<string>();
  for (const { prefixes } of located) for (const prefix of prefixes) hasDeeper.add(prefix);
  const lines = new Set<string>();
  for (const { error, path, expected } of located) {
    if (hasDeeper.has(path)) continue;
    const what = error.message ?? `expected ${expected}, got ${describeValue(error.value)}`;
    const subject = shortenPath(path);
    lines.add(/^(must|is) /.test(what) ? `${subject} ${what}` : `${subject}: ${what}`);
  }
  return [...lines];
};
