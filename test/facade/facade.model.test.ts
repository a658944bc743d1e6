import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  MemoryArgumentError,
  messageToDict,
  type MemoryConfig,
  type MemoryEffect,
  type MemoryState,
  type Message,
} from 'conversation-memory';
import { countMessageTokens } from 'conversation-memory/tokens';
import { configArb } from '../arbitraries/config';
import { conversationArb, turnArb } from '../arbitraries/conversation';
import { messageArb } from '../arbitraries/message';
import { textArb } from '../arbitraries/text';
import { ReferenceMemory } from '../laws/reference';

/** What one listener saw. */
interface Call {
  readonly effects: readonly MemoryEffect[];
  readonly state: MemoryState;
}

/** The model: the reference memory (an array, a summary, the reference algorithm) and which
 * subscriptions are live. */
interface Model {
  readonly config: MemoryConfig;
  reference: ReferenceMemory;
  /** Ids of the listeners subscribed to the current memory and not unsubscribed. */
  active: number[];
  nextId: number;
}

/** The system under test, plus the recordings of every listener ever subscribed. */
interface Real {
  memory: ConversationMemory;
  /** Sees every transition of the current memory, so effects of setters can be compared too. */
  probe: Call[];
  listeners: Map<number, { readonly calls: Call[]; readonly stop: () => void }>;
}

const count = (model: Model, messages: readonly Message[]): number =>
  messages.reduce((total, m) => total + countMessageTokens(model.config.tokenizer, m), 0);

const attachProbe = (real: Real): void => {
  real.probe = [];
  const probe = real.probe;
  real.memory.subscribe((effects, state) => {
    probe.push({ effects, state });
  });
};

/** A new memory object took over (branch adopted, reloaded): old subscriptions are gone. */
const replaceMemory = (model: Model, real: Real, memory: ConversationMemory): void => {
  real.memory = memory;
  attachProbe(real);
  model.reference.lastTrimmed = [];
  model.active = [];
};

/** The effects the model predicts for the add that just ran on `model.reference`. */
const expectedAddEffects = (model: Model): MemoryEffect[] => {
  const { lastTrimmed, lastTrimmedPositions, lastRules, messages, breakdown } = model.reference;
  if (lastTrimmed.length === 0) return [];
  return [
    {
      type: 'memory/trimmed',
      reason: 'enforce_limits',
      removed: lastTrimmed,
      positions: lastTrimmedPositions,
      rules: lastRules,
      remaining: messages.length,
      removedTokens: count(model, lastTrimmed),
      remainingTokens: count(model, messages),
      breakdown,
    },
  ];
};

/** The memory shows exactly what the model holds. */
const expectAgrees = (model: Model, real: Real): void => {
  const { memory } = real;
  const { reference, config } = model;
  expect(memory.length).toBe(reference.messages.length);
  expect(memory.getHistory()).toEqual(reference.messages);
  expect(memory.getPositions()).toEqual(reference.positions);
  expect(memory.lastTrimmed).toEqual(reference.lastTrimmed);
  expect(memory.summary).toBe(reference.summary);
  expect(memory.maxMessages).toBe(config.maxMessages);
  expect(memory.maxTokens).toBe(config.maxTokens);
  expect(memory.state.totalTokens).toBe(count(model, reference.messages));
  const maxTokens = config.maxTokens === null ? 'null' : String(config.maxTokens);
  const text = `ConversationMemory(maxMessages=${config.maxMessages}, maxTokens=${maxTokens}, currentMessages=${reference.messages.length})`;
  expect(memory.toString()).toBe(text);
  expect(`${memory}`).toBe(text);
};

/**
 * Listeners saw this command's transition: when `expected` is an array (the state changed), the
 * probe and every live listener were called once with those effects and the new state; when it
 * is `null` (nothing changed), nobody was called. Unsubscribed or detached listeners never are.
 */
