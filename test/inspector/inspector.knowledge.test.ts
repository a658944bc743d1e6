/**
 * The inspector shows knowledge (issue #18, part 4): at each step the facts in force, the ones the
 * step added, merged, retired (with the reason and what superseded them), let expire or dropped,
 * and the blocks the model received, at a time taken from the log (never a clock); the model view
 * at a step sends those blocks first. Checked on a recorded conversation and, as laws, on random
 * logs of knowledge actions mixed with messages and clears.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  encodeEnvelope,
  type EventLog,
  logActions,
  memoryActions,
  type MemoryAction,
  modelView,
  seek,
  userMessage,
} from 'conversation-memory';
import { knowledgeBlocks } from 'conversation-memory/knowledge';
import { isExpired } from '../../src/knowledge/retrieval/factsInForce';
import { runInspect } from '../../src/inspector/cli/inspect';
import {
  createStepper,
  type KnowledgeChange,
  knowledgeTimes,
  latestUserText,
  modelViewAt,
  stepKnowledge,
  type StepKnowledge,
} from '../../src/inspector/model';
import type { KnowledgeState } from '../../src/model/knowledge';
import { knowledgeLog, recordedLog } from '../support/inspectorLog';

const log = knowledgeLog();
const DAY = 86_400_000;

const changesOf = (n: number, change: KnowledgeChange['change']) =>
  (stepKnowledge(log, n)?.changes ?? []).filter((c) => c.change === change);

describe('stepKnowledge: the facts at one step', () => {
  it('is null before the first knowledge action, and for a log without knowledge', () => {
    expect(stepKnowledge(log, 0)).toBeNull();
    expect(stepKnowledge(log, 1)).toBeNull();
    expect(stepKnowledge(log, 2)).not.toBeNull();
    const plain = recordedLog();
    for (let n = 0; n <= plain.length; n++) expect(stepKnowledge(plain, n)).toBeNull();
  });

  it('at the step where a relation is superseded: the new one in force, the old one retired, naming its successor', () => {
    const at = stepKnowledge(log, 7) as StepKnowledge;
    expect(at.inForce.relations.map((r) => `${r.id} ${r.object}`)).toEqual(['r7 Globex', 'r8 Bob']);
    expect(at.changes).toEqual([
      { change: 'read', source: 'relations', from: 1, to: 2 },
      {
        change: 'retired',
        fact: { kind: 'relation', id: 'r5', text: 'Alice --[works_at]--> Acme' },
        reason: 'superseded',
        by: { kind: 'relation', id: 'r7', text: 'Alice --[works_at]--> Globex' },
        score: null,
      },
      {
        change: 'added',
        fact: { kind: 'relation', id: 'r7', text: 'Alice --[works_at]--> Globex' },
      },
      { change: 'added', fact: { kind: 'relation', id: 'r8', text: 'Alice --[knows]--> Bob' } },
    ]);
  });

  it("an entity merged by name, and its attribute's new value retiring the old one", () => {
    expect(changesOf(6, 'merged')).toEqual([
      {
        change: 'merged',
        fact: { kind: 'entity', id: 'e1', text: 'Alice [person]' },
        rule: 'name',
        name: 'alice',
        similarity: null,
      },
    ]);
    expect(changesOf(6, 'retired')).toEqual([
      {
        change: 'retired',
        fact: { kind: 'attribute', id: 'a2', text: 'Alice role: engineer' },
        reason: 'superseded',
        by: { kind: 'attribute', id: 'a6', text: 'Alice role: manager' },
        score: null,
      },
    ]);
    // Only attributes in force are listed with their entity.
    const alice = stepKnowledge(log, 6)?.inForce.entities.find((e) => e.id === 'e1');
    expect(alice?.attributes.map((a) => `${a.key}=${a.value}`)).toEqual(['role=manager']);
  });

  it('an entry whose TTL ran out by the step is reported expired and leaves the facts in force', () => {
    expect(stepKnowledge(log, 10)?.inForce.entries.map((e) => e.id)).toEqual(['k1', 'k2']);
    expect(changesOf(11, 'expired')).toEqual([
      { change: 'expired', fact: { kind: 'entry', id: 'k2', text: 'Visits Lyon this week' } },
    ]);
    expect(stepKnowledge(log, 11)?.inForce.entries.map((e) => e.id)).toEqual(['k1']);
    expect(changesOf(12, 'retired')).toEqual([
      {
        change: 'retired',
        fact: { kind: 'entry', id: 'k1', text: '[preference] Prefers tea' },
        reason: 'forgotten',
        by: null,
        score: null,
      },
    ]);
  });

  it('a clear drops every fact, each named, attributes included', () => {
    const dropped = changesOf(13, 'dropped').map((c) => ('fact' in c ? c.fact.text : ''));
    expect(dropped).toContain('Alice role: engineer');
    expect(dropped).toContain('Alice --[works_at]--> Acme');
    expect(dropped).toHaveLength(10);
    expect(stepKnowledge(log, 13)?.inForce).toEqual({ entities: [], relations: [], entries: [] });
    expect(stepKnowledge(log, 13)?.blocks).toEqual({ text: '', blocks: [] });
  });

  it("the blocks are knowledgeBlocks with the reference's limits, the latest user message and the step's time", () => {
    for (let n = 2; n <= log.length; n++) {
      const state = seek(log, n);
      const at = stepKnowledge(log, n) as StepKnowledge;
      expect(at.query).toBe(latestUserText(state));
      expect(at.blocks).toEqual(
        knowledgeBlocks(state.knowledge as KnowledgeState, {
          query: at.query,
          now: at.now,
          graph: {},
          entities: {},
          knowledge: {},
        }),
      );
    }
    // Scoped to the question: at step 10 only the relation about work is shown.
    expect(stepKnowledge(log, 10)?.blocks.text).toMatch(
      /^\[Known Relationships\]\n- Alice --\[works_at\]--> Globex\n\n\[Known Entities\]/,
    );
  });

  it("the step's time is the latest `at` of the knowledge actions so far: from the log, never a clock", () => {
    expect(knowledgeTimes(log)).toEqual([
      0,
      0,
      1000,
      1000,
      1000,
      1000,
      2000,
      2000,
      3000,
      3000,
      3000,
      3000 + 2 * DAY,
      3000 + 2 * DAY,
      3000 + 2 * DAY,
    ]);
    // A later action stamped earlier does not move the time back.
    const back = appendAction(log, {
      type: 'knowledge/forgotten',
      payload: { id: 'nothing', at: 5 },
    });
    expect(knowledgeTimes(back).at(-1)).toBe(3000 + 2 * DAY);
  });

  it('a step out of range is a RangeError naming the value', () => {
    expect(() => stepKnowledge(log, log.length + 1)).toThrow(RangeError);
    expect(() => stepKnowledge(log, 1.5)).toThrow(/n must be an integer from 0 to 13.*1\.5/);
  });
});

describe('the model view at a step sends the blocks first', () => {
  it('a knowledge entry first, holding the blocks, then the window; as modelView builds it', () => {
    const at = stepKnowledge(log, 10) as StepKnowledge;
    const view = modelViewAt(log, 10, 'openai');
    expect(view.entries[0]).toMatchObject({ kind: 'knowledge', position: null, index: null });
    expect(view.entries[0]?.message).toEqual({ role: 'system', content: at.blocks.text });
    expect(view.entries.slice(1).map((e) => e.kind)).toEqual([
      'message',
      'message',
      'message',
      'message',
    ]);
    expect(view.entries.map((e) => e.message)).toEqual(
      modelView(seek(log, 10), { target: 'openai', knowledge: at.blocks.text }).messages,
    );
    // No blocks, no knowledge entry (after the clear, and before any fact).
    expect(modelViewAt(log, 13, 'openai').entries.map((e) => e.kind)).not.toContain('knowledge');
    expect(modelViewAt(log, 1, 'openai').entries.map((e) => e.kind)).toEqual(['message']);
  });

  it('with a summary: the blocks, then the summary', () => {
    const summarized = appendAction(log, memoryActions.summaryApplied('Alice moved jobs.'));
    const kinds = modelViewAt(summarized, summarized.length, 'none').entries.map((e) => e.kind);
    expect(kinds.slice(0, 1)).toEqual(['summary']); // cleared: no facts left, no blocks
    const earlier = appendAction(
      createEventLog({ maxMessages: 6, tokenizer: 'heuristic' }),
      memoryActions.summaryApplied('Alice.'),
    );
    const withFacts = appendAction(earlier, {
      type: 'knowledge/remembered',
      payload: {
        id: 'k1',
        content: 'Likes tea',
        category: 'general',
        importance: 0.5,
        persistent: false,
        ttlDays: null,
        metadata: {},
        at: 10,
      },
    });
    expect(modelViewAt(withFacts, 2, 'none').entries.map((e) => e.kind)).toEqual([
      'knowledge',
      'summary',
    ]);
  });
});

describe('the stepper', () => {
  it('gives what stepKnowledge gives, and after viewAt(n) replays nothing for knowledgeAt(n) or modelViewAt(n)', () => {
    const stepper = createStepper(log);
    for (const n of [0, 7, 6, 13, 2, 11, 12, 3]) {
      stepper.viewAt(n);
      const before = stepper.replayed();
      expect(stepper.knowledgeAt(n)).toEqual(stepKnowledge(log, n));
      expect(stepper.modelViewAt(n, 'anthropic')).toEqual(modelViewAt(log, n, 'anthropic'));
      expect(stepper.replayed()).toBe(before);
    }
  });
});

describe('inspect --at N: a knowledge section', () => {
  const files: Record<string, string> = {
    'k.json': JSON.stringify(encodeEnvelope(log)),
    'plain.json': JSON.stringify(encodeEnvelope(recordedLog())),
  };
  const inspect = (...argv: string[]) =>
    runInspect({
      argv: ['inspect', ...argv],
      readText: (file) => files[file] as string,
      isTTY: false,
      env: {},
    });

  it('at the step where a relation is superseded: counts in force, each change with its reason, the blocks', () => {
    const { code, stdout } = inspect('k.json', '--at', '7');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const from = lines.findIndex((line) => line.startsWith('Knowledge'));
    const to = lines.findIndex((line) => line.startsWith('Model view'));
    expect(lines.slice(from, to)).toEqual([
      'Knowledge (time 1970-01-01T00:00:02.000Z): in force 3 entities (1 attribute), 2 relations, 0 entries',
      'changed at this step: 4',
      '  read relations #1–#2',
      '  retired relation r5 "Alice --[works_at]--> Acme": superseded by r7 "Alice --[works_at]--> Globex"',
      '  added relation r7 "Alice --[works_at]--> Globex"',
      '  added relation r8 "Alice --[knows]--> Bob"',
      'blocks the model receives (query "I moved to Globex as a manager; I know Bob."): 2 blocks, 50 tokens (estimated: a quarter of the characters)',
      '  [Known Relationships]',
      '  - Alice --[works_at]--> Globex',
      '  - Alice --[knows]--> Bob (confidence: 0.8)',
      '',
      '  [Known Entities]',
      '  - Alice [person] (role: manager)',
      '  - Acme [organization]',
      // The file's text is escaped: no terminal escape reaches the output.
      '  - Eve[31m</script><b>x</b> [person]',
    ]);
    expect(stdout).not.toContain('\u001b');
    // The model view sends the blocks first.
    expect(lines[to + 2]).toMatch(
      /^ {5}- {2}knowledge {9}system "\[Known Relationships\]\\n- Alice/,
    );
  });

  it('names expiry, forgetting, merges and drops; says when the step changed nothing or there are no blocks', () => {
    expect(inspect('k.json', '--at', '11').stdout).toContain(
      '  expired entry k2 "Visits Lyon this week": its TTL ran out\n',
    );
    expect(inspect('k.json', '--at', '12').stdout).toContain(
      '  retired entry k1 "[preference] Prefers tea": forgotten\n',
    );
    expect(inspect('k.json', '--at', '6').stdout).toContain(
      '  merged entity e1 "Alice [person]" (name, reported as "alice")\n',
    );
    const thirteen = inspect('k.json', '--at', '13').stdout;
    expect(thirteen).toContain('  dropped attribute a2 "Alice role: engineer"\n');
    expect(thirteen).toContain('blocks the model receives (query "Where do I work now?"): none\n');
    expect(inspect('k.json', '--at', '4').stdout).toContain('changed at this step: nothing\n');
  });

  it('no section before any knowledge action, nor for a log without knowledge', () => {
    expect(inspect('k.json', '--at', '1').stdout).not.toContain('Knowledge');
    expect(inspect('plain.json', '--at', '9').stdout).not.toContain('Knowledge');
  });

  it('--json gives the same data in a `knowledge` field (null without knowledge)', () => {
    const json = JSON.parse(inspect('k.json', '--at', '7', '--json').stdout);
    expect(json.knowledge).toEqual(stepKnowledge(log, 7));
    expect(json.view.entries[0].kind).toBe('knowledge');
    expect(JSON.parse(inspect('k.json', '--at', '1', '--json').stdout).knowledge).toBeNull();
  });
});

// Random logs: knowledge actions of every kind (small limits, so facts are evicted and dropped),
// user messages, memory clears, and times that sometimes go back.
const NAMES = ['Alice', 'alice', 'Alicia', 'Bob', 'Acme', 'Globex'];
const name = fc.constantFrom(...NAMES);
const LIMITS = { maxEntities: 3, maxRelations: 3, maxEntries: 2 };

const actionArb = (i: number): fc.Arbitrary<(at: number, from: number) => MemoryAction> =>
  fc.oneof(
    fc
      .array(
        fc.record({
          name,
          type: fc.constantFrom('person', 'organization'),
          attributes: fc.dictionary(
            fc.constantFrom('role', 'city'),
            fc.constantFrom('dev', 'Lyon'),
          ),
        }),
        { maxLength: 3 },
      )
      .map((entities) => (at: number, from: number): MemoryAction => ({
        type: 'knowledge/factsExtracted',
        payload: { source: 'entities', at, from, to: from, entities, limits: LIMITS },
      })),
    fc
      .array(
        fc.record({
          subject: name,
          relation: fc.constantFrom('works_at', 'knows', 'lives_in'),
          object: name,
          confidence: fc.constantFrom(1, 0.5),
        }),
        { maxLength: 3 },
      )
      .map((triples) => (at: number, from: number): MemoryAction => ({
        type: 'knowledge/factsExtracted',
        payload: { source: 'relations', at, from, to: from, triples, limits: LIMITS },
      })),
    fc
      .record({
        content: fc.constantFrom('likes tea', 'vegan', 'has a cat'),
        importance: fc.constantFrom(0.3, 0.9),
        ttlDays: fc.constantFrom(null, 1),
      })
      .map((entry) => (at: number): MemoryAction => ({
        type: 'knowledge/remembered',
        payload: {
          id: `k${i}`,
          category: 'general',
          persistent: false,
          metadata: {},
          at,
          maxEntries: LIMITS.maxEntries,
          ...entry,
        },
      })),
    fc.constantFrom('likes tea', 'vegan').map((content) => (at: number): MemoryAction => ({
      type: 'knowledge/forgotten',
      payload: { content, at },
    })),
    fc.constant((): MemoryAction => ({ type: 'knowledge/cleared' })),
    fc
      .constantFrom('Where does Alice work?', 'Tell me about Bob', 'tea?')
      .map((text) => (): MemoryAction => memoryActions.messageAdded(userMessage(text))),
    fc.constant((): MemoryAction => memoryActions.cleared()),
  );

const logArb: fc.Arbitrary<EventLog> = fc
  .integer({ min: 0, max: 14 })
  .chain((length) =>
    fc.tuple(
      fc.tuple(...Array.from({ length }, (_, i) => actionArb(i))),
      fc.array(fc.constantFrom(0, 1, 2, -1), { minLength: length, maxLength: length }),
    ),
  )
  .map(([makers, steps]) => {
    let log = createEventLog({ maxMessages: 4, tokenizer: 'heuristic' }, { snapshotEvery: 3 });
    // The messages the extractions read (an extraction of messages never had is refused).
    log = appendAction(
      log,
      memoryActions.messagesAdded(Array.from({ length: 40 }, (_, k) => userMessage(`m${k}`))),
    );
    let at = 0;
    makers.forEach((make, i) => {
      // Mostly forward by hours or a day; now and then a step back in time.
      at += [3_600_000, DAY, 0, -5_000][(steps[i] as number) + 1] as number;
      log = appendAction(log, make(at, i));
    });
    return log;
  });

/** Every fact in force in a knowledge state at `now`, as `kind:id`. */
const inForceIds = (knowledge: KnowledgeState | undefined, now: number): Set<string> => {
  const ids = new Set<string>();
  for (const entity of knowledge?.entities ?? []) {
    if (entity.retiredAt !== null) continue;
    ids.add(`entity:${entity.id}`);
    for (const a of entity.attributes) if (a.retiredAt === null) ids.add(`attribute:${a.id}`);
  }
  for (const r of knowledge?.relations ?? []) if (r.retiredAt === null) ids.add(`relation:${r.id}`);
  for (const e of knowledge?.entries ?? []) {
    if (e.retiredAt === null && !isExpired(e, now)) ids.add(`entry:${e.id}`);
  }
  return ids;
};

