/**
 * Recorded coding-agent conversations for the pruning benchmark (offline, deterministic: same
 * seed, same conversation). Each has 30 user turns over a workspace of six files and four
 * document searches (`workspace.ts`). Per turn the user asks for something (the same request
 * again now and then), sets or updates a value (`deadline: Friday 14:00`), or says a file changed;
 * the agent makes one to three tool calls (`read_file {path}`, mostly re-reading a file it read
 * before; `search {query}`, often a search it ran before; `run_tests {}`), one call per assistant
 * message or two side by side, then answers in a sentence.
 *
 * Repeated and stale output, as a real agent makes it: a re-read gives the same text unless a
 * setting of the file was edited since (then one value differs); a repeated search gives the same
 * hits; test runs repeat their report until the failures change.
 *
 * Every message is checked against the fact catalog when it is written: it must state exactly the
 * facts the script put in it, so the benchmark measures the memories, not the scanner.
 */
import type { Message, ToolCall } from '../../src/entries/index';
import { createRandom } from '../fixtures';
import { type Fact, FactCatalog, factText } from './factCatalog';
import { DOCUMENT_FACTS, NUMERIC_SETTINGS, TEXT_SETTINGS, USER_SETTINGS } from './factPools';
import {
  type DocumentSearch,
  FILE_PATHS,
  makeFile,
  makeSearch,
  renderFile,
  SEARCH_QUERIES,
  type WorkspaceFile,
} from './workspace';

/**
 * What a user turn does: asks for something, sets or updates a value, or says a file changed.
 *
 * @example
 * ```ts
 * const kind: AgentTurnKind = 'edited';
 * ```
 */
export type AgentTurnKind = 'request' | 'user-fact' | 'edited';

/**
 * One user turn of a recorded conversation: the user's message, the agent's tool calls and
 * results, its answer.
 *
 * @example
 * ```ts
 * const turn: AgentTurn = { kind: 'request', messages: [{ role: 'user', content: 'Go on.' }] };
 * ```
 */
export interface AgentTurn {
  readonly kind: AgentTurnKind;
  readonly messages: readonly Message[];
}

/**
 * A recorded conversation: its seed, its turns, and the catalog of every fact it may state
 * (every value of every key it uses).
 *
 * @example
 * ```ts
 * const { turns, catalog } = scriptAgentConversation(1);
 * ```
 */
export interface AgentConversation {
  readonly seed: number;
  readonly turns: readonly AgentTurn[];
  readonly catalog: FactCatalog;
}

/**
 * User turns per conversation.
 *
 * @example
 * ```ts
 * scriptAgentConversation(1).turns.length === AGENT_TURNS; // true
 * ```
 */
export const AGENT_TURNS = 30;

const REQUESTS = [
  'Why does the upload test fail?',
  'Run the tests again.',
  'Check how retries are configured.',
  'Who do we escalate to if payments break?',
  'Look at the worker settings and tell me if they are sane.',
  'What does the deploy config say about where we run?',
  'Is the cache configured sensibly?',
  'Summarize what you know about the database pool.',
  'Please double-check the limits before we ship.',
  'Continue with the fix.',
  'What did the operations doc say about alerts?',
  'Find the incident process for checkout.',
  'Go on.',
  'Check the config once more.',
];
const ANSWERS = [
  'The settings look consistent with the failing test, so the bug is in the handler, not the config.',
  'I checked the files you mentioned; nothing there contradicts the plan, and the tests agree.',
  'That value is read once at startup, so the change needs a restart of the workers to apply.',
  'The documents answer it: the process is described in the runbook, and I noted who owns it.',
  'Two places define related limits; they agree for now, but I would keep them in one file.',
  'The tests still fail for the same reason; I will look at the request path next.',
  'Done. The configuration and the code agree, and I found nothing else to change.',
  'I compared the files with what you told me; the difference is only in the deploy values.',
];
const FIRST_STATEMENTS = [
  'Keep this in mind for the rest of the task: {fact}.',
  'One constraint from the team, {fact}. Plan around it.',
];
const UPDATES = [
  'Change of plan, {fact} from now on.',
  'Update from the team: {fact} (it changed).',
];

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

const shuffled = <T>(random: () => number, items: readonly T[]): T[] => {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
};

/** Another value of `key` than `current`. */
const otherValue = (
  random: () => number,
  pool: ReadonlyMap<string, readonly string[]>,
  key: string,
  current: string | undefined,
): string =>
  pick(
    random,
    (pool.get(key) ?? []).filter((value) => value !== current),
  );

/** The workspace of one conversation: files with their settings, searches, the user's keys. */
interface Workspace {
  readonly files: readonly WorkspaceFile[];
  readonly values: Map<string, string>;
  readonly searches: readonly DocumentSearch[];
  readonly searchFacts: ReadonlyMap<string, readonly Fact[]>;
  readonly userKeys: readonly string[];
  readonly catalog: FactCatalog;
}

