import { MemoryArgumentError } from '../errors/memoryErrors';
import { checkOptionFields, configError } from '../internal/checkConfig';
import { describeValue } from '../util/describeValue';
import { quoteText } from '../util/escapeText';
import { normalizeMessage } from '../internal/normalizeMessage';
import { suggestOption } from '../util/unknownOption';
import { unreadable } from '../internal/unreadable';
import type { MemoryAction } from '../model/actions';
import type { Message } from '../model/message';
import { cloneJsonObject, NotJsonError } from '../internal/cloneJson';
import { deepFreeze } from '../model/freeze';
import {
  readFactsPayload,
  readForgottenPayload,
  readRememberedPayload,
} from '../knowledge/readKnowledgePayload';

/** Actions this module made: plain, deep-frozen, checked copies, taken again as they are. */
const recorded = /* @__PURE__ */ new WeakSet<object>();

/** Field `key` of a caller's object, read once; a throwing read is ours, naming the field. */
const field = (value: object, key: string, path: string, api: string): unknown => {
  try {
    return (value as Record<string, unknown>)[key];
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, `${path}.${key}`);
  }
};

const refuse = (api: string, path: string, expected: string, value: unknown): never => {
  throw new MemoryArgumentError(
    api,
    `${path} must be ${expected}, received ${describeValue(value)}`,
  );
};

/** A caller's list copied: its length read once, then each item once (an error names `path`). */
const listOf = <T>(
  value: unknown,
  path: string,
  api: string,
  item: (v: unknown, i: number) => T,
) => {
  const out: T[] = [];
  let length: number;
  try {
    if (!Array.isArray(value)) return refuse(api, path, 'an array', value);
    length = (value as readonly unknown[]).length;
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, path);
  }
  for (let i = 0; i < length; i++) {
    let raw: unknown;
    try {
      raw = (value as readonly unknown[])[i];
    } catch (error) {
      throw unreadable(error, MemoryArgumentError, api, `${path}[${i}]`);
    }
    out.push(item(raw, i));
  }
  return Object.freeze(out);
};

const messagesOf = (value: unknown, path: string, api: string): readonly Message[] =>
  listOf(value, path, api, (raw, i) => normalizeMessage(raw, api, i));

const isPosition = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

const objectOf = (value: unknown, path: string, api: string): object =>
  typeof value === 'object' && value !== null ? value : refuse(api, path, 'an object', value);

/** The copy of a memory action of `type`, its fields read from `action` once each. */
const copyOf = (action: object, type: MemoryAction['type'], api: string): MemoryAction => {
  switch (type) {
    case 'memory/messageAdded':
      return { type, payload: normalizeMessage(field(action, 'payload', 'action', api), api) };
    case 'memory/messagesAdded':
      return {
        type,
        payload: messagesOf(field(action, 'payload', 'action', api), 'action.payload', api),
      };
    case 'memory/limitsEnforced':
    case 'memory/toolPairBoundaryFixed':
    case 'memory/cleared':
      return { type };
    case 'memory/summaryApplied': {
      const payload = field(action, 'payload', 'action', api);
      return typeof payload === 'string'
        ? { type, payload }
        : refuse(api, 'action.payload', `a string for ${type}`, payload);
    }
    case 'memory/summarySet': {
      const payload = field(action, 'payload', 'action', api);
      return payload === null || typeof payload === 'string'
        ? { type, payload }
        : refuse(api, 'action.payload', `a string or null for ${type}`, payload);
    }
    case 'memory/trimHeld': {
      const payload = objectOf(field(action, 'payload', 'action', api), 'action.payload', api);
      const removed = messagesOf(
        field(payload, 'removed', 'action.payload', api),
        'action.payload.removed',
        api,
      );
      const positions = listOf(
        field(payload, 'positions', 'action.payload', api),
        'action.payload.positions',
        api,
        (raw, i) =>
          isPosition(raw)
            ? raw
            : refuse(api, `action.payload.positions[${i}]`, 'an integer ≥ 0', raw),
      );
      if (positions.length !== removed.length) {
        throw new MemoryArgumentError(
          api,
          `action.payload must hold one position per removed message, received ${removed.length} messages and ${positions.length} positions`,
        );
      }
      return { type, payload: Object.freeze({ removed, positions }) };
    }
    case 'memory/summaryCommitted': {
      const payload = objectOf(field(action, 'payload', 'action', api), 'action.payload', api);
      const text = field(payload, 'text', 'action.payload', api);
      const through = field(payload, 'through', 'action.payload', api);
      if (typeof text !== 'string') refuse(api, 'action.payload.text', 'a string', text);
      if (!isPosition(through)) refuse(api, 'action.payload.through', 'an integer ≥ 0', through);
      return { type, payload: Object.freeze({ text: text as string, through: through as number }) };
    }
    case 'memory/reconfigured': {
      const checked = checkOptionFields(field(action, 'payload', 'action', api));
      if (!checked.ok) throw configError(api, checked);
      return { type, payload: checked.fields };
    }
    case 'knowledge/cleared':
      return { type };
    case 'knowledge/factsExtracted':
    case 'knowledge/remembered':
    case 'knowledge/forgotten':
      return { type, payload: knowledgePayloadOf(action, type, api) } as MemoryAction;
  }
};

