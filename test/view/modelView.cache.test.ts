/**
 * `modelView`'s cache breakpoints (issue #29 §2, rule 7): for each kind of view (no system, a
 * summary, knowledge and a summary, one message, a tool group as the newest turn, a budget and
 * masking applied, pinned and other system messages) and each target, the indices the view marks;
 * the rest of the view is the view without `cache`; a wrong `cache` is an error naming it.
 */
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  assistantMessage,
  createMemory,
  isConversationMemoryError,
  modelView,
  setSummary,
  systemMessage,
  toolMessage,
  userMessage,
  type MemoryState,
  type Message,
  type ModelViewOptions,
} from 'conversation-memory';

const call = (id: string) => ({ id, name: 'calc', parameters: { a: 1 } });
const result = (id: string, content = `result of ${id}`) =>
  toolMessage(content, { toolCallId: id, toolName: 'calc' });

const stateOf = (
  messages: readonly Message[],
  options: { summary?: string; pinSystem?: boolean } = {},
): MemoryState => {
  const state = addMessages(
    createMemory({
      tokenizer: 'heuristic',
      maxMessages: 1000,
      ...(options.pinSystem === undefined ? {} : { pinSystem: options.pinSystem }),
    }),
    messages,
  ).state;
  return options.summary === undefined ? state : setSummary(state, options.summary).state;
};

interface Case {
  readonly name: string;
  readonly state: MemoryState;
  readonly options?: ModelViewOptions;
  /** The view's roles, to show what the indices point at. */
  readonly roles: readonly string[];
  /** The roles of the `'anthropic'` view, when they differ. */
  readonly anthropicRoles?: readonly string[];
  readonly anthropic: readonly number[];
  readonly openai: readonly number[];
}

const chat = [userMessage('u1'), assistantMessage('a1'), userMessage('u2')];
const long = (text: string) => `${text} ${'word '.repeat(40)}`;

const CASES: readonly Case[] = [
  {
    name: 'no system message: the stable part and the newest turn',
    state: stateOf(chat),
    roles: ['user', 'assistant', 'user'],
    anthropic: [1, 2],
    openai: [1, 2],
  },
  {
    name: 'a summary only',
    state: stateOf(chat, { summary: 'Ann is 30.' }),
    roles: ['system', 'user', 'assistant', 'user'],
    anthropic: [0, 2, 3],
    openai: [0, 2, 3],
  },
  {
    name: 'knowledge and a summary: the lead ends after both',
    state: stateOf(chat, { summary: 'Ann is 30.' }),
    options: { knowledge: '[Known Entities]\n- Ann' },
    roles: ['system', 'system', 'user', 'assistant', 'user'],
    anthropic: [1, 3, 4],
    openai: [1, 3, 4],
  },
  {
    name: 'one message',
    state: stateOf([userMessage('hi')]),
    roles: ['user'],
    anthropic: [0],
    openai: [0],
  },
  {
    name: 'a summary and one message',
    state: stateOf([userMessage('hi')], { summary: 'Ann is 30.' }),
    roles: ['system', 'user'],
    anthropic: [0, 1],
    openai: [0, 1],
  },
  {
    name: 'a summary and no message: the lead alone',
    state: stateOf([], { summary: 'Ann is 30.' }),
    roles: ['system'],
    anthropic: [0],
    openai: [0],
  },
  {
    name: 'an empty view',
    state: stateOf([]),
    roles: [],
    anthropic: [],
    openai: [],
  },
  {
    name: 'a tool group as the newest turn: its last result',
    state: stateOf([
      userMessage('u1'),
      assistantMessage('a1'),
      userMessage('u2'),
      assistantMessage(null, [call('c1'), call('c2')]),
      result('c1'),
      result('c2'),
    ]),
    roles: ['user', 'assistant', 'user', 'assistant', 'tool', 'tool'],
    anthropic: [1, 5],
    openai: [1, 5],
  },
  {
    name: 'an answered tool group before the newest turn: the stable part ends at its answer',
    state: stateOf([
      userMessage('u1'),
      assistantMessage(null, [call('c1')]),
      result('c1'),
      assistantMessage('a1'),
      userMessage('u2'),
    ]),
    roles: ['user', 'assistant', 'tool', 'assistant', 'user'],
    anthropic: [3, 4],
    openai: [3, 4],
  },
  {
    name: 'no user message: the whole window is the newest turn',
    state: stateOf([systemMessage('rules'), assistantMessage('hello')], { summary: 'S.' }),
    roles: ['system', 'system', 'assistant'],
    // Anthropic leaves out an assistant turn before any user turn (rule 6).
    anthropicRoles: ['system', 'system'],
    anthropic: [1],
    openai: [1, 2],
  },
  {
    name: 'a budget applied: marks on what the budget keeps',
    state: stateOf(
      [
        userMessage(long('u1')),
        assistantMessage(long('a1')),
        userMessage(long('u2')),
        assistantMessage(long('a2')),
        userMessage('u3'),
      ],
      { summary: 'Ann is 30.' },
    ),
    options: { budget: 120 },
    roles: ['system', 'user', 'assistant', 'user'],
    anthropic: [0, 2, 3],
    openai: [0, 2, 3],
  },
  {
    name: 'masking applied: the placeholders stay in place',
    state: stateOf([
      userMessage('u1'),
      assistantMessage(null, [call('c1')]),
      result('c1', long('r1')),
      assistantMessage('a1'),
      userMessage('u2'),
      assistantMessage(null, [call('c2')]),
      result('c2'),
    ]),
    options: { maskToolResults: { keepLast: 1 } },
    roles: ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool'],
    anthropic: [3, 6],
    openai: [3, 6],
  },
  {
    name: 'a pinned system prompt at the window start belongs to the lead',
    state: stateOf([systemMessage('rules'), ...chat], { pinSystem: true }),
    roles: ['system', 'user', 'assistant', 'user'],
    anthropic: [0, 2, 3],
    openai: [0, 2, 3],
  },
  {
    name: 'a pinned system prompt after the summary',
    state: stateOf([systemMessage('rules'), ...chat], { pinSystem: true, summary: 'S.' }),
    roles: ['system', 'system', 'user', 'assistant', 'user'],
    anthropic: [1, 3, 4],
    openai: [1, 3, 4],
  },
  {
    name: 'a system message before the newest turn: Anthropic lifts it, so it is never marked',
    state: stateOf([
      systemMessage('rules'),
      userMessage('u1'),
      assistantMessage('a1'),
      systemMessage('be brief from now on'),
      userMessage('u2'),
    ]),
    roles: ['system', 'user', 'assistant', 'system', 'user'],
    anthropic: [0, 2, 4],
    openai: [0, 3, 4],
  },
  {
    name: 'a system message at the end: Anthropic marks the last turn message instead',
    state: stateOf([...chat, systemMessage('answer in French')]),
    roles: ['user', 'assistant', 'user', 'system'],
    anthropic: [1, 2],
    openai: [1, 3],
  },
];

