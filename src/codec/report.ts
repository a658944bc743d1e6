import type * as t from 'io-ts';
import { describeValue } from '../internal/describeValue';

const isArrayTag = (tag: string | undefined): boolean =>
  tag === 'ArrayType' || tag === 'ReadonlyArrayType';

/**
 * Walks an io-ts context and returns the readable path (`messages[3].role`) and the type found at
 * the end of that path. Union members, intersections and refinements repeat their parent's
 * position, so they extend neither the path nor the expected type: a failing
 * `string | null` is reported once, as `expected (string | null)`.
 */
const locate = (context: t.Context): { path: string; expected: string } => {
  let path = '';
  let expected = context[0]?.type.name ?? 'a valid value';
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
    const key = entry.key;
    if (isArrayTag(parentTag)) path += `[${key}]`;
    else path += path === '' ? key : `.${key}`;
    expected = entry.type.name;
  }
  return { path: path === '' ? '(root)' : path, expected };
};

/**
 * Renders io-ts errors as one line each: `path: message`, where message is the codec's own text
 * when it gave one, else `expected <type>, got <value>`; a codec's predicate message is attached
 * to its subject (`maxMessages must be at least 1, received 0`). Identical lines are merged.
 *
 * @internal
 */
export const reportErrors = (errors: t.Errors): readonly string[] => {
  const located = errors.map((error) => ({ error, ...locate(error.context) }));
  const lines: string[] = [];
  for (const { error, path, expected } of located) {
    // A union reports one error per member: when one member got deeper (`tool_calls[0].name`),
    // the shallow "expected Array | null" from the other member only adds noise.
    const deeper = located.some(
      (other) => other.path.startsWith(`${path}.`) || other.path.startsWith(`${path}[`),
    );
    if (deeper) continue;
    const what = error.message ?? `expected ${expected}, got ${describeValue(error.value)}`;
    // A predicate ("must be at least 1, received 0") reads best attached to its subject.
    const line = /^(must|is) /.test(what) ? `${path} ${what}` : `${path}: ${what}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
};
