import type { KnowledgeState } from '../model/knowledge';
import type { Message } from '../model/message';
import { MAX_PENDING_MESSAGES, MAX_SUMMARY_COVERAGE } from '../model/state';
import type { SummaryCoverage } from '../model/summaryCoverage';
import { cursorProblems } from './knowledgeField';
import { EXTENSION_KEY, type PersistedMemory } from './persisted';

/**
 * The parts of a state that only our extension key can hold, checked against each other.
 *
 * @internal
 */
export interface ExtensionState {
  readonly positions: readonly number[];
  readonly nextPosition: number;
  readonly pendingPositions: readonly number[];
  readonly pendingMessages: readonly Message[];
  readonly summaryCoverage: readonly SummaryCoverage[];
  /** The conversation's knowledge, when the file has some. */
  readonly knowledge: KnowledgeState | undefined;
}

const P = EXTENSION_KEY;

/** Problems of a list of positions that must rise strictly; `at(i)` names item `i`. */
const risingProblems = (
  positions: readonly number[],
  at: (i: number) => string,
  problems: string[],
): void => {
  for (let i = 1; i < positions.length; i++) {
    const before = positions[i - 1] as number;
    const position = positions[i] as number;
    if (position <= before) {
      problems.push(
        `${at(i)}: must be greater than the position before it (${before}), received ${position}`,
      );
    }
  }
};

/**
 * Reads positions, held messages and coverage from a decoded file, with the defaults a reference
 * file implies (positions 0, 1, 2, …, nothing held, no coverage), and checks that they agree:
 * one position per message, rising strictly; held positions rising and distinct from the
 * window's; `next_position` above every position; each coverage record's `from ≤ to` and
 * `count ≤ to − from + 1`; the knowledge's cursors (`knowledge`, decoded already) at most
 * `next_position`. Problems name the path and the value.
 *
 * @internal
 */
export const readExtensionState = (
  data: PersistedMemory,
  messageCount: number,
  toMessage: (raw: NonNullable<PersistedMemory['messages']>[number]) => Message,
  knowledge: KnowledgeState | undefined,
): { ok: true; value: ExtensionState } | { ok: false; problems: string[] } => {
  const extension = data[EXTENSION_KEY];
  const problems: string[] = [];
  let positions: readonly number[];
  if (extension?.positions === undefined) {
    positions = Array.from({ length: messageCount }, (_, i) => i);
  } else {
    positions = extension.positions;
    if (positions.length !== messageCount) {
      problems.push(
        `${P}.positions: expected one position per message (${messageCount}), received ${positions.length}`,
      );
    }
    risingProblems(positions, (i) => `${P}.positions[${i}]`, problems);
  }
  const pending = extension?.pending ?? [];
  if (pending.length > MAX_PENDING_MESSAGES) {
    problems.push(
      `${P}.pending: at most ${MAX_PENDING_MESSAGES} held messages, received ${pending.length}`,
    );
  }
  if ((extension?.summary_coverage?.length ?? 0) > MAX_SUMMARY_COVERAGE) {
    problems.push(
      `${P}.summary_coverage: at most ${MAX_SUMMARY_COVERAGE} records, received ${extension?.summary_coverage?.length}`,
    );
  }
  const pendingPositions = pending.map((entry) => entry.position);
  risingProblems(pendingPositions, (i) => `${P}.pending[${i}].position`, problems);
  const inWindow = new Set(positions);
  pendingPositions.forEach((position, i) => {
    if (inWindow.has(position)) {
      problems.push(
        `${P}.pending[${i}].position: ${position} is also the position of a message in the window`,
      );
    }
  });
  const highest = Math.max(-1, ...positions.slice(-1), ...pendingPositions.slice(-1));
  // Without next_position, it follows every position the file names, coverage included.
  let covered = -1;
  for (const record of extension?.summary_coverage ?? []) covered = Math.max(covered, record.to);
  const nextPosition = extension?.next_position ?? Math.max(highest, covered) + 1;
  if (nextPosition <= highest) {
    problems.push(
      `${P}.next_position: must be greater than every position held (${highest}), received ${nextPosition}`,
    );
  }
  const summaryCoverage = (extension?.summary_coverage ?? []).map((record) =>
    Object.freeze(record),
  );
  summaryCoverage.forEach((record, i) => {
    if (record.from > record.to) {
      problems.push(
        `${P}.summary_coverage[${i}]: from (${record.from}) must not be greater than to (${record.to})`,
      );
    } else if (record.to >= nextPosition) {
      problems.push(
        `${P}.summary_coverage[${i}].to: must be below next_position (${nextPosition}), received ${record.to}`,
      );
    } else if (record.count > record.to - record.from + 1) {
      problems.push(
        `${P}.summary_coverage[${i}].count: at most ${record.to - record.from + 1} messages lie from ${record.from} to ${record.to}, received ${record.count}`,
      );
    }
  });
  if (knowledge !== undefined) {
    problems.push(...cursorProblems(knowledge, nextPosition, `${P}.knowledge`));
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      positions,
      nextPosition,
      pendingPositions: Object.freeze(pendingPositions),
      pendingMessages: Object.freeze(pending.map((entry) => toMessage(entry.message))),
      summaryCoverage: Object.freeze(summaryCoverage),
      knowledge,
    },
  };
};
