import { either as E } from 'fp-ts';
import { decodeEnvelope } from '../../codec/envelope';
import { MemoryDecodeError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { errorText } from '../../util/errorText';
import { isPlainObject } from '../../util/isPlainObject';
import { DEFAULT_SNAPSHOT_EVERY, fromState } from '../../log/eventLog';
import type { InputKind, Inspected, SessionInfo } from './types';

const API = 'inspect';

const fail = (problems: readonly string[]): E.Either<MemoryDecodeError, never> =>
  E.left(new MemoryDecodeError(API, problems));

/** The same failure with every problem's path under `memory` (a session file's memory). */
const underMemory = (error: MemoryDecodeError): E.Either<MemoryDecodeError, never> =>
  E.left(
    new MemoryDecodeError(
      API,
      error.problems.map((problem) =>
        problem.startsWith('(root)')
          ? `memory${problem.slice('(root)'.length)}`
          : `memory.${problem}`,
      ),
      { kind: error.kind, problemCount: error.problemCount, countComplete: error.countComplete },
    ),
  );

const own = (object: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(object, key) ? object[key] : undefined;

/** What a value decoded by `decodeEnvelope` was, told by its keys. */
const kindOf = (input: Record<string, unknown>, decoded: 'state' | 'log'): InputKind => {
  if (decoded === 'log') return 'log';
  if (own(input, 'schema') === 'conversation-memory') return 'state';
  return own(input, 'max_messages') !== undefined ? 'dict' : 'rawState';
};

const decodeMemory = (
  input: unknown,
  session: SessionInfo | null,
): E.Either<MemoryDecodeError, Inspected> => {
  const decoded = decodeEnvelope(input);
  if (E.isLeft(decoded)) return session === null ? E.left(decoded.left) : underMemory(decoded.left);
  const value = decoded.right;
  const log = value.kind === 'log' ? value.log : fromState(value.state, DEFAULT_SNAPSHOT_EVERY);
  const kind = session !== null ? 'session' : kindOf(input as Record<string, unknown>, value.kind);
  return E.right({ kind, log, session });
};

/** A session file's header (`session_id`, `namespace`, timestamps, `revision`), checked. */
const readSession = (input: Record<string, unknown>): E.Either<MemoryDecodeError, SessionInfo> => {
  const problems: string[] = [];
  const sessionId = own(input, 'session_id');
  const namespace = own(input, 'namespace') ?? null;
  const revision = own(input, 'revision') ?? 1;
  if (typeof sessionId !== 'string' || sessionId === '') {
    problems.push(`session_id: expected a non-empty string, got ${describeValue(sessionId)}`);
  }
  if (namespace !== null && typeof namespace !== 'string') {
    problems.push(`namespace: expected a string or null, got ${describeValue(namespace)}`);
  }
  const time = (key: string): number => {
    const value = own(input, key);
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    problems.push(`${key}: expected Unix seconds (a finite number), got ${describeValue(value)}`);
    return 0;
  };
  const createdAt = time('created_at');
  const updatedAt = time('updated_at');
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 1) {
    problems.push(`revision: expected an integer ≥ 1, got ${describeValue(revision)}`);
  }
  if (problems.length > 0) return fail(problems);
  return E.right({
    sessionId: sessionId as string,
    namespace: namespace as string | null,
    createdAt,
    updatedAt,
    revision: revision as number,
  });
};

/**
 * Reads a parsed input for inspection, as an event log: a log in our envelope as it is; a state
 * (envelope, raw state, reference `toDict` memory, or the memory of a JSON file store's session
 * file) as a log of no actions, whose only step is 0. Never throws.
 *
 * @param input - parsed JSON
 * @returns the log and what the input was, or a `MemoryDecodeError` whose problems name their
 *   path in the input (`messages[3].role: …`, `memory.max_messages: …` in a session file), with
 *   `kind: 'version'` for an envelope of a newer version
 * @example
 * ```ts
 * const read = readInput(JSON.parse(text));
 * if (isRight(read)) timelineRows(read.right.log);
 * ```
 */
export const readInput = (input: unknown): E.Either<MemoryDecodeError, Inspected> => {
  try {
    if (isPlainObject(input) && Object.hasOwn(input, 'session_id')) {
      const session = readSession(input);
      if (E.isLeft(session)) return session;
      if (!Object.hasOwn(input, 'memory')) return fail(['memory: missing']);
      return decodeMemory(input['memory'], session.right);
    }
    return decodeMemory(input, null);
  } catch (error) {
    return fail([`(root): could not read the input: ${errorText(error)}`]);
  }
};

/**
 * Parses a file's text, then reads it with {@link readInput}. Never throws: text that is not JSON
 * (a truncated file) gives a `(root): not JSON …` problem.
 *
 * @param text - the file's text
 * @returns as {@link readInput}
 * @example
 * ```ts
 * parseInput('{"schema": "conversation-memory"'); // Left: (root): not JSON (truncated?): …
 * ```
 */
export const parseInput = (text: string): E.Either<MemoryDecodeError, Inspected> => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail([`(root): not JSON (truncated?): ${errorText(error)}`]);
  }
  return readInput(value);
};