/** A plain, deep-frozen copy of a knowledge action's payload, checked as its reducer checks it. */
const knowledgePayloadOf = (
  action: object,
  type: 'knowledge/factsExtracted' | 'knowledge/remembered' | 'knowledge/forgotten',
  api: string,
): object => {
  const raw = field(action, 'payload', 'action', api);
  let payload: object;
  try {
    payload = cloneJsonObject(raw, 'action.payload');
  } catch (error) {
    if (error instanceof NotJsonError) refuse(api, 'action.payload', 'a JSON object', raw);
    throw unreadable(error, MemoryArgumentError, api, 'action.payload');
  }
  if (type === 'knowledge/factsExtracted') readFactsPayload(payload as never, api);
  else if (type === 'knowledge/remembered') readRememberedPayload(payload as never, api);
  else readForgottenPayload(payload as never, api);
  return deepFreeze(payload);
};

const TYPE_NAMES: readonly MemoryAction['type'][] = [
  'memory/messageAdded',
  'memory/messagesAdded',
  'memory/limitsEnforced',
  'memory/toolPairBoundaryFixed',
  'memory/summaryApplied',
  'memory/summarySet',
  'memory/cleared',
  'memory/trimHeld',
  'memory/summaryCommitted',
  'memory/reconfigured',
  'knowledge/factsExtracted',
  'knowledge/remembered',
  'knowledge/forgotten',
  'knowledge/cleared',
];

const TYPES: ReadonlySet<unknown> = /* @__PURE__ */ new Set<unknown>(TYPE_NAMES);

/** The namespace of memory action types: a type in it must be one of {@link TYPE_NAMES}. */
const NAMESPACE = 'memory/';

/** The namespace of knowledge action types (recorded with the memory's, in one log). */
const KNOWLEDGE_NAMESPACE = 'knowledge/';

/** Why `value` is not an action, with the fix for a message given where an action belongs. */
const notAnAction = (value: unknown): string => {
  const isMessage =
    typeof value === 'object' && value !== null && 'role' in value && 'content' in value;
  const fix = isMessage
    ? ': wrap a message in an action, memoryActions.messageAdded(message)'
    : ' such as memoryActions.messageAdded(message)';
  return `action must be an action (an object with a string type)${fix}, received ${describeValue(value)}`;
};

/**
 * What an event log records of `action`: a plain, deep-frozen copy of a memory action, its
 * fields read once each (so what is applied and what is kept are one value, whatever the
 * caller's object does later) and checked as `decodeAction` checks them (so a saved log loads
 * back); `undefined` for an action of another namespace (another slice's action, Redux's
 * `@@redux/INIT`): `memoryTransition` leaves the state as it is for those, and so a log leaves
 * them out. A value that is not an action at all (no string `type`: a message, `null`) and an
 * unknown `memory/*` type (a misspelling) are refused: a log that kept them could not be loaded
 * again, and leaving them out would lose the caller's change silently. A copy this returned
 * before is returned as it is.
 *
 * @param action - the caller's value
 * @param api - the API named in errors
 * @returns the action to record, or `undefined` for another namespace's action
 * @throws MemoryArgumentError for a value that is not an action or an unknown `memory/*` type
 *   (with a did-you-mean), for a memory action whose payload is not one (naming the field and
 *   the value), or whose fields cannot be read; InvalidMessageError for an invalid message;
 *   MemoryConfigError for a `memory/reconfigured` payload that `createMemory` would refuse
 * @internal
 */
export const recordAction = (action: unknown, api: string): MemoryAction | undefined => {
  if (typeof action === 'object' && action !== null && recorded.has(action)) {
    return action as MemoryAction;
  }
  const type =
    typeof action === 'object' && action !== null
      ? field(action, 'type', 'action', api)
      : undefined;
  if (typeof type !== 'string') throw new MemoryArgumentError(api, notAnAction(action));
  if (!TYPES.has(type)) {
    if (!type.startsWith(NAMESPACE) && !type.startsWith(KNOWLEDGE_NAMESPACE)) return undefined;
    const suggestion = suggestOption(type, [...TYPE_NAMES]);
    const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
    throw new MemoryArgumentError(
      api,
      `action.type ${quoteText(type)} is not a memory or knowledge action type${hint}; expected ${TYPE_NAMES.join(', ')}`,
    );
  }
  // Every read above and inside is guarded: what the caller's object throws comes out as ours.
  const copy = Object.freeze(copyOf(action as object, type as MemoryAction['type'], api));
  recorded.add(copy);
  return copy;
};
