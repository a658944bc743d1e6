/**
 * A recorded conversation for the inspector's tests: a pinned system message, tool turns, trims by
 * each rule (message limit, token limit, tool-pair boundary, startOn) and a summary.
 */
import {
  appendAction,
  assistantMessage,
  createEventLog,
  type EventLog,
  memoryActions,
  systemMessage,
  toolMessage,
  userMessage,
} from 'conversation-memory';

/** The memory options of {@link recordedLog}. */
export const RECORDED_CONFIG = {
  maxMessages: 5,
  maxTokens: 40,
  tokenizer: 'heuristic',
  toolPairs: 'strict',
  pinSystem: true,
  startOn: 'user',
} as const;

const weather = (id: string, city: string) =>
  assistantMessage(null, [{ id, name: 'get_weather', parameters: { city } }]);

/** The actions of {@link recordedLog}, in order. */
export const recordedActions = () => [
  memoryActions.messageAdded(systemMessage('You are a travel assistant.')),
  memoryActions.messageAdded(userMessage('My name is Alice.')),
  memoryActions.messageAdded(assistantMessage('Hello Alice.')),
  memoryActions.messageAdded(userMessage('Weather in Paris?')),
  memoryActions.messageAdded(weather('c1', 'Paris')),
  memoryActions.messageAdded(toolMessage('Paris: 18°C, cloudy', { toolCallId: 'c1' })),
  memoryActions.messageAdded(assistantMessage('It is 18°C in Paris.')),
  memoryActions.summaryApplied('The user is Alice.'),
  memoryActions.messagesAdded([
    userMessage('And Kyoto?'),
    weather('c2', 'Kyoto'),
    toolMessage('Kyoto: 24°C, sunny', { toolCallId: 'c2' }),
  ]),
  memoryActions.messageAdded(
    userMessage(`Tell me everything about Kyoto: ${'temples, gardens, food, '.repeat(5)}`),
  ),
  memoryActions.messageAdded(assistantMessage('Kyoto has many temples.')),
  memoryActions.messageAdded(userMessage('Weather in Lyon and Nice?')),
  memoryActions.messageAdded(
    assistantMessage(null, [
      { id: 'c3', name: 'get_weather', parameters: { city: 'Lyon' } },
      { id: 'c4', name: 'get_weather', parameters: { city: 'Nice' } },
    ]),
  ),
  memoryActions.messageAdded(toolMessage('Lyon: 15°C', { toolCallId: 'c3' })),
  // c4 is never answered: the group is removed whole when the next message arrives.
  memoryActions.messageAdded(userMessage('Never mind.')),
  memoryActions.messageAdded(userMessage('<img src=x onerror=alert(1)>\u001b[31m')),
];

/** The recorded conversation as an event log (snapshots every 4 actions). */
export const recordedLog = (): EventLog => {
  let log = createEventLog(RECORDED_CONFIG, { snapshotEvery: 4 });
  for (const action of recordedActions()) log = appendAction(log, action);
  return log;
};
