import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  createMemory,
  decodeState,
  fromDict,
  getHistory,
  getPositions,
  planTrim,
  reconfigure,
  toDict,
  type MemoryEffect,
  type MemoryState,
  type MessageInput,
  type TrimmedEffect,
} from 'conversation-memory';
import { embeddingText, registerEmbedder } from 'conversation-memory/pruning';
import { readFileSync } from 'node:fs';
import { STOP_WORDS } from '../../src/similarity/stopWords';
import { valuesOf } from '../../src/similarity/valueGuard';
import { plainJaccard } from './plainTwin';

const user = (content: string): MessageInput => ({ role: 'user', content });
const assistant = (content: string): MessageInput => ({ role: 'assistant', content });

const run = (state: MemoryState, inputs: readonly MessageInput[]) => {
  const effects: MemoryEffect[] = [];
  for (const input of inputs) {
    const t = addMessage(state, input);
    effects.push(...t.effects);
    state = t.state;
  }
  const trims = effects.filter(
    (e): e is Extract<TrimmedEffect, { reason: 'enforce_limits' }> =>
      e.type === 'memory/trimmed' && e.reason === 'enforce_limits',
  );
  return { state, trims };
};

const redundant = (options: Record<string, unknown> = {}) =>
  createMemory({ maxMessages: 4, tokenizer: 'heuristic', prune: 'redundant', ...options });

const readFile = (id: string, path: string, content: string): MessageInput[] => [
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id, name: 'read_file', parameters: { path } }],
  },
  { role: 'tool', content, toolCallId: id, toolName: 'read_file' },
];

