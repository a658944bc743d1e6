import { getPositions } from '../../core/selectors';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { type EventLog, fork, seek } from '../../log/eventLog';
import type { Message } from '../../model/message';
import type { MemoryState } from '../../model/state';
import { modelView } from '../../view/modelView';
import type { MaskToolResults, ViewChange, ViewTarget } from '../../view/viewTypes';
import { knowledgeTimes } from './knowledgeClock';
import { stepBlocks } from './stepKnowledge';
import type { StepModelView, ViewEntry } from './types';

/**
 * The targets the inspector shows a model view for, its default first (the CLI's `--target` and
 * the page's selector offer these).
 *
 * @example
 * ```ts
 * VIEW_TARGETS; // ['openai', 'anthropic', 'none']
 * ```
 */
export const VIEW_TARGETS: readonly ViewTarget[] = ['openai', 'anthropic', 'none'];

/**
 * The model view of a state as the inspector shows it: `modelView(state, { target, knowledge,
 * maskToolResults })`, each message tagged with where it comes from (the knowledge blocks, the
 * injected summary, a window message with its position and index, a window tool result sent
 * masked, an answer the view made for an unanswered call, or the recall block). Memory is not
 * changed.
 *
 * @param state - the state after a step
 * @param target - whose rules the view meets
 * @param knowledge - the knowledge blocks' text (see `stepBlocks`); `''` (the default): none
 * @param mask - `maskToolResults` for the view (default: no masking)
 * @param recall - recall for the view: the trimmed messages' source and the block's budget
 * @returns the view's entries and changes
 * @example
 * ```ts
 * const view = stepModelView(seek(log, 7), 'openai', '[Known Entities]\n- Alice [person]');
 * view.entries[0]?.kind; // 'knowledge'
 * ```
 */
export const stepModelView = (
  state: MemoryState,
  target: ViewTarget,
  knowledge = '',
  mask?: MaskToolResults,
  recall?: StepRecall,
): StepModelView => {
  const view = modelView(state, {
    target,
    knowledge,
    ...(mask === undefined ? {} : { maskToolResults: mask }),
    ...(recall === undefined ? {} : { recall: { source: recall.source, budget: recall.budget } }),
  });
  const block = view.changes.find((change) => change.type === 'view/recalled')?.message;
  // The view sends non-blank blocks as its first message, before the summary.
  let blocksLeft = knowledge.trim() === '' ? 0 : 1;
  const positions = getPositions(state);
  // The view keeps the window's message objects: find each one's index by identity (a message
  // object held twice is matched in window order).
  const indices = new Map<Message, number[]>();
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i] as Message;
    const list = indices.get(message);
    if (list === undefined) indices.set(message, [i]);
    else list.push(i);
  }
  const answers = new Map<Message, { id: string; position: number | null }>();
  const masked = new Map<Message, Extract<ViewChange, { type: 'view/masked' }>>();
  for (const change of view.changes) {
    if (change.type === 'view/answered') {
      answers.set(change.message, { id: change.toolCallId, position: change.position });
    } else if (change.type === 'view/masked') masked.set(change.message, change);
  }
  const entries = view.messages.map((message): ViewEntry => {
    if (message === block) {
      return { kind: 'recalled', message, position: null, index: null, answers: null };
    }
    const mask = masked.get(message);
    if (mask !== undefined) {
      return {
        kind: 'masked',
        message,
        position: mask.position,
        index: mask.index,
        answers: null,
      };
    }
    const answer = answers.get(message);
    if (answer !== undefined) {
      return {
        kind: 'answer',
        message,
        position: answer.position,
        index: null,
        answers: answer.id,
      };
    }
    const index = indices.get(message)?.pop();
    if (index === undefined) {
      // Neither an answer nor a window message: the blocks, then the injected summary.
      const kind = blocksLeft > 0 ? 'knowledge' : 'summary';
      blocksLeft = 0;
      return { kind, message, position: null, index: null, answers: null };
    }
    return {
      kind: 'message',
      message,
      position: positions[index] as number,
      index,
      answers: null,
    };
  });
  return {
    target: view.target,
    entries,
    changes: view.changes,
    ...(mask === undefined ? {} : { mask }),
  };
};

/**
 * The model view at step `n` of a log (the state `seek(log, n)` gives), for `target`, with the
 * knowledge blocks the model receives at that step first (see `stepKnowledge`), and stale tool
 * output masked with `mask`.
 *
 * @param log - the event log
 * @param n - the step, from 0 (the initial state) to `log.length`
 * @param target - whose rules the view meets
 * @param mask - `maskToolResults` for the view (default: no masking)
 * @param recallBudget - with a budget (tokens), the view recalls what the log trimmed before the
 *   step (`modelView`'s `recall`); default: no recall
 * @returns the view's entries and changes
 * @throws MemoryArgumentError (a `RangeError`) when `n` is outside `0..log.length`
 * @example
 * ```ts
 * modelViewAt(log, 12, 'anthropic').changes; // [{ type: 'view/omitted', reason: 'tool-result-without-call', … }]
 * ```
 */
export const modelViewAt = (
  log: EventLog,
  n: number,
  target: ViewTarget,
  mask?: MaskToolResults,
  recallBudget?: number,
): StepModelView => {
  if (!Number.isInteger(n) || n < 0 || n > log.length) {
    throw new MemoryArgumentError(
      'modelViewAt',
      `n must be an integer from 0 to ${log.length} (the log's length), received ${describeValue(n)}`,
    );
  }
  const state = seek(log, n);
  const blocks =
    state.knowledge === undefined ? '' : stepBlocks(state, knowledgeTimes(log)[n] as number).text;
  const recall =
    recallBudget === undefined ? undefined : { source: fork(log, n), budget: recallBudget };
  return stepModelView(state, target, blocks, mask, recall);
};

/**
 * Recall for a step's model view: where the trimmed messages are (the log up to the step) and the
 * recall block's budget in tokens.
 *
 * @example
 * ```ts
 * const recall: StepRecall = { source: fork(log, 12), budget: 500 };
 * ```
 */
export interface StepRecall {
  readonly source: EventLog;
  readonly budget: number;
}