/** The facts a StepKnowledge lists in force, as `kind:id`. */
const listedIds = (at: StepKnowledge): Set<string> =>
  new Set([
    ...at.inForce.entities.flatMap((e) => [
      `entity:${e.id}`,
      ...e.attributes.map((a) => `attribute:${a.id}`),
    ]),
    ...at.inForce.relations.map((r) => `relation:${r.id}`),
    ...at.inForce.entries.map((e) => `entry:${e.id}`),
  ]);

describe('laws over random logs of knowledge actions', () => {
  it('in force = the state’s facts in force; in force at n = (at n-1) − retired − expired − dropped + added; every fact named', () => {
    fc.assert(
      fc.property(logArb, (log) => {
        const stepper = createStepper(log);
        const times = knowledgeTimes(log);
        let previous = new Set<string>();
        let previousAttributes = new Map<string, string[]>();
        let latest = -Infinity;
        for (let n = 0; n <= log.length; n++) {
          const state = seek(log, n);
          const at = stepper.knowledgeAt(n);
          expect(at).toEqual(stepKnowledge(log, n));
          expect(JSON.parse(JSON.stringify(at))).toEqual(at);
          // The step's time: the latest `at` so far (0 before any).
          if (n > 0) {
            const action = logActions(log)[n - 1] as MemoryAction;
            if ('payload' in action && action.type.startsWith('knowledge/')) {
              latest = Math.max(latest, (action.payload as { at: number }).at);
            }
          }
          expect(times[n]).toBe(latest === -Infinity ? 0 : latest);
          if (at === null) {
            expect(state.knowledge).toBeUndefined();
            previous = new Set();
            continue;
          }
          const listed = listedIds(at);
          expect(listed).toEqual(inForceIds(state.knowledge, at.now));
          for (const block of at.blocks.blocks) {
            for (const id of block.factIds) {
              expect([...listed].some((key) => key.endsWith(`:${id}`))).toBe(true);
            }
          }
          const expected = new Set(previous);
          for (const change of at.changes) {
            if (change.change === 'read') continue;
            expect(change.fact.text).not.toBe('');
            const key = `${change.fact.kind}:${change.fact.id}`;
            if (change.change === 'added') expected.add(key);
            if (change.change !== 'added' && change.change !== 'merged') {
              expected.delete(key);
              // An entity that leaves takes its attributes with it.
              for (const attribute of previousAttributes.get(change.fact.id) ?? []) {
                expected.delete(`attribute:${attribute}`);
              }
            }
            if (change.change === 'retired' && change.by !== null) {
              expect(change.by.text).not.toBe('');
            }
          }
          expect(listed).toEqual(expected);
          // The model view sends the blocks first, exactly when there are any.
          const view = modelViewAt(log, n, 'openai');
          expect(view.entries[0]?.kind === 'knowledge').toBe(at.blocks.text !== '');
          if (at.blocks.text !== '') expect(view.entries[0]?.message.content).toBe(at.blocks.text);
          previous = listed;
          previousAttributes = new Map(
            at.inForce.entities.map((e) => [e.id, e.attributes.map((a) => a.id)]),
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('hostile fact text stays on its line', () => {
  // Every C0 control but the newline, DEL and C1, line separators, bidi controls.
  const CONTROLS =
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  it('whatever the names, relations and entries hold: no control character printed, one line per change', () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(text, text, text, text, (subject, relation, object, content) => {
        let hostile = createEventLog({ maxMessages: 4, tokenizer: 'heuristic' });
        const actions: MemoryAction[] = [
          memoryActions.messageAdded(userMessage(`${subject} ${object}`)),
          {
            type: 'knowledge/factsExtracted',
            payload: {
              source: 'entities',
              at: 1,
              from: 0,
              to: 0,
              entities: [{ name: subject, type: relation, attributes: { [relation]: object } }],
            },
          },
          {
            type: 'knowledge/factsExtracted',
            payload: {
              source: 'relations',
              at: 2,
              from: 0,
              to: 0,
              triples: [{ subject, relation, object, confidence: 1 }],
            },
          },
          {
            type: 'knowledge/remembered',
            payload: {
              id: 'k1',
              content,
              category: relation,
              importance: 0.9,
              persistent: false,
              ttlDays: null,
              metadata: {},
              at: 3,
            },
          },
        ];
        for (const action of actions) hostile = appendAction(hostile, action);
        const file = JSON.stringify(encodeEnvelope(hostile));
        for (let n = 2; n <= hostile.length; n++) {
          const { code, stdout } = runInspect({
            argv: ['inspect', 'h.json', '--at', String(n)],
            readText: () => file,
            isTTY: false,
            env: {},
          });
          expect(code).toBe(0);
          expect(stdout).not.toMatch(CONTROLS);
          const lines = stdout.split('\n');
          const at = lines.findIndex((line) => line.startsWith('changed at this step: '));
          const count = Number(lines[at]?.slice('changed at this step: '.length));
          const changes = (stepKnowledge(hostile, n) as StepKnowledge).changes;
          expect(count).toBe(changes.length);
          expect(lines[at + count + 1]).toMatch(/^blocks the model receives/);
        }
      }),
      { numRuns: 40 },
    );
  });
});