describe('modelView cache breakpoints (rule 7)', () => {
  for (const target of ['anthropic', 'openai', 'none'] as const) {
    describe(target, () => {
      it.each(CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
        const options: ModelViewOptions = { ...c.options, target };
        const plain = modelView(c.state, options);
        const cached = modelView(c.state, { ...options, cache: true });
        expect(cached.messages.map((m) => m.role)).toEqual(
          target === 'anthropic' ? (c.anthropicRoles ?? c.roles) : c.roles,
        );
        const expected = target === 'anthropic' ? c.anthropic : c.openai;
        expect(cached.cache).toEqual({ ttl: '5m', breakpoints: expected });
        // Nothing else of the view changes.
        const { cache, ...rest } = cached;
        expect(cache).toBeDefined();
        expect(rest).toEqual(plain);
        expect('cache' in plain).toBe(false);
      });
    });
  }

  it('checks its cases: the budget and the masking did apply', () => {
    const budget = CASES.find((c) => c.name.startsWith('a budget')) as Case;
    const view = modelView(budget.state, { ...budget.options, cache: true });
    expect(view.changes.filter((c) => c.type === 'view/omitted').map((c) => c.reason)).toEqual([
      'budget',
      'budget',
    ]);
    const masked = CASES.find((c) => c.name.startsWith('masking')) as Case;
    const maskedView = modelView(masked.state, { ...masked.options, cache: true });
    expect(maskedView.changes.map((c) => c.type)).toEqual(['view/masked']);
  });

  it('selects the time to live: true and {} are five minutes, { ttl: "1h" } one hour', () => {
    const state = stateOf(chat);
    const ttlOf = (cache: ModelViewOptions['cache']) =>
      modelView(state, { target: 'anthropic', cache }).cache?.ttl;
    expect(ttlOf(true)).toBe('5m');
    expect(ttlOf({})).toBe('5m');
    expect(ttlOf({ ttl: '5m' })).toBe('5m');
    expect(ttlOf({ ttl: '1h' })).toBe('1h');
    expect(ttlOf({ ttl: undefined })).toBe('5m');
    for (const off of [false, null, undefined] as const) {
      expect('cache' in modelView(state, { target: 'anthropic', cache: off })).toBe(false);
    }
  });

  it('refuses a wrong cache value, naming cache and the value', () => {
    const state = stateOf(chat);
    const cases: readonly [unknown, string][] = [
      ['yes', `options.cache must be true, false or { ttl: '5m' | '1h' }, received "yes"`],
      [1, `options.cache must be true, false or { ttl: '5m' | '1h' }, received 1`],
      [
        [],
        `options.cache must be true, false or { ttl: '5m' | '1h' }, received an array of length 0`,
      ],
      [{ ttl: '10m' }, `options.cache.ttl must be '5m' or '1h', received "10m"`],
      [{ ttl: 3600 }, `options.cache.ttl must be '5m' or '1h', received 3600`],
      [{ TTL: '1h' }, 'options.cache.TTL is not an option (did you mean ttl?)'],
    ];
    for (const [cache, message] of cases) {
      let error: unknown;
      try {
        modelView(state, { target: 'anthropic', cache: cache as never });
      } catch (caught) {
        error = caught;
      }
      expect(isConversationMemoryError(error), String(cache)).toBe(true);
      expect((error as Error).name).toBe('MemoryArgumentError');
      expect((error as Error).message).toContain(`modelView: ${message}`);
    }
  });

  it('suggests cache for the names other libraries use', () => {
    expect(() =>
      modelView(stateOf(chat), { cacheControl: true } as unknown as ModelViewOptions),
    ).toThrow('modelView: options.cacheControl is not an option (did you mean cache?)');
  });
});
