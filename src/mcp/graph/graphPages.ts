import { McpToolError } from '../mcpErrors';

/**
 * How a paged read was asked: at most `limit` items, from `cursor` (a `nextCursor` this server
 * gave), in at most `maxTokens` tokens of the result's text.
 *
 * @internal
 */
export interface PageRequest {
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  readonly maxTokens?: number | undefined;
}

/** Whether a read asked for a page (else it answers as the reference does, whole). */
export const isPaged = (request: PageRequest): boolean =>
  request.limit !== undefined || request.cursor !== undefined || request.maxTokens !== undefined;

/** The most items a page holds when `limit` is not given. */
export const DEFAULT_PAGE_LIMIT = 1_000;

const CURSOR = /^o(0|[1-9]\d{0,8})$/;

/** The opaque cursor of the item at `offset`. */
export const cursorAt = (offset: number): string =>
  Buffer.from(`o${offset}`, 'utf8').toString('base64url');

/** The offset a cursor names; a tool error for one this server did not give. */
export const offsetOf = (cursor: string | undefined, total: number): number => {
  if (cursor === undefined) return 0;
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const offset = match === null ? NaN : Number(match[1]);
  if (!(offset <= total)) {
    throw new McpToolError(
      `cursor ${JSON.stringify(cursor.slice(0, 64))} is not one this server gave (or the graph has shrunk since): read again from the start`,
    );
  }
  return offset;
};

/**
 * One page of `items` (from the cursor's offset): as many as `limit` allows and whose result
 * text, made by `render` (items and the next cursor), counts at most `maxTokens` by `count`. Each
 * item is counted once on its own, then the page is counted whole and shortened until it fits: a
 * page never exceeds the budget. A first item that alone exceeds it is a tool error naming it.
 *
 * @internal
 */
export const pageOf = <T>(
  items: readonly T[],
  request: PageRequest,
  render: (page: readonly T[], nextCursor: string | undefined) => string,
  count: (text: string) => number,
  describe: (item: T) => string,
): {
  readonly page: readonly T[];
  readonly nextCursor: string | undefined;
  readonly text: string;
} => {
  const from = offsetOf(request.cursor, items.length);
  const limit = request.limit ?? DEFAULT_PAGE_LIMIT;
  let end = Math.min(items.length, from + limit);
  const budget = request.maxTokens;
  if (budget !== undefined) {
    let used = count(render([], cursorAt(items.length)));
    const empty = count(render([], undefined));
    for (let i = from; i < end; i++) {
      used += count(render([items[i] as T], undefined)) - empty;
      if (used > budget) {
        end = i;
        break;
      }
    }
  }
  for (;;) {
    const page = items.slice(from, end);
    const nextCursor = end < items.length ? cursorAt(end) : undefined;
    const text = render(page, nextCursor);
    if (budget === undefined || count(text) <= budget) return { page, nextCursor, text };
    if (end === from) break;
    end--;
  }
  const first = items[from];
  throw new McpToolError(
    first === undefined
      ? `maxTokens ${budget} is too small for an empty page`
      : `maxTokens ${budget} is too small for the next item alone (${describe(first)}): ask for more tokens`,
  );
};
