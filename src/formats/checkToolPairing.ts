import type { Message, ToolCall } from '../model/message';
import type { TranscriptProvider, TranscriptViolation } from './transcriptRule';
import {
  callWithoutId,
  callWithoutResult,
  duplicateCallId,
  duplicateResult,
  resultWithoutCall,
  resultWithoutId,
} from './transcriptTexts';

/** An assistant tool-call message whose results are being read: each call id → its result. */
interface OpenGroup {
  readonly index: number;
  readonly results: Map<string, number | undefined>;
}

const hasId = (value: string | undefined): value is string =>
  typeof value === 'string' && value !== '';

/**
 * The tool-call rules of `validateTranscript`, in one pass: every call has an id unique in the
 * transcript, every tool result names a call of the assistant message it follows (only tool
 * results between them; for Anthropic, system messages are skipped as if lifted out), answers it
 * once, and every call is answered before the next message that is not a tool result, or before
 * the end: both providers refuse a request that ends on calls without results, so the group still
 * open at the end is checked like any other (a turn whose tools are still running is not a request
 * yet; send it once its results are in, or through `modelView`, which answers what is missing).
 *
 * @internal
 */
export const checkToolPairing = (
  messages: readonly Message[],
  provider: TranscriptProvider,
): TranscriptViolation[] => {
  const violations: TranscriptViolation[] = [];
  const firstUse = new Map<string, number>();
  let group: OpenGroup | undefined;

  const open = (index: number, calls: readonly ToolCall[]): OpenGroup => {
    const results = new Map<string, number | undefined>();
    calls.forEach((call, position) => {
      const id = call.id;
      if (!hasId(id)) {
        const message = callWithoutId(provider, index, position);
        violations.push({ index, rule: 'tool-call-without-id', message });
        return;
      }
      const first = firstUse.get(id);
      if (first !== undefined) {
        const message = duplicateCallId(provider, index, id, first);
        violations.push({ index, rule: 'duplicate-tool-call-id', message });
      } else {
        firstUse.set(id, index);
      }
      results.set(id, undefined);
    });
    return { index, results };
  };

  const close = (closing: OpenGroup, next: number | undefined): void => {
    const missing = [...closing.results].filter(([, at]) => at === undefined).map(([id]) => id);
    if (missing.length === 0) return;
    const message = callWithoutResult(provider, closing.index, missing, next);
    violations.push({ index: closing.index, rule: 'tool-call-without-result', message });
  };

  const answer = (index: number, id: string | undefined): void => {
    if (!hasId(id)) {
      violations.push({
        index,
        rule: 'missing-tool-call-id',
        message: resultWithoutId(provider, index),
      });
    } else if (group === undefined || !group.results.has(id)) {
      const message = resultWithoutCall(provider, index, id, group?.index);
      violations.push({ index, rule: 'tool-result-without-call', message });
    } else {
      const first = group.results.get(id);
      if (first === undefined) {
        group.results.set(id, index);
      } else {
        const message = duplicateResult(provider, index, id, first);
        violations.push({ index, rule: 'duplicate-tool-result', message });
      }
    }
  };

  messages.forEach((message, index) => {
    if (message.role === 'system' && provider === 'anthropic') return;
    if (message.role === 'tool') return answer(index, message.toolCallId);
    if (group !== undefined) close(group, index);
    group = undefined;
    const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
    if (calls.length > 0) group = open(index, calls);
  });
  if (group !== undefined) close(group, undefined);
  return violations;
};