const expectNotified = (
  model: Model,
  real: Real,
  expected: readonly MemoryEffect[] | null,
  returned?: readonly MemoryEffect[],
): void => {
  if (returned !== undefined) expect(returned).toEqual(expected ?? []);
  const once = expected === null ? [] : [{ effects: expected, state: real.memory.state }];
  expect(real.probe).toEqual(once);
  for (const [id, { calls }] of real.listeners) {
    const seen = model.active.includes(id) ? once : [];
    expect(calls).toEqual(seen);
    calls.forEach((call, i) => {
      expect(call.state).toBe(real.memory.state);
      expect(call.effects).toBe(real.probe[i]?.effects);
      if (returned !== undefined) expect(call.effects).toBe(returned);
    });
    calls.length = 0;
  }
  real.probe.length = 0;
};

type MemoryCommand = fc.Command<Model, Real>;

class Add implements MemoryCommand {
  constructor(readonly message: Message) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const effects = real.memory.add(this.message);
    model.reference.add(this.message);
    expectAgrees(model, real);
    expectNotified(model, real, expectedAddEffects(model), effects);
  }
  toString = (): string => `add(${JSON.stringify(this.message)})`;
}

class AddEach implements MemoryCommand {
  constructor(readonly messages: readonly Message[]) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    for (const message of this.messages) new Add(message).run(model, real);
  }
  toString = (): string => `addEach(${JSON.stringify(this.messages)})`;
}

class AddMany implements MemoryCommand {
  constructor(readonly messages: readonly Message[]) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const effects = real.memory.addMany(this.messages);
    model.reference.addMany(this.messages);
    expectAgrees(model, real);
    const changed = this.messages.length > 0 || model.reference.lastTrimmed.length > 0;
    expectNotified(model, real, changed ? expectedAddEffects(model) : null, effects);
  }
  toString = (): string => `addMany(${JSON.stringify(this.messages)})`;
}

class Clear implements MemoryCommand {
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const { messages, positions, summary } = model.reference;
    const expected: MemoryEffect[] = [];
    if (messages.length > 0) {
      expected.push({
        type: 'memory/trimmed',
        reason: 'clear',
        removed: messages,
        positions,
        remaining: 0,
        removedTokens: count(model, messages),
        remainingTokens: 0,
      });
    }
    if (summary !== null)
      expected.push({ type: 'memory/summaryChanged', summary: null, previous: summary });
    const effects = real.memory.clear();
    model.reference.clear();
    expectAgrees(model, real);
    expectNotified(model, real, expected.length > 0 ? expected : null, effects);
  }
  toString = (): string => 'clear()';
}

class SetSummary implements MemoryCommand {
  constructor(readonly text: string | null) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const previous = model.reference.summary;
    real.memory.summary = this.text;
    model.reference.summary = this.text;
    expectAgrees(model, real);
    const changed = this.text !== previous;
    expectNotified(
      model,
      real,
      changed ? [{ type: 'memory/summaryChanged', summary: this.text, previous }] : null,
    );
  }
  toString = (): string => `summary = ${JSON.stringify(this.text)}`;
}

class GetRecent implements MemoryCommand {
  constructor(readonly n: number) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    if (this.n < 1) {
      expect(() => real.memory.getRecent(this.n)).toThrow(MemoryArgumentError);
      expect(() => real.memory.getRecent(this.n)).toThrow(/n must be at least 1/);
    } else {
      expect(real.memory.getRecent(this.n)).toEqual(model.reference.messages.slice(-this.n));
    }
    expectAgrees(model, real);
    expectNotified(model, real, null);
  }
  toString = (): string => `getRecent(${this.n})`;
}

class Branch implements MemoryCommand {
  constructor(
    readonly adopt: boolean,
    readonly extra: Message,
  ) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const original = real.memory;
    const branch = original.branch();
    expect(branch).not.toBe(original);
    expect(branch.state).toBe(original.state);
    expect(branch.getHistory()).toEqual(model.reference.messages);
    expect(branch.summary).toBe(model.reference.summary);
    expect(branch.lastTrimmed).toEqual([]);
    expect(branch.toString()).toBe(original.toString());
    if (this.adopt) {
      replaceMemory(model, real, branch);
    } else {
      branch.add(this.extra);
      branch.summary = 'branch only';
      branch.clear();
    }
    expectAgrees(model, real);
    expectNotified(model, real, null);
  }
  toString = (): string =>
    this.adopt ? 'adopt(branch())' : `branch().add(${JSON.stringify(this.extra)})`;
}

