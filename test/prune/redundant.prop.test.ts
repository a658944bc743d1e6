import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  createMemory,
  fromDict,
  getPositions,
  planTrim,
  toDict,
  type MemoryEffect,
  type MemoryState,
  type Message,
  type MessageInput,
  type Transition,
} from 'conversation-memory';
import { registerEmbedder } from 'conversation-memory/pruning';
import { countHeuristicTokens } from '../../src/tokens/heuristic';
import { trimToArb } from '../arbitraries/config';
import { PolicyModel } from '../laws/policyModel';
import { plainTwin } from './plainTwin';

/**
 * `prune: 'redundant'` under random conversations full of repeats (a small pool of texts, file
 * reads of two paths, searches) and random limits and policies: after every add, the window,
 * the positions and each trim's rules and twins agree exactly with the plain model
 * (test/laws/policyModel.ts with test/prune/plainTwin.ts); a group is never split; a pinned
 * message never leaves by a limit; every message is in the window or in one trim; a state
 * rebuilt from JSON (a fresh index) continues exactly as the one carried from add to add.
 */

// Lower-case content words (no digit, capital, date, negation or stop word): the value guard
// reads only their order.
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'lambda', 'sigma'];
const textArb = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 })
  .map((words) => words.join(' '));
// Few distinct texts: repeats are frequent.
const poolArb = fc.array(textArb, { minLength: 2, maxLength: 4 });

type Step =
  | { kind: 'say'; role: 'user' | 'assistant' | 'system'; text: number }
  | {
      kind: 'tool';
      tool: 'read_file' | 'search';
      arg: number;
      results: number[];
      together: boolean;
    };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('say' as const),
      role: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const),
      text: fc.nat(3),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('tool' as const),
      tool: fc.constantFrom('read_file' as const, 'search' as const),
      arg: fc.nat(1),
      results: fc.array(fc.nat(3), { minLength: 1, maxLength: 2 }),
      together: fc.boolean(),
    }),
  },
);

const configArb = fc.record({
  maxMessages: fc.integer({ min: 1, max: 8 }),
  maxTokens: fc.oneof(fc.constant(null), fc.integer({ min: 4, max: 60 })),
  tokenizer: fc.constant('heuristic' as const),
  toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
  startOn: fc.constantFrom(null, 'user' as const),
  pinSystem: fc.boolean(),
  prune: fc.constant('redundant' as const),
  pruneThreshold: fc.constant(1),
  embedder: fc.constant('lexical' as string),
  trimTo: trimToArb,
});

/** The messages of a step (one batch per element). */
const batchesOf = (
  step: Step,
  pool: readonly string[],
  call: number,
  reuseIds = false,
): MessageInput[][] => {
  if (step.kind === 'say') {
    return [[{ role: step.role, content: pool[step.text % pool.length] as string }]];
  }
  // Providers may reuse ids across turns (only one group's ids must differ).
  const ids = step.results.map((_, k) => `call_${reuseIds ? 0 : call}_${k}`);
  const head: MessageInput = {
    role: 'assistant',
    content: '',
    toolCalls: ids.map((id, k) => ({
      id,
      name: step.tool,
      parameters: { path: `file_${step.arg}`, part: k },
    })),
  };
  const results: MessageInput[] = step.results.map((text, k) => ({
    role: 'tool',
    content: pool[text % pool.length] as string,
    toolCallId: ids[k] as string,
    toolName: step.tool,
  }));
  return step.together ? [[head, ...results]] : [[head], ...results.map((r) => [r])];
};

const requestsTools = (m: Message): boolean =>
  m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0;

