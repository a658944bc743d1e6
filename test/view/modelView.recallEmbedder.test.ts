/**
 * `modelView`'s recall with a registered embedder (issue #32 §2): BM25's best are fused with the
 * embedder's nearest, so a trimmed message that shares no word with the question comes back.
 * A file of its own: registering an embedder changes process-wide state.
 */
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  assistantMessage,
  createEventLog,
  memoryActions,
  modelView,
  userMessage,
  type Message,
  type ViewChange,
} from 'conversation-memory';
import { registerEmbedder } from 'conversation-memory/pruning';

const chatter = (i: number): Message =>
  i % 2 === 0
    ? userMessage(`Question ${i}: will the trains run on time in town ${i} if it rains?`)
    : assistantMessage(`Answer ${i}: the weather looks fine and the trains should run.`);

type Recalled = Extract<ViewChange, { type: 'view/recalled' }>;

describe('modelView recall with an embedder', () => {
  it('with a registered embedder, also finds a message that shares no word with the question', () => {
    // A toy embedder of two concepts (dairy, parties) and one dimension for everything else.
    const DAIRY = ['dairy', 'cheese', 'cream', 'lactose', 'milk'];
    const PARTY = ['party', 'sweets', 'guests'];
    registerEmbedder('recall-test-concepts', (text) => {
      const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
      const has = (list: string[]) => words.filter((w) => list.some((c) => w.startsWith(c))).length;
      return [has(DAIRY), has(PARTY), 0.1];
    });
    const fact = 'Dairy makes me ill, so no cheese or cream for me.';
    const question = 'Which sweets could I bring to the party, given my lactose intolerance?';
    const messages = [
      userMessage(fact),
      ...Array.from({ length: 60 }, (_, i) => chatter(i)),
      userMessage(question),
    ];
    const recalls = (embedder?: string) => {
      let log = createEventLog({
        maxMessages: 40,
        tokenizer: 'o200k_base',
        ...(embedder === undefined ? {} : { embedder }),
      });
      for (const m of messages) log = appendAction(log, memoryActions.messageAdded(m));
      return modelView(log.head, { recall: { source: log, budget: 300 } })
        .changes.filter((c): c is Recalled => c.type === 'view/recalled')
        .map((c) => String(c.message.content));
    };
    // BM25 alone: the fact shares no word with the question.
    expect(recalls().join('\n')).not.toContain(fact);
    expect(recalls('recall-test-concepts').join('\n')).toContain(`User: ${fact}`);
  });
});