class Load implements MemoryCommand {
  constructor(
    readonly messages: readonly Message[],
    readonly summary: string | null,
  ) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const { config } = model;
    const dict = {
      max_messages: config.maxMessages,
      max_tokens: config.maxTokens,
      message_count: this.messages.length,
      messages: this.messages.map(messageToDict),
      summary: this.summary,
    };
    // As the reference's from_dict: the boundary is fixed, the limits wait for the next add.
    replaceMemory(
      model,
      real,
      ConversationMemory.fromDict(JSON.parse(JSON.stringify(dict)), {
        tokenizer: config.tokenizer,
      }),
    );
    model.reference.load(this.messages);
    model.reference.summary = this.summary;
    expectAgrees(model, real);
    expectNotified(model, real, null);
  }
  toString = (): string =>
    `load(${JSON.stringify(this.messages)}, summary=${JSON.stringify(this.summary)})`;
}

class ToDictFromDict implements MemoryCommand {
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const dict = real.memory.toDict();
    const restored = ConversationMemory.fromDict(JSON.parse(JSON.stringify(dict)));
    expect(restored.state).toStrictEqual(real.memory.state);
    expect(restored.toDict()).toStrictEqual(dict);
    expect(restored.lastTrimmed).toEqual([]);
    replaceMemory(model, real, restored);
    expectAgrees(model, real);
    expectNotified(model, real, null);
  }
  toString = (): string => 'fromDict(JSON(toDict()))';
}

class Subscribe implements MemoryCommand {
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const id = model.nextId++;
    const calls: Call[] = [];
    const stop = real.memory.subscribe((effects, state) => {
      calls.push({ effects, state });
    });
    real.listeners.set(id, { calls, stop });
    model.active.push(id);
    expectAgrees(model, real);
    expectNotified(model, real, null);
  }
  toString = (): string => 'subscribe()';
}

class Unsubscribe implements MemoryCommand {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>): boolean => model.active.length > 0;
  run(model: Model, real: Real): void {
    const id = model.active[this.pick % model.active.length] as number;
    const listener = real.listeners.get(id);
    expect(listener).toBeDefined();
    listener?.stop();
    listener?.stop(); // a second call is harmless
    model.active = model.active.filter((other) => other !== id);
    expectAgrees(model, real);
    expectNotified(model, real, null);
  }
  toString = (): string => `unsubscribe(#${this.pick})`;
}

const commandArbs: fc.Arbitrary<MemoryCommand>[] = [
  messageArb.map((m) => new Add(m)),
  turnArb.map((turn) => new AddEach(turn)),
  fc
    .oneof(turnArb, conversationArb(3), fc.constant([] as Message[]))
    .map((messages) => new AddMany(messages)),
  fc.constant(new Clear()),
  fc.option(textArb, { nil: null, freq: 3 }).map((text) => new SetSummary(text)),
  fc.integer({ min: -1, max: 14 }).map((n) => new GetRecent(n)),
  fc.tuple(fc.boolean(), messageArb).map(([adopt, extra]) => new Branch(adopt, extra)),
  fc.constant(new ToDictFromDict()),
  fc
    .tuple(conversationArb(6), fc.option(textArb, { nil: null }))
    .map(([messages, summary]) => new Load(messages, summary)),
  fc.constant(new Subscribe()),
  fc.nat(7).map((pick) => new Unsubscribe(pick)),
];

describe('ConversationMemory against a model (fc.commands)', () => {
  it('agrees with the reference model on history, lastTrimmed, summary, toString and listeners', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.commands(commandArbs, { maxCommands: 40, size: 'max' }),
        (config, commands) => {
          fc.modelRun(() => {
            const model: Model = {
              config,
              reference: new ReferenceMemory(config.maxMessages, config.maxTokens, (m) =>
                countMessageTokens(config.tokenizer, m),
              ),
              active: [],
              nextId: 0,
            };
            const real: Real = {
              memory: new ConversationMemory(config),
              probe: [],
              listeners: new Map(),
            };
            attachProbe(real);
            expectAgrees(model, real);
            return { model, real };
          }, commands);
        },
      ),
    );
  });
});