describe("prune: 'redundant'", () => {
  it('removes the older of two exact repeats first, naming the newer twin, then falls back to the oldest', () => {
    const { state, trims } = run(redundant(), [
      user('please summarise the design document for me'),
      assistant('the design keeps state immutable and effects as data'),
      user('what does the reducer return'),
      assistant('the design keeps state immutable and effects as data'),
      user('and the effects'),
    ]);
    expect(trims).toHaveLength(1);
    expect(trims[0]?.positions).toEqual([1]);
    expect(trims[0]?.rules).toEqual(['redundant']);
    expect(trims[0]?.duplicateOf).toEqual([3]);
    expect(trims[0]?.breakdown).toEqual({
      messageLimit: 0,
      tokenLimit: 0,
      toolPairBoundary: 0,
      startOn: 0,
      redundant: 1,
    });
    expect(getPositions(state)).toEqual([0, 2, 3, 4]);
    // No repeat left: the oldest goes, as under 'oldest' (no duplicateOf on that effect).
    const next = addMessage(state, user('thanks for the help'));
    const trim = next.effects[0] as Extract<TrimmedEffect, { reason: 'enforce_limits' }>;
    expect(trim.rules).toEqual(['messageLimit']);
    expect(trim.positions).toEqual([0]);
    expect(trim).not.toHaveProperty('duplicateOf');
    expect(trim.breakdown).not.toHaveProperty('redundant');
  });

  it('keeps a near twin that changes a value: numbers, times, names, dates, negations, any content word (the value guard)', () => {
    const pairs: [string, string][] = [
      [
        'my flight is at 9:10 tomorrow morning from the main airport',
        'my flight is at 9:40 tomorrow morning from the main airport',
      ],
      [
        'the meeting with the whole team is moved to Paris next week',
        'the meeting with the whole team is moved to Berlin next week',
      ],
      [
        'the release of the new version is planned for march this year',
        'the release of the new version is planned for april this year',
      ],
      [
        'the build on the main branch is ready for the release today',
        "the build on the main branch isn't ready for the release today",
      ],
      [
        'set the retry budget of the worker pool to "fast" please',
        'set the retry budget of the worker pool to "slow" please',
      ],
      // Any content word: a lower-case one replaced, added, dropped or moved, a pronoun, a
      // preposition, a conjunction, a verb's tense.
      [
        'please book the blue room for the whole team on the second floor of the hotel',
        'please book the green room for the whole team on the second floor of the hotel',
      ],
      [
        'please book the blue room for the whole team on the second floor of the hotel',
        'please book the blue room for the whole team on the second floor of the old hotel',
      ],
      [
        'please book the large blue room for the whole team on the second floor of the hotel',
        'please book the large room for the whole team on the second floor of the hotel',
      ],
      [
        'please book the blue room and the green hall for the whole team on the second floor',
        'please book the green room and the blue hall for the whole team on the second floor',
      ],
      [
        'send the signed contract and the invoice to me before the end of the week please',
        'send the signed contract and the invoice to him before the end of the week please',
      ],
      [
        'move the whole database from staging to production before the end of the day',
        'move the whole database to staging from production before the end of the day',
      ],
      [
        'keep the logs and the metrics of the worker pool for the whole quarter please',
        'keep the logs or the metrics of the worker pool for the whole quarter please',
      ],
      [
        'the server in the basement of the main office is down for the whole afternoon',
        'the server in the basement of the main office was down for the whole afternoon',
      ],
    ];
    for (const [older, newer] of pairs) {
      const { trims } = run(redundant({ maxMessages: 2, pruneThreshold: 0.5 }), [
        user(older),
        user(newer),
        user('one more message that is unrelated to both'),
      ]);
      expect(trims[0]?.rules, `${older} → ${newer}`).toEqual(['messageLimit']);
    }
    // The same near twin without a changed value is redundant at that threshold.
    const { trims } = run(redundant({ maxMessages: 2, pruneThreshold: 0.5 }), [
      user('my flight is at 9:10 tomorrow morning from the main airport'),
      user('my flight is at 9:10 tomorrow morning from the main airport please'),
      user('one more message that is unrelated to both'),
    ]);
    expect(trims[0]?.rules).toEqual(['redundant']);
  });

  it('keeps a 70-word message whose newer twin changes one lower-case word, at the default threshold', () => {
    const note = (colour: string) =>
      'for the offsite next month we need a quiet space for twenty people, with a ' +
      `projector and a whiteboard, so please book the ${colour} room on the third floor for the ` +
      'whole afternoon, order coffee and sandwiches for the break, and send the invitation to ' +
      'everyone on the platform team and the two new hires, with the agenda and a ' +
      'short note on how to get there from the station';
    expect(note('blue').split(' ')).toHaveLength(70);
    // Similar enough to be twins (65 of 71 shingles shared, 0.915 >= 0.9): only the guard keeps
    // the older one.
    expect(plainJaccard(note('blue'), note('green'))).toBeGreaterThanOrEqual(0.9);
    const { state, trims } = run(redundant({ maxMessages: 3 }), [
      user('hello there'),
      user(note('blue')),
      user(note('green')),
      user('thanks'),
    ]);
    expect(trims[0]?.rules).toEqual(['messageLimit']);
    expect(getHistory(state).map((m) => m.content)).toEqual([
      note('blue'),
      note('green'),
      'thanks',
    ]);
  });

  it('reads values as documented', () => {
    expect(valuesOf('My flight is at 9:10 on Friday')).toEqual([
      '#9:10',
      'Friday',
      'My',
      'cal:friday',
      'words:my flight is at 9 10 on friday',
    ]);
    expect(valuesOf("it isn't ready, never")).toEqual(['not', 'not', 'words:it isn t ready never']);
    expect(valuesOf('use `npm ci` on 2026-12-01')).toEqual([
      '"npm ci',
      '#2026-12-01',
      'words:use npm ci on 2026 12 01',
    ]);
    // Stop words, spacing and punctuation state nothing.
    expect(valuesOf('ok so please book the blue room, thanks')).toEqual(['words:book blue room']);
    expect(valuesOf('book  a blue\nroom!')).toEqual(['words:book blue room']);
    expect(valuesOf('hello, thank you')).toEqual(['words:you']);
    expect(valuesOf('oh, well, the end')).toEqual(['words:end']);
    expect(valuesOf('ok thanks')).toEqual([]);
  });

  it('lists the stop words docs/pruning.md lists', () => {
    const guide = readFileSync(new URL('../../docs/pruning.md', import.meta.url), 'utf8');
    const line = guide.split('\n\n').find((paragraph) => paragraph.startsWith('**Stop words**'));
    expect(line, 'docs/pruning.md has a paragraph starting **Stop words**').toBeDefined();
    const listed = [...(line as string).matchAll(/`([a-z]+)`/g)].map((match) => match[1]);
    expect(listed).toEqual(STOP_WORDS);
  });

  it('removes a near duplicate above the threshold, and keeps it at pruneThreshold 1', () => {
    const long = (word: string) =>
      `the reducer returns a new state and a list of effects that say what was trimmed and why, ${word} nothing is mutated and every effect is plain data for the devtools`;
    const inputs = [
      user(long('so')),
      user(long('well')),
      user('unrelated'),
      user('another one'),
      user('last'),
    ];
    // One stop word of 30 changed: 3 of ~31 shingles differ, a Jaccard similarity of about 0.82.
    expect(run(redundant({ pruneThreshold: 0.8 }), inputs).trims[0]?.rules).toEqual(['redundant']);
    expect(run(redundant(), inputs).trims[0]?.rules).toEqual(['messageLimit']);
    expect(run(redundant({ pruneThreshold: 1 }), inputs).trims[0]?.rules).toEqual(['messageLimit']);
  });

  it('removes a repeated tool call and its result as one group, each naming its twin', () => {
    const { state, trims } = run(redundant({ maxMessages: 5 }), [
      user('open the config'),
      ...readFile('call_1', 'a.json', '{"limit": 20}'),
      user('open it again'),
      ...readFile('call_2', 'a.json', '{"limit": 20}'),
    ]);
    expect(trims).toHaveLength(1);
    expect(trims[0]?.positions).toEqual([1, 2]);
    expect(trims[0]?.rules).toEqual(['redundant', 'redundant']);
    expect(trims[0]?.duplicateOf).toEqual([4, 5]);
    expect(getHistory(state).map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool']);
  });

  it('keeps a tool result whose call differs (another file), or whose content changed a value', () => {
    const other = run(redundant({ maxMessages: 5 }), [
      user('open the config'),
      ...readFile('call_1', 'a.json', '{"limit": 20}'),
      user('open the other one'),
      ...readFile('call_2', 'b.json', '{"limit": 20}'),
    ]);
    expect(other.trims[0]?.rules).not.toContain('redundant');
    const changed = run(redundant({ maxMessages: 5 }), [
      user('open the config'),
      ...readFile('call_1', 'a.json', '{"limit": 20}'),
      user('open it again'),
      ...readFile('call_2', 'a.json', '{"limit": 30}'),
    ]);
    expect(changed.trims[0]?.rules).not.toContain('redundant');
  });

  it('follows a tool call id reused across turns to its newest call, carried or rebuilt alike', () => {
    const call = (id: string, path: string): MessageInput => ({
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name: 'read_file', parameters: { path } }],
    });
    const result = (id: string, content: string): MessageInput => ({
      role: 'tool',
      content,
      toolCallId: id,
      toolName: 'read_file',
    });
    let state = redundant({ maxMessages: 5, toolPairs: 'strict' });
    // call_0 answers a.txt, then (after a.txt's group left) b.txt; then b.txt again as call_9.
    for (const input of [
      call('call_0', 'a.txt'),
      result('call_0', 'alpha beta'),
      user('next one'),
      user('x'),
      user('y'),
      call('call_0', 'b.txt'),
      result('call_0', 'gamma delta'),
      user('and again'),
      call('call_9', 'b.txt'),
    ]) {
      state = addMessage(state, input).state;
    }
    const last = result('call_9', 'gamma delta');
    const carried = addMessage(state, last);
    const decoded = fromDict(JSON.parse(JSON.stringify(toDict(state))));
    if (decoded._tag === 'Left') throw decoded.left;
    const fresh = addMessage(decoded.right, last);
    const trimOf = (t: typeof carried) =>
      t.effects.map((e) =>
        e.type === 'memory/trimmed' && e.reason === 'enforce_limits' ? [e.positions, e.rules] : [],
      );
    expect(trimOf(carried)).toEqual([
      [
        [5, 6],
        ['redundant', 'redundant'],
      ],
    ]);
    expect(trimOf(fresh)).toEqual(trimOf(carried));
  });

  it('never splits a group: a call whose two results are not both repeated stays whole', () => {
    const call = (id: string, second: string): MessageInput[] => [
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: `${id}a`, name: 'read_file', parameters: { path: 'a' } },
          { id: `${id}b`, name: 'read_file', parameters: { path: 'b' } },
        ],
      },
      { role: 'tool', content: 'alpha beta gamma', toolCallId: `${id}a`, toolName: 'read_file' },
      { role: 'tool', content: second, toolCallId: `${id}b`, toolName: 'read_file' },
    ];
    const { trims } = run(redundant({ maxMessages: 7, toolPairs: 'strict' }), [
      user('read both'),
      ...call('x', 'delta omega kappa'),
      user('read both again'),
      ...call('y', 'sigma zeta theta'),
    ]);
    // Under 'strict' the front group leaves whole by the limit, not as redundant.
    expect(trims[0]?.rules).toEqual(['messageLimit']);
    expect(trims[0]?.positions).toEqual([0]);
  });

  it('never removes a pinned system message, nor a repeat inside the newest turn', () => {
    const pinned = run(redundant({ maxMessages: 3, pinSystem: true }), [
      { role: 'system', content: 'you are a careful assistant' },
      { role: 'system', content: 'you are a careful assistant' },
      user('hello there'),
      user('hello again'),
    ]);
    expect(pinned.trims.every((t) => t.rules.every((r) => r !== 'redundant'))).toBe(true);
    expect(getHistory(pinned.state).filter((m) => m.role === 'system')).toHaveLength(2);

    const turn = run(redundant({ maxMessages: 3 }), [
      user('read the file'),
      assistant('reading the file now'),
      assistant('reading the file now'),
      assistant('reading the file now'),
    ]);
    // Every repeat is in the newest turn (from the last user message on): the oldest goes.
    expect(turn.trims[0]?.rules).toEqual(['messageLimit']);
  });

  it('planTrim previews what enforceLimits removes, twins included, and leaves the index usable', () => {
    let state = redundant({ maxMessages: 10 });
    state = addMessages(state, [
      user('same words here'),
      user('other'),
      user('same words here'),
      user('x'),
    ]).state;
    const tighter = reconfigure(state, { maxMessages: 3 });
    const effect = tighter.effects.find((e) => e.type === 'memory/trimmed') as Extract<
      TrimmedEffect,
      { reason: 'enforce_limits' }
    >;
    expect(effect.rules).toEqual(['redundant']);
    expect(effect.duplicateOf).toEqual([2]);
    const loose = fromDict({ ...toDict(state), max_messages: 3 });
    if (loose._tag === 'Left') throw loose.left;
    // fromDict settles the loaded window; a fresh over-limit state comes from a bigger one.
    expect(planTrim(state)).toEqual({ removed: [], rules: [], remainingTokens: state.totalTokens });
  });

  it('persists prune, prune_threshold and embedder under the extension key, and reads them back', () => {
    const state = redundant({ pruneThreshold: 0.75 });
    const dict = toDict(state);
    expect(dict.conversation_memory).toEqual({
      tokenizer: 'heuristic',
      prune: 'redundant',
      prune_threshold: 0.75,
    });
    const back = fromDict(JSON.parse(JSON.stringify(dict)));
    if (back._tag === 'Left') throw back.left;
    expect(back.right.config).toEqual(state.config);
    // The default writes nothing new (a reference file stays a reference file).
    expect(toDict(createMemory({ tokenizer: 'heuristic' })).conversation_memory).toEqual({
      tokenizer: 'heuristic',
    });
  });

  it('reads a state written before the pruning fields (their defaults apply), and names bad ones', () => {
    const state = createMemory({ tokenizer: 'heuristic' });
    const { maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem } = state.config;
    const older = { maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem };
    const decoded = decodeState({ ...state, config: older });
    if (decoded._tag === 'Left') throw decoded.left;
    expect(decoded.right.config).toEqual(state.config);
    const bad = decodeState({
      ...state,
      config: { ...state.config, pruneThreshold: 2, embedder: 'nope' },
    });
    expect(bad._tag).toBe('Left');
    if (bad._tag === 'Left') {
      expect(bad.left.problems.join('\n')).toMatch(
        /config\.pruneThreshold must be a number above 0 and at most 1, received 2/,
      );
      expect(bad.left.problems.join('\n')).toMatch(
        /config\.embedder must be "lexical" or a name registered with registerEmbedder, received "nope"/,
      );
    }
    const file = fromDict({
      max_messages: 5,
      messages: [],
      conversation_memory: { prune: 'newest' },
    });
    expect(file._tag).toBe('Left');
  });

  it('rejects bad options, naming the field and the value', () => {
    expect(() => createMemory({ prune: 'newest' as never })).toThrow(
      /prune must be "oldest" or "redundant", received "newest"/,
    );
    for (const value of [0, 1.5, Number.NaN, '0.9']) {
      expect(() => createMemory({ pruneThreshold: value as never })).toThrow(
        /pruneThreshold must be a number above 0 and at most 1/,
      );
    }
    expect(() => createMemory({ embedder: 'missing' })).toThrow(
      /embedder must be "lexical" or a name registered/,
    );
    expect(() => createMemory({ prun: 'redundant' } as never)).toThrow(
      /prun is not an option \(did you mean prune\?\)/,
    );
  });
});

