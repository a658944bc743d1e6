import { decodeEnvelope, MemoryDecodeError, type MemoryState } from 'conversation-memory';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (record: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * The memory inside what `persist` with its default JSON storage wrote before this adapter:
 * `{ state: { memory, … }, version }`, or `undefined` for any other form.
 */
const persistWrapped = (json: unknown): { readonly memory: unknown } | undefined => {
  if (!isRecord(json) || own(json, 'schema') !== undefined) return undefined;
  const state = own(json, 'state');
  return isRecord(state) && Object.hasOwn(state, 'memory')
    ? { memory: own(state, 'memory') }
    : undefined;
};

/** A problem's path moved under `prefix` (`(root): …` becomes `state.memory: …`). */
const under = (prefix: string, problem: string): string => {
  if (prefix === '') return problem;
  return problem.startsWith('(root)')
    ? `${prefix.slice(0, -1)}${problem.slice(6)}`
    : prefix + problem;
};

/**
 * Reads the memory stored under `name`: the string is parsed, then decoded and migrated with
 * `decodeEnvelope` (an envelope, a bare `toDict` file, a raw 0.1.0 state, or any of these under
 * `state.memory` as `persist`'s own JSON storage wrote it).
 *
 * @throws MemoryDecodeError (its `kind` is `decodeEnvelope`'s: `'data'`, `'version'` or
 *   `'tokenizer'`) naming the key and the path of each problem
 * @example
 * ```ts
 * readStoredMemory('chat', JSON.stringify(encodeEnvelope(createMemory()))); // the state
 * ```
 */
export const readStoredMemory = (name: string, stored: unknown): MemoryState => {
  const api = `memoryPersistStorage(${JSON.stringify(name)})`;
  if (typeof stored !== 'string') {
    throw new MemoryDecodeError(api, [`(root): expected the stored string, got ${typeof stored}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MemoryDecodeError(api, [`(root): the stored string is not JSON (${reason})`]);
  }
  const wrapped = persistWrapped(json);
  const prefix = wrapped === undefined ? '' : 'state.memory.';
  const decoded = decodeEnvelope(wrapped === undefined ? json : wrapped.memory);
  if (decoded._tag === 'Left') {
    const { problems, kind, problemCount, countComplete } = decoded.left;
    throw new MemoryDecodeError(
      api,
      problems.map((problem) => under(prefix, problem)),
      { kind, problemCount, countComplete },
    );
  }
  if (decoded.right.kind !== 'state') {
    throw new MemoryDecodeError(api, [
      `${prefix}kind: expected "state" (a store's memory), got "log" (an event log)`,
    ]);
  }
  return decoded.right.state;
};