const makeWorkspace = (random: () => number): Workspace => {
  const numeric = shuffled(random, [...NUMERIC_SETTINGS.keys()]);
  const text = shuffled(random, [...TEXT_SETTINGS.keys()]);
  const values = new Map<string, string>();
  const files = shuffled(random, FILE_PATHS)
    .slice(0, 6)
    .map((place) => {
      const keys: string[] = [];
      const count = 3 + Math.floor(random() * 3);
      for (let k = 0; k < count; k++) {
        const fromText = place.format !== 'ts' && text.length > 0 && random() < 0.5;
        const key = fromText ? text.pop() : numeric.pop();
        if (key === undefined) break;
        keys.push(key);
        const pool = fromText ? TEXT_SETTINGS : NUMERIC_SETTINGS;
        values.set(key, otherValue(random, pool, key, undefined));
      }
      // About 150–600 o200k tokens once numbered.
      return makeFile(random, place, keys, 420 + Math.floor(random() * 1100));
    });
  const documentKeys = shuffled(random, [...DOCUMENT_FACTS.keys()]);
  const searchFacts = new Map<string, Fact[]>();
  const searches = shuffled(random, SEARCH_QUERIES)
    .slice(0, 4)
    .map((query) => {
      const facts: Fact[] = [];
      const count = 2 + Math.floor(random() * 2);
      for (let k = 0; k < count; k++) {
        const key = documentKeys.pop();
        if (key !== undefined)
          facts.push({ key, value: otherValue(random, DOCUMENT_FACTS, key, undefined) });
      }
      searchFacts.set(query, facts);
      return makeSearch(random, query, facts);
    });
  const userKeys = shuffled(random, [...USER_SETTINGS.keys()]).slice(0, 4);
  const used = new Map<string, readonly string[]>();
  for (const file of files) {
    for (const line of file.lines) {
      if ('key' in line)
        used.set(line.key, NUMERIC_SETTINGS.get(line.key) ?? TEXT_SETTINGS.get(line.key) ?? []);
    }
  }
  for (const facts of searchFacts.values()) {
    for (const { key } of facts) used.set(key, DOCUMENT_FACTS.get(key) ?? []);
  }
  for (const key of userKeys) used.set(key, USER_SETTINGS.get(key) ?? []);
  return { files, values, searches, searchFacts, userKeys, catalog: new FactCatalog(used) };
};

/** The facts a file states with the current values, in line order. */
const fileFacts = (file: WorkspaceFile, values: ReadonlyMap<string, string>): Fact[] =>
  file.lines.flatMap((line) =>
    'key' in line ? [{ key: line.key, value: values.get(line.key) ?? '' }] : [],
  );

const TESTS = [
  'test/upload.test.ts > rejects files over the limit',
  'test/retry.test.ts > gives up after the last attempt',
  'test/pool.test.ts > releases connections on error',
  'test/session.test.ts > refreshes an expiring session',
];

/**
 * Writes the conversation of `seed`: `turns` user turns (default {@link AGENT_TURNS}).
 *
 * @param seed - the seed of the generator
 * @param turns - how many user turns
 * @returns the turns and the fact catalog
 * @throws Error when a message does not state exactly the facts the script put in it
 * @example
 * ```ts
 * const conversation = scriptAgentConversation(20_260_100);
 * conversation.turns[0]?.messages[0]?.role; // 'user'
 * ```
 */