describe('registerEmbedder', () => {
  it('prunes with a registered vector embedder (cosine), and refuses to replace a name', () => {
    const topics = (text: string): number[] => [
      text.includes('weather') ? 1 : 0,
      text.includes('flight') ? 1 : 0,
      text.includes('order') ? 1 : 0,
      0.01,
    ];
    registerEmbedder('topics-test', topics);
    registerEmbedder('topics-test', topics); // the same function again: a no-op
    expect(() => registerEmbedder('topics-test', (t) => topics(t))).toThrow(
      /already registered with another function/,
    );
    expect(() => registerEmbedder('lexical', topics)).toThrow(/built-in embedder/);
    // The same content words, other stop words: a twin only for the embedder (lexically 0.5).
    const { trims } = run(redundant({ embedder: 'topics-test', maxMessages: 3 }), [
      user('what is the weather like'),
      user('tell me about my order'),
      user('hi, so what is the weather like please'),
      user('and the flight'),
    ]);
    expect(trims[0]?.rules).toEqual(['redundant']);
    expect(trims[0]?.duplicateOf).toEqual([2]);
  });

  it('takes a Float32Array from an embedder as a vector, and refuses other shapes', () => {
    registerEmbedder('typed-test', (text) => Float32Array.from([text.length % 3, 1]));
    registerEmbedder('object-test', () => ({ length: 2, 0: 1, 1: 2 }) as never);
    const typed = run(redundant({ embedder: 'typed-test', maxMessages: 2 }), [
      user('abc'),
      user('oh abc'),
      user('ab'),
    ]);
    expect(typed.trims[0]?.rules).toEqual(['redundant']);
    expect(() => addMessage(redundant({ embedder: 'object-test' }), user('hi'))).toThrow(
      /must return a non-empty array of at most 65536 numbers/,
    );
  });

  it('turns a failing or malformed embedder into an EmbedderError and leaves the state as it was', () => {
    registerEmbedder('throws-test', () => {
      throw new Error('model offline');
    });
    registerEmbedder('nan-test', () => [Number.NaN, 1]);
    registerEmbedder('zero-test', () => [0, 0]);
    for (const [name, pattern] of [
      ['throws-test', /embedder "throws-test" threw Error: model offline/],
      ['nan-test', /item \[0\] is NaN/],
      ['zero-test', /zero vector/],
    ] as const) {
      const state = redundant({ embedder: name, maxMessages: 1 });
      const before = JSON.stringify(state);
      expect(() => addMessage(state, user('hi'))).toThrow(pattern);
      expect(JSON.stringify(state)).toBe(before);
    }
  });

  it('embeds a tool-call message as its text and its calls, argument keys sorted', () => {
    expect(
      embeddingText({
        role: 'assistant',
        content: 'reading',
        toolCalls: [{ id: 'c', name: 'read_file', parameters: { b: 1, a: { d: 2, c: 3 } } }],
      }),
    ).toBe('reading\nread_file {"a":{"c":3,"d":2},"b":1}');
  });
});
