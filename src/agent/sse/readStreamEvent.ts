import { ServerSentEventsError } from '../../errors/serverSentEventsErrors';
import { describeValue } from '../../util/describeValue';
import { escapeText, quoteText } from '../../util/escapeText';
import type { AgentStreamEvent } from '../streamEvents';

type Fields = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields each known event must have, and a check of each (`undefined` when it holds). */
const CHECKS: Readonly<Record<AgentStreamEvent['type'], readonly (readonly [string, string])[]>> = {
  'text-delta': [['text', 'string']],
  'tool-call': [
    ['toolCallId', 'string'],
    ['toolName', 'string'],
    ['input', 'object'],
  ],
  'tool-result': [
    ['toolCallId', 'string'],
    ['toolName', 'string'],
    ['output', 'string'],
    ['isError', 'boolean'],
  ],
  'memory-effect': [['effect', 'object']],
  finish: [['result', 'object']],
};

const isKnown = (name: string): name is AgentStreamEvent['type'] =>
  Object.prototype.hasOwnProperty.call(CHECKS, name);

const holds = (value: unknown, kind: string): boolean =>
  kind === 'object' ? isObject(value) : typeof value === kind;

/** The longest remote error message this reader shows. */
const MAX_REMOTE_MESSAGE = 500;

/**
 * The error a server's `event: error` stands for: its `message` (shortened, escaped) and `code`.
 */
const remoteError = (api: string, data: unknown): ServerSentEventsError => {
  const message = isObject(data) && typeof data['message'] === 'string' ? data['message'] : '';
  const code = isObject(data) && typeof data['code'] === 'string' ? data['code'] : undefined;
  const shown = message === '' ? 'no message' : escapeText(message, MAX_REMOTE_MESSAGE);
  const what = `the server's stream failed: ${shown}${code === undefined ? '' : ` (code ${quoteText(code)})`}`;
  return new ServerSentEventsError(
    api,
    what,
    code === undefined ? { event: 'error' } : { event: 'error', remoteCode: code },
  );
};

/**
 * Reads one event of the stream: a known event's data must be JSON for that event (an object
 * whose `type` is the event's name, with its fields of the right kinds; `memory-effect`'s
 * `effect` and `finish`'s `result` are checked as objects only); an `error` event becomes the
 * error to throw; other events give `undefined` (skipped).
 *
 * @param api - the API name for errors
 * @param name - the event's name (its `event:` field)
 * @param data - its data
 * @returns the event, or `undefined` for an unknown one
 * @throws ServerSentEventsError naming the event for bad data, or for an `error` event
 * @internal
 */
export const readStreamEvent = (
  api: string,
  name: string,
  data: string,
): AgentStreamEvent | undefined => {
  if (name !== 'error' && !isKnown(name)) return undefined;
  const bad = (what: string, cause?: unknown): ServerSentEventsError =>
    new ServerSentEventsError(
      api,
      `event ${quoteText(name)}: ${what}`,
      { event: name },
      cause === undefined ? undefined : { cause },
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    throw bad(`its data is not JSON (${describeValue(data)})`, error);
  }
  if (name === 'error') throw remoteError(api, parsed);
  if (!isObject(parsed))
    throw bad(`its data must be a JSON object, received ${describeValue(parsed)}`);
  if (parsed['type'] !== name) {
    throw bad(
      `its data's type must be ${quoteText(name)}, received ${describeValue(parsed['type'])}`,
    );
  }
  for (const [field, kind] of CHECKS[name]) {
    if (!holds(parsed[field], kind)) {
      throw bad(
        `its data's ${field} must be ${kind === 'object' ? 'an object' : `a ${kind}`}, received ${describeValue(parsed[field])}`,
      );
    }
  }
  return parsed as AgentStreamEvent;
};
