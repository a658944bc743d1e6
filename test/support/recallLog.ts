/**
 * An event log for the recall tests of the inspector: a fact said first, then chatter past a
 * window of 6 messages, then a question that needs the fact (its last step).
 */
import {
  appendAction,
  assistantMessage,
  createEventLog,
  memoryActions,
  userMessage,
  type EventLog,
} from 'conversation-memory';

/** The fact the last question needs, at position 0. */
export const RECALL_FACT = 'My sister Noor ordered her wedding cake from Belmonte Patisserie.';

/**
 * The log: the fact (dated 2024-03-02 10:15 UTC), a reply, 20 messages of chatter, and the
 * question `Which bakery made the cake for my sister?`; a window of 6 messages.
 */
export const recallLog = (): EventLog => {
  let log = createEventLog({ maxMessages: 6 });
  const add = (message: Parameters<typeof memoryActions.messageAdded>[0]) => {
    log = appendAction(log, memoryActions.messageAdded(message));
  };
  add({ ...userMessage(RECALL_FACT), metadata: { createdAt: '2024-03-02T10:15:00Z' } });
  add(assistantMessage('Congratulations to Noor!'));
  for (let i = 0; i < 20; i++) {
    add(
      i % 2 === 0
        ? userMessage(`Will the train to town ${i} be on time?`)
        : assistantMessage(`Train ${i} runs on time.`),
    );
  }
  add(userMessage('Which bakery made the cake for my sister?'));
  return log;
};