/** Every 'redundant' removal takes whole groups: a call with each result after it in the window. */
const expectWholeGroups = (
  before: readonly Message[],
  incoming: readonly Message[],
  t: Transition,
): void => {
  const window = [...before, ...incoming];
  for (const effect of t.effects) {
    if (effect.type !== 'memory/trimmed' || effect.reason !== 'enforce_limits') continue;
    const gone = new Set<Message>();
    effect.removed.forEach((m, i) => {
      if (effect.rules[i] === 'redundant') gone.add(m);
    });
    window.forEach((m, i) => {
      if (!gone.has(m)) return;
      if (m.role === 'tool') {
        let head = i - 1;
        while (head >= 0 && window[head]?.role === 'tool') head--;
        expect(gone.has(window[head] as Message), 'a result left without its call').toBe(true);
      }
      if (requestsTools(m)) {
        for (let j = i + 1; j < window.length && window[j]?.role === 'tool'; j++) {
          expect(gone.has(window[j] as Message), 'a call left without its result').toBe(true);
        }
      }
    });
  }
};

const trimOf = (effects: readonly MemoryEffect[]) =>
  effects.flatMap((e) =>
    e.type === 'memory/trimmed' && e.reason === 'enforce_limits'
      ? [{ positions: e.positions, rules: e.rules, duplicateOf: e.duplicateOf }]
      : [],
  );

/** Runs the batches, checking every add against the model; returns the states after each. */
const drive = (
  start: MemoryState,
  batches: readonly MessageInput[][],
  model: PolicyModel | undefined,
  added: Message[],
): { states: MemoryState[]; trims: ReturnType<typeof trimOf>[] } => {
  let state = start;
  const states: MemoryState[] = [];
  const trims: ReturnType<typeof trimOf>[] = [];
  batches.forEach((batch, b) => {
    const t =
      batch.length === 1 && b % 2 === 0
        ? addMessage(state, batch[0] as MessageInput)
        : addMessages(state, batch);
    const incoming = batch as Message[];
    expectWholeGroups(state.messages, incoming, t);
    if (model !== undefined) {
      added.push(...incoming);
      const expected = model.add(incoming);
      expect(trimOf(t.effects)).toEqual(
        expected === undefined
          ? []
          : [
              {
                positions: expected.positions,
                rules: expected.rules,
                duplicateOf: expected.duplicateOf,
              },
            ],
      );
      expect(t.state.messages).toEqual(model.entries.map((e) => e.message));
      expect(getPositions(t.state)).toEqual(model.entries.map((e) => e.position));
    }
    state = t.state;
    states.push(state);
    trims.push(trimOf(t.effects));
  });
  return { states, trims };
};

// A registered vector embedder: letter counts (near twins share most letters).
registerEmbedder('letters-prop', (text) => {
  const counts = new Array<number>(27).fill(0);
  for (const char of text.toLowerCase()) {
    const code = char.charCodeAt(0) - 97;
    const slot = code >= 0 && code < 26 ? code : 26;
    counts[slot] = (counts[slot] as number) + 1;
  }
  return counts;
});

