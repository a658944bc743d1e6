/**
 * Recorded conversations for the inspector's tests: one with a pinned system message, tool turns,
 * trims by each rule (message limit, token limit, tool-pair boundary, startOn) and a summary; one
 * that summarizes on trim (held messages, committed chunks) around a pinned system message.
 */
import {
  appendAction,
  assistantMessage,
  createEventLog,
  type EventLog,
  type MemoryAction,
  memoryActions,
  memoryTransition,
  type MessageInput,
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

/** The memory options of {@link summarizedLog}. */
export const SUMMARIZED_CONFIG = {
  maxMessages: 4,
  tokenizer: 'heuristic',
  pinSystem: true,
} as const;

/**
 * A conversation that summarizes on trim, as the agent does: every trim is held
 * (`memory/trimHeld`), then committed in chunks. A system message pinned at #2 stays in the window
 * while #0, #1 and #3 are held around it, so the first chunk covers #0–#3 but only 3 messages
 * (step 11, `commit summary through #3`); the second chunk is added to the summary (step 16); a
 * `setSummary` then replaces it (step 17).
 */
export const summarizedLog = (): EventLog => {
  let log = createEventLog(SUMMARIZED_CONFIG, { snapshotEvery: 4 });
  const record = (action: MemoryAction): void => {
    const { effects } = memoryTransition(log.head, action);
    log = appendAction(log, action);
    for (const effect of effects) {
      if (effect.type === 'memory/trimmed') log = appendAction(log, memoryActions.trimHeld(effect));
    }
  };
  const add = (message: MessageInput) => record(memoryActions.messageAdded(message));
  add(userMessage('Hi, I am Alice.'));
  add(assistantMessage('Hello Alice.'));
  add(systemMessage('Answer in French.'));
  add(userMessage('Plan a trip to Lyon.'));
  add(assistantMessage('Lyon est belle.'));
  add(userMessage('Two days, in May.'));
  add(assistantMessage('Jour 1 : Vieux Lyon.'));
  record(memoryActions.summaryCommitted('Alice plans two days in Lyon in May.', 3));
  add(userMessage('She likes museums.'));
  add(assistantMessage('Musée des Confluences.'));
  record(memoryActions.summaryCommitted('Day 1 is Vieux Lyon.', 5));
  record(memoryActions.summarySet('Alice: Lyon, May, museums.'));
  return log;
};

/** The memory options of {@link viewLog}: the reference policy, which repairs no tool pairs. */
export const VIEW_CONFIG = { maxMessages: 6, tokenizer: 'heuristic' } as const;

/**
 * A conversation whose retained window the model may not receive as it is (reference policy):
 * at step 2 a call not yet answered; at step 5 an orphan tool result (`c9`, answering no call,
 * with hostile text) in the window; a summary from step 6; at step 8 (the last) a trim has taken
 * the orphan's neighbours and the log ends with an unanswered call whose id and tool name are
 * hostile (an ANSI escape, a newline, markup).
 */
export const viewLog = (): EventLog => {
  let log = createEventLog(VIEW_CONFIG, { snapshotEvery: 3 });
  const actions = [
    memoryActions.messageAdded(userMessage('2 + 2?')),
    memoryActions.messageAdded(
      assistantMessage(null, [{ id: 'c1', name: 'calc', parameters: { a: 2, b: 2 } }]),
    ),
    memoryActions.messageAdded(toolMessage('4', { toolCallId: 'c1', toolName: 'calc' })),
    memoryActions.messageAdded(assistantMessage('4')),
    memoryActions.messageAdded(
      toolMessage('\u001b[31mstale 5</script>', { toolCallId: 'c9', toolName: 'calc' }),
    ),
    memoryActions.summaryApplied('The user asks sums.'),
    memoryActions.messageAdded(userMessage('And 3 + 3?')),
    memoryActions.messageAdded(
      assistantMessage(null, [
        { id: 'c2\u001b[31m', name: 'calc\n<b>x</b>', parameters: { a: 3, b: 3 } },
      ]),
    ),
  ];
  for (const action of actions) log = appendAction(log, action);
  return log;
};

/** The memory options of {@link knowledgeLog}. */
export const KNOWLEDGE_CONFIG = { maxMessages: 6, tokenizer: 'heuristic' } as const;

/** A day, in milliseconds. */
const DAY = 86_400_000;

/** The actions of {@link knowledgeLog}, in order (step n is the state after the nth). */
export const knowledgeActions = (): MemoryAction[] => [
  // 1
  memoryActions.messageAdded(userMessage('I am Alice, an engineer at Acme.')),
  // 2: two entities, an attribute
  {
    type: 'knowledge/factsExtracted',
    payload: {
      source: 'entities',
      at: 1000,
      from: 0,
      to: 0,
      entities: [
        { name: 'Alice', type: 'person', attributes: { role: 'engineer' } },
        { name: 'Acme', type: 'organization', attributes: {} },
        { name: 'Eve\u001b[31m</script><b>x</b>', type: 'person', attributes: {} },
      ],
    },
  },
  // 3: a relation
  {
    type: 'knowledge/factsExtracted',
    payload: {
      source: 'relations',
      at: 1000,
      from: 0,
      to: 0,
      triples: [{ subject: 'Alice', relation: 'works_at', object: 'Acme', confidence: 1 }],
    },
  },
  // 4, 5
  memoryActions.messageAdded(assistantMessage('Noted.')),
  memoryActions.messageAdded(userMessage('I moved to Globex as a manager; I know Bob.')),
  // 6: Alice merged by name, her role superseded
  {
    type: 'knowledge/factsExtracted',
    payload: {
      source: 'entities',
      at: 2000,
      from: 1,
      to: 2,
      entities: [{ name: 'alice', type: 'person', attributes: { role: 'manager' } }],
    },
  },
  // 7: works_at Acme superseded by works_at Globex; knows Bob added
  {
    type: 'knowledge/factsExtracted',
    payload: {
      source: 'relations',
      at: 2000,
      from: 1,
      to: 2,
      triples: [
        { subject: 'Alice', relation: 'works_at', object: 'Globex', confidence: 1 },
        { subject: 'Alice', relation: 'knows', object: 'Bob', confidence: 0.8 },
      ],
    },
  },
  // 8, 9: two entries, one for a day
  {
    type: 'knowledge/remembered',
    payload: {
      id: 'k1',
      content: 'Prefers tea',
      category: 'preference',
      importance: 0.8,
      persistent: false,
      ttlDays: null,
      metadata: {},
      at: 3000,
    },
  },
  {
    type: 'knowledge/remembered',
    payload: {
      id: 'k2',
      content: 'Visits Lyon this week',
      category: 'general',
      importance: 0.5,
      persistent: false,
      ttlDays: 1,
      metadata: {},
      at: 3000,
    },
  },
  // 10
  memoryActions.messageAdded(userMessage('Where do I work now?')),
  // 11: two days later, an extraction that finds nothing: k2's day has run out
  {
    type: 'knowledge/factsExtracted',
    payload: { source: 'relations', at: 3000 + 2 * DAY, from: 3, to: 3, triples: [] },
  },
  // 12
  { type: 'knowledge/forgotten', payload: { content: 'Prefers tea', at: 3000 + 2 * DAY } },
  // 13
  { type: 'knowledge/cleared' },
];

/**
 * A conversation whose memory learns facts (knowledge actions in the log): entities and a
 * relation at steps 2–3, Alice's role superseded at step 6, her `works_at` relation superseded
 * (Acme → Globex) at step 7, two entries at 8–9 (one with a TTL of a day that runs out by step
 * 11), an entry forgotten at step 12, everything cleared at step 13. One entity's name is hostile
 * (an ANSI escape and markup).
 */
export const knowledgeLog = (): EventLog => {
  let log = createEventLog(KNOWLEDGE_CONFIG, { snapshotEvery: 4 });
  for (const action of knowledgeActions()) log = appendAction(log, action);
  return log;
};

/** The memory options of {@link maskLog}. */
export const MASK_CONFIG = { maxMessages: 20, tokenizer: 'heuristic', pinSystem: true } as const;

/**
 * A coding agent's conversation for masking (issue #19 §2): a pinned system message, then three
 * user turns that read files; `a.txt` is read twice (`c1`, then `c3`, the same text), `b.txt`
 * once (`c2`); the last turn (`c4`, a hostile id and tool name) is the current one. Step 15 is
 * the last.
 */
export const maskLog = (): EventLog => {
  let log = createEventLog(MASK_CONFIG, { snapshotEvery: 4 });
  const read = (id: string, path: string, text: string, name = 'read_file') => [
    assistantMessage(null, [{ id, name, parameters: { path } }]),
    toolMessage(text, { toolCallId: id, toolName: name }),
  ];
  for (const message of [
    systemMessage('You are a coding agent.'),
    userMessage('Fix the bug in a.txt'),
    ...read('c1', 'a.txt', 'alpha '.repeat(20)),
    assistantMessage('Fixed a.txt.'),
    userMessage('Now compare with b.txt'),
    ...read('c2', 'b.txt', 'bravo '.repeat(20)),
    ...read('c3', 'a.txt', 'alpha '.repeat(20)),
    assistantMessage('They differ.'),
    userMessage('And c.txt?'),
    ...read('c4\u001b[31m', 'c.txt', 'charlie', 'read\n<b>x</b>'),
  ]) {
    log = appendAction(log, memoryActions.messageAdded(message));
  }
  return log;
};

/**
 * A conversation under `prune: 'redundant'` whose last step removes a re-read file's first read
 * (call and result) as redundant: positions 1 and 2 repeat 4 and 5.
 */
export const redundantLog = (): EventLog => {
  let log = createEventLog({ maxMessages: 5, tokenizer: 'heuristic', prune: 'redundant' });
  const read = (id: string) => [
    assistantMessage(null, [{ id, name: 'read_file', parameters: { path: 'a.txt' } }]),
    toolMessage('alpha beta gamma delta', { toolCallId: id, toolName: 'read_file' }),
  ];
  for (const message of [
    userMessage('read a.txt'),
    ...read('c1'),
    userMessage('read it again'),
    ...read('c2'),
  ]) {
    log = appendAction(log, memoryActions.messageAdded(message));
  }
  return log;
};

/**
 * A log under `trimTo: 0.5` (issue #29): six user messages into a window of four, so the fifth
 * add is one step down to two messages (three removed in one effect) and the sixth adds one.
 */
export const steppedLog = (): EventLog => {
  let log = createEventLog({ maxMessages: 4, tokenizer: 'heuristic', trimTo: 0.5 });
  for (let k = 0; k < 6; k++) {
    log = appendAction(log, memoryActions.messageAdded(userMessage(`question ${k}`)));
  }
  return log;
};