export const scriptAgentConversation = (seed: number, turns = AGENT_TURNS): AgentConversation => {
  const random = createRandom(seed);
  const workspace = makeWorkspace(random);
  const { files, values, searches, searchFacts, userKeys, catalog } = workspace;
  const userValues = new Map<string, string>();
  const read = new Set<WorkspaceFile>();
  const searched = new Set<DocumentSearch>();
  const testCount = 150 + Math.floor(random() * 150);
  let failing = shuffled(random, TESTS).slice(0, 1 + Math.floor(random() * 2));
  let callId = 0;

  /** Checks that `message` states exactly `facts`, and returns it. */
  const checked = (message: Message, facts: readonly Fact[]): Message => {
    const found = catalog.factsIn(message.content ?? '').map(factText);
    const wanted = facts.map(factText);
    if (found.join('\n') !== wanted.join('\n')) {
      throw new Error(
        `conversation ${seed}: a ${message.role} message states [${found.join(', ')}], the script put [${wanted.join(', ')}]`,
      );
    }
    return message;
  };

  /** A call the agent makes: a re-read, a new read, a search (often repeated), or the tests. */
  const chooseCall = (): { call: ToolCall; result: Message } => {
    const id = `call_${++callId}`;
    const roll = random();
    if (roll < 0.6) {
      const unread = files.filter((file) => !read.has(file));
      const file =
        read.size > 0 && (unread.length === 0 || random() < 0.6)
          ? pick(random, [...read])
          : pick(random, unread);
      read.add(file);
      const content = renderFile(file, values);
      const call = { id, name: 'read_file', parameters: { path: file.path } };
      const result = { role: 'tool' as const, content, toolCallId: id, toolName: 'read_file' };
      return { call, result: checked(result, fileFacts(file, values)) };
    }
    if (roll < 0.88) {
      const fresh = searches.filter((search) => !searched.has(search));
      const search =
        searched.size > 0 && (fresh.length === 0 || random() < 0.5)
          ? pick(random, [...searched])
          : pick(random, fresh);
      searched.add(search);
      const call = { id, name: 'search', parameters: { query: search.query } };
      const result = { role: 'tool' as const, content: search.result, toolCallId: id };
      const facts = searchFacts.get(search.query) ?? [];
      return { call, result: checked({ ...result, toolName: 'search' }, facts) };
    }
    if (random() < 0.3) failing = shuffled(random, TESTS).slice(0, Math.floor(random() * 3));
    const report = [
      `Ran ${testCount} tests in 8.4s: ${testCount - failing.length} passed, ${failing.length} failed.`,
      ...failing.map((name) => `  FAIL ${name}\n    AssertionError: expected 413, received 200`),
    ].join('\n');
    const call = { id, name: 'run_tests', parameters: {} };
    const result = { role: 'tool' as const, content: report, toolCallId: id };
    return { call, result: checked({ ...result, toolName: 'run_tests' }, []) };
  };

  const script: AgentTurn[] = [];
  for (let t = 0; t < turns; t++) {
    const messages: Message[] = [];
    const roll = random();
    const kind: AgentTurnKind =
      t > 0 && roll < 0.25 ? 'user-fact' : roll < 0.37 && read.size > 0 ? 'edited' : 'request';
    const first: { call: ToolCall; result: Message }[] = [];
    if (kind === 'user-fact') {
      const unstated = userKeys.filter((key) => !userValues.has(key));
      const fresh = unstated.length > 0 && (userValues.size === 0 || random() < 0.6);
      const key = fresh ? pick(random, unstated) : pick(random, [...userValues.keys()]);
      const current = userValues.get(key);
      const value =
        current !== undefined && random() < 0.2
          ? current
          : otherValue(random, USER_SETTINGS, key, current);
      userValues.set(key, value);
      const fact = { key, value };
      const template = fresh
        ? pick(random, FIRST_STATEMENTS)
        : value === current
          ? 'Reminder, {fact} still holds.'
          : pick(random, UPDATES);
      const content = template.replace('{fact}', factText(fact));
      messages.push(checked({ role: 'user', content }, [fact]));
    } else if (kind === 'edited') {
      let file = pick(random, [...read]);
      // A file without settings has nothing to edit: another read file that has some, if any
      // (long runs meet this; the 30-turn script never did, so its conversations are unchanged).
      if (fileFacts(file, values).length === 0) {
        const editable = [...read].filter((f) => fileFacts(f, values).length > 0);
        if (editable.length > 0) file = pick(random, editable);
      }
      const facts = fileFacts(file, values);
      if (facts.length > 0) {
        const key = pick(random, facts).key;
        const pool = NUMERIC_SETTINGS.has(key) ? NUMERIC_SETTINGS : TEXT_SETTINGS;
        values.set(key, otherValue(random, pool, key, values.get(key)));
      }
      const content = `I pushed a change to ${file.path}; take another look.`;
      messages.push(checked({ role: 'user', content }, []));
      const id = `call_${++callId}`;
      const call = { id, name: 'read_file', parameters: { path: file.path } };
      const result = {
        role: 'tool' as const,
        content: renderFile(file, values),
        toolCallId: id,
        toolName: 'read_file',
      };
      first.push({ call, result: checked(result, fileFacts(file, values)) });
    } else {
      messages.push(checked({ role: 'user', content: pick(random, REQUESTS) }, []));
    }
    const steps = [...first];
    const count = 1 + (random() < 0.55 ? 1 : 0) + (random() < 0.25 ? 1 : 0);
    while (steps.length < count) steps.push(chooseCall());
    for (let s = 0; s < steps.length; s++) {
      const step = steps[s] as { call: ToolCall; result: Message };
      const next = steps[s + 1];
      // Now and then two calls side by side in one assistant message.
      if (next !== undefined && random() < 0.15) {
        messages.push({ role: 'assistant', content: null, toolCalls: [step.call, next.call] });
        messages.push(step.result, next.result);
        s++;
      } else {
        messages.push({ role: 'assistant', content: null, toolCalls: [step.call] });
        messages.push(step.result);
      }
    }
    messages.push(checked({ role: 'assistant', content: pick(random, ANSWERS) }, []));
    script.push({ kind, messages });
  }
  return { seed, turns: script, catalog };
};