describe("prune: 'redundant' (property)", () => {
  it('agrees with the plain model at every add, keeps groups whole, conserves every message, and a state read back from JSON (a fresh index) continues the same', () => {
    fc.assert(
      fc.property(
        configArb,
        poolArb,
        fc.array(stepArb, { maxLength: 24 }),
        fc.nat(40),
        fc.boolean(),
        (config, pool, steps, cut, reuseIds) => {
          const batches = steps.flatMap((step, k) => batchesOf(step, pool, k, reuseIds));
          const added: Message[] = [];
          const model = new PolicyModel(
            createMemory(config).config,
            countHeuristicTokens,
            plainTwin,
          );
          const { states, trims } = drive(createMemory(config), batches, model, added);

          // Conservation: every message is in the final window or in exactly one trim.
          const final = states[states.length - 1] ?? createMemory(config);
          const gone = trims.flat().flatMap((trim) => [...trim.positions]);
          expect(new Set(gone).size).toBe(gone.length);
          expect(final.messages.length + gone.length).toBe(added.length);

          // Pinned system messages leave by no rule.
          if (config.pinSystem) {
            trims
              .flat()
              .forEach((trim) =>
                trim.positions.forEach((position) =>
                  expect(added[position]?.role, `pinned ${position} left`).not.toBe('system'),
                ),
              );
          }

          // Every twin named is newer, and stays in the window unless a later rule of the same
          // trim (oldest first) removes it too.
          trims.forEach((list, b) =>
            list.forEach((trim) =>
              trim.duplicateOf?.forEach((twin, i) => {
                if (twin === null) return;
                expect(twin).toBeGreaterThan(trim.positions[i] as number);
                const k = trim.positions.indexOf(twin);
                if (k === -1) expect(getPositions(states[b] as MemoryState)).toContain(twin);
                else expect(trim.rules[k]).not.toBe('redundant');
              }),
            ),
          );

          // A fresh index (the state read back from JSON) plans exactly as the carried one.
          const at = batches.length === 0 ? 0 : cut % batches.length;
          const from = at === 0 ? createMemory(config) : (states[at - 1] as MemoryState);
          const decoded = fromDict(JSON.parse(JSON.stringify(toDict(from))));
          if (decoded._tag === 'Left') throw decoded.left;
          expect(planTrim(decoded.right)).toEqual(planTrim(from));
          const again = drive(decoded.right, batches.slice(at), undefined, []);
          expect(again.trims).toEqual(trims.slice(at));
          expect(again.states.map(getPositions)).toEqual(states.slice(at).map(getPositions));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('with near twins (any threshold, an embedder): a fresh index plans exactly as the carried one', () => {
    let redundantSeen = 0;
    fc.assert(
      fc.property(
        configArb,
        fc.constantFrom(0.3, 0.5, 0.7, 0.9),
        fc.constantFrom('lexical', 'letters-prop'),
        fc.array(textArb, { minLength: 2, maxLength: 4 }),
        fc.array(stepArb, { maxLength: 20 }),
        fc.nat(40),
        fc.boolean(),
        (base, pruneThreshold, embedder, pool, steps, cut, reuseIds) => {
          const config = { ...base, pruneThreshold, embedder };
          const batches = steps.flatMap((step, k) => batchesOf(step, pool, k, reuseIds));
          const { states, trims } = drive(createMemory(config), batches, undefined, []);
          const at = batches.length === 0 ? 0 : cut % batches.length;
          const from = at === 0 ? createMemory(config) : (states[at - 1] as MemoryState);
          const decoded = fromDict(JSON.parse(JSON.stringify(toDict(from))));
          if (decoded._tag === 'Left') throw decoded.left;
          const again = drive(decoded.right, batches.slice(at), undefined, []);
          expect(again.trims).toEqual(trims.slice(at));
          expect(again.states.map(getPositions)).toEqual(states.slice(at).map(getPositions));
          redundantSeen += trims.flat().filter((t) => t.rules.includes('redundant')).length;
        },
      ),
      { numRuns: 200 },
    );
    // The runs did prune by redundancy (the check above is not vacuous).
    expect(redundantSeen).toBeGreaterThan(20);
  });

  it("equals prune: 'oldest' on conversations without repeats", () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(fc.constantFrom('user' as const, 'assistant' as const, 'system' as const), {
          maxLength: 30,
        }),
        (config, roles) => {
          // Every text distinct: a word of its own (its index spelled in letters) among others.
          const spell = (n: number): string =>
            n.toString(26).replace(/[0-9]/g, (d) => 'qrstuvwxyz'[Number(d)] as string);
          const batches: MessageInput[][] = roles.map((role, i) => [
            { role, content: `alpha ${spell(i)}x beta gamma ${spell(i)}y` },
          ]);
          const redundant = drive(createMemory(config), batches, undefined, []);
          const oldest = drive(
            createMemory({ ...config, prune: 'oldest' }),
            batches,
            undefined,
            [],
          );
          expect(redundant.trims).toEqual(
            oldest.trims.map((list) => list.map((trim) => ({ ...trim }))),
          );
          expect(redundant.states.map((s) => s.messages)).toEqual(
            oldest.states.map((s) => s.messages),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
