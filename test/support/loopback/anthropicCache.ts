/**
 * The loopback Anthropic server's checks of cache breakpoints, as the Messages API makes them:
 * `cache_control` may sit on a tool, a system text block, a message's content block or a block
 * inside a `tool_result`; it is `{ type: 'ephemeral' }` with an optional `ttl` of `'5m'` or
 * `'1h'` and nothing else; and a request may hold at most four (`A maximum of 4 blocks with
 * cache_control may be provided. Found 5.`, the API's own text, quoted in public bug reports).
 *
 * Test support only: it is not part of the library.
 */
import { type Check, isObject, own } from './anthropicCheck';

/** The most `cache_control` blocks a request may have. */
export const MAX_CACHE_BREAKPOINTS = 4;

const checkControl = (control: unknown, path: string): Check => {
  if (!isObject(control)) return `${path}: Input should be a valid dictionary`;
  const extra = Object.keys(control).find((key) => key !== 'type' && key !== 'ttl');
  if (extra !== undefined) return `${path}.${extra}: Extra inputs are not permitted`;
  if (own(control, 'type') !== 'ephemeral') return `${path}.type: Input should be 'ephemeral'`;
  const ttl = own(control, 'ttl');
  if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') {
    return `${path}.ttl: Input should be '5m' or '1h'`;
  }
  return undefined;
};

/** Every `[value, path]` of a list whose items may carry `cache_control` (one level of nesting). */
const holders = (list: unknown, path: string): [Record<string, unknown>, string][] => {
  if (!Array.isArray(list)) return [];
  const found: [Record<string, unknown>, string][] = [];
  list.forEach((item: unknown, i) => {
    if (!isObject(item)) return;
    found.push([item, `${path}.${i}`]);
    if (own(item, 'type') === 'tool_result') {
      found.push(...holders(own(item, 'content'), `${path}.${i}.content`));
    }
  });
  return found;
};

/** Every block of a request that may carry `cache_control`, in the API's order. */
const placesOf = (body: Record<string, unknown>): [Record<string, unknown>, string][] => {
  const places = [
    ...holders(own(body, 'tools'), 'tools'),
    ...holders(own(body, 'system'), 'system'),
  ];
  const messages = own(body, 'messages');
  if (Array.isArray(messages)) {
    messages.forEach((message: unknown, i) => {
      if (isObject(message))
        places.push(...holders(own(message, 'content'), `messages.${i}.content`));
    });
  }
  return places;
};

/**
 * Checks every `cache_control` of a (shape-checked) request body and their number.
 *
 * @param body - the parsed JSON body
 * @returns the API's error text for the first problem, or `undefined`
 */
export const checkCacheControl = (body: Record<string, unknown>): Check => {
  const places = placesOf(body);
  let count = 0;
  for (const [holder, path] of places) {
    const control = own(holder, 'cache_control');
    if (control === undefined || control === null) continue;
    const problem = checkControl(control, `${path}.cache_control`);
    if (problem !== undefined) return problem;
    count++;
  }
  return count > MAX_CACHE_BREAKPOINTS
    ? `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.`
    : undefined;
};

/**
 * The `cache_control` breakpoints of a recorded request, as paths (`system.1`,
 * `messages.3.content.0`, `tools.0`), in the order the API reads them: tools, system, messages.
 *
 * @param body - a request the server received
 * @returns the paths of the blocks that carry `cache_control`, with its value
 */
export const cacheBreakpointsOf = (
  body: Record<string, unknown>,
): { readonly path: string; readonly control: unknown }[] => {
  const places = placesOf(body);
  return places
    .filter(([holder]) => own(holder, 'cache_control') !== undefined)
    .map(([holder, path]) => ({ path, control: own(holder, 'cache_control') }));
};
