import { describe, expect, it, vi } from 'vitest';
import {
  addMessage,
  ConversationMemory,
  createMemory,
  ListenerError,
  MemoryArgumentError,
  MemoryConfigError,
  MemoryDecodeError,
  type MemoryEffect,
  userMessage,
} from 'conversation-memory';
import { assistant, call, contents, tool, user } from '../helpers';

describe('ConversationMemory: the seed object API', () => {
  it('runs the seed test: keep the last 3 of 5', () => {
    const memory = new ConversationMemory({ maxMessages: 3 });
    for (let i = 0; i < 5; i++) memory.add(user(`Message ${i}`));
    const history = memory.getHistory();
    expect(history).toHaveLength(3);
    expect(history[0]?.content).toBe('Message 2');
    expect(history[2]?.content).toBe('Message 4');
  });

  it('has the reference defaults and exposes its limits', () => {
    const memory = new ConversationMemory();
    expect(memory.maxMessages).toBe(20);
    expect(memory.maxTokens).toBeNull();
    expect(memory.length).toBe(0);
    expect(memory.summary).toBeNull();
    expect(memory.state).toEqual(createMemory());
  });

  it('validates its options like createMemory', () => {
    expect(() => new ConversationMemory({ maxMessages: 0 })).toThrow(MemoryConfigError);
    expect(() => new ConversationMemory({ maxTokens: 0 })).toThrow(
      'maxTokens must be at least 1, received 0',
    );
  });

  it('prints as ConversationMemory(maxMessages=…, maxTokens=…, currentMessages=…)', () => {
    const memory = new ConversationMemory({ maxMessages: 10, maxTokens: 500 });
    memory.add(user('hi'));
    expect(String(memory)).toBe(
      'ConversationMemory(maxMessages=10, maxTokens=500, currentMessages=1)',
    );
    expect(`${new ConversationMemory()}`).toBe(
      'ConversationMemory(maxMessages=20, maxTokens=null, currentMessages=0)',
    );
  });

  it('exposes a new immutable state after each change and the same one otherwise', () => {
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    const first = memory.state;
    memory.add(user('hi'));
    expect(memory.state).not.toBe(first);
    expect(first.messages).toEqual([]);
    const second = memory.state;
    memory.addMany([]);
    expect(memory.state).toBe(second);
  });

  it('addMany enforces once and returns the effects', () => {
    const memory = new ConversationMemory({ maxMessages: 2, tokenizer: 'heuristic' });
    const effects = memory.addMany([user('a'), user('b'), user('c')]);
    expect(contents(memory.getHistory())).toEqual(['b', 'c']);
    expect(effects).toHaveLength(1);
  });

  it('getHistory and getRecent return new arrays that cannot change the memory', () => {
    const memory = new ConversationMemory();
    memory.add(user('a'));
    const history = memory.getHistory();
    history.push(user('injected'));
    memory.getRecent(1).pop();
    expect(contents(memory.getHistory())).toEqual(['a']);
    memory.add(user('b'));
    const last = memory.getRecent(1);
    last.push(user('injected'));
    expect(contents(memory.getRecent(5))).toEqual(['a', 'b']);
    expect(memory.getHistory()).not.toBe(memory.state.messages);
  });

  it('getRecent validates n', () => {
    const memory = new ConversationMemory();
    expect(() => memory.getRecent(0)).toThrow('n must be at least 1');
    memory.addMany([user('a'), user('b')]);
    expect(contents(memory.getRecent(1))).toEqual(['b']);
  });
});

describe('lastTrimmed (the reference _last_trimmed)', () => {
  it('holds what the most recent add removed, in removal order', () => {
    const memory = new ConversationMemory({ maxMessages: 3, tokenizer: 'heuristic' });
    memory.addMany([user('q'), assistant('', call('c1')), tool('r')]);
    expect(memory.lastTrimmed).toEqual([]);
    memory.add(assistant('Found cats'));
    expect(memory.lastTrimmed).toEqual([user('q'), assistant('', call('c1')), tool('r')]);
  });

  it('is overwritten by the next add, even with nothing trimmed, and by addMany([])', () => {
    const memory = new ConversationMemory({ maxMessages: 1 });
    memory.add(user('a'));
    memory.add(user('b'));
    expect(contents(memory.lastTrimmed)).toEqual(['a']);
    memory.addMany([]);
    expect(memory.lastTrimmed).toEqual([]);
  });

  it('is reset by clear(), which also clears the summary', () => {
    const memory = new ConversationMemory({ maxMessages: 1 });
    memory.addMany([user('a'), user('b')]);
    memory.summary = 'S';
    memory.clear();
    expect(memory.lastTrimmed).toEqual([]);
    expect(memory.summary).toBeNull();
    expect(memory.length).toBe(0);
  });
});

describe('summary property', () => {
  it('reads and writes any string or null, without a cap', () => {
    const memory = new ConversationMemory();
    memory.summary = 'x'.repeat(5000);
    expect(memory.summary).toHaveLength(5000);
    memory.summary = null;
    expect(memory.summary).toBeNull();
  });
});

describe('toDict / fromDict / branch', () => {
  it('round-trips through JSON', () => {
    const memory = new ConversationMemory({
      maxMessages: 5,
      maxTokens: 100,
      tokenizer: 'heuristic',
    });
    memory.addMany([user('hello'), assistant('hi there')]);
    memory.summary = 'greeting';
    const restored = ConversationMemory.fromDict(JSON.parse(JSON.stringify(memory.toDict())));
    expect(restored.state).toEqual(memory.state);
    expect(restored.lastTrimmed).toEqual([]);
  });

  it('throws MemoryDecodeError on invalid input', () => {
    expect(() => ConversationMemory.fromDict({ max_messages: 0 })).toThrow(MemoryDecodeError);
    expect(() => ConversationMemory.fromDict({})).toThrow('max_messages is required');
  });

  it('branches into an independent memory with the same window and summary', () => {
    const memory = new ConversationMemory({ maxMessages: 5 });
    memory.add(user('shared'));
    memory.summary = 'S';
    const listener = vi.fn();
    memory.subscribe(listener);
    const branch = memory.branch();
    branch.add(user('only in branch'));
    expect(contents(memory.getHistory())).toEqual(['shared']);
    expect(contents(branch.getHistory())).toEqual(['shared', 'only in branch']);
    expect(branch.summary).toBe('S');
    expect(branch.maxMessages).toBe(5);
    expect(listener).not.toHaveBeenCalled();
  });

  it('wraps an existing state with fromState', () => {
    const state = addMessage(createMemory(), userMessage('hi')).state;
    expect(ConversationMemory.fromState(state).state).toBe(state);
  });

  it('fromState rejects what is not a state, instead of making a default memory', () => {
    for (const bad of [null, undefined, {}, new ConversationMemory()]) {
      expect(() => ConversationMemory.fromState(bad as never)).toThrow(MemoryArgumentError);
    }
    expect(() => ConversationMemory.fromState(null as never)).toThrow(
      'ConversationMemory.fromState: state must be a MemoryState',
    );
  });
});

describe('subscribe', () => {
  it('calls listeners with each change’s effects and the new state', () => {
    const memory = new ConversationMemory({ maxMessages: 1 });
    const seen: (readonly MemoryEffect[])[] = [];
    const stop = memory.subscribe((effects, state) => {
      seen.push(effects);
      expect(state).toBe(memory.state);
    });
    memory.add(user('a'));
    memory.add(user('b'));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual([]);
    expect(seen[1]?.[0]).toMatchObject({
      type: 'memory/trimmed',
      removed: [user('a')],
      remaining: 1,
    });
    stop();
    memory.add(user('c'));
    expect(seen).toHaveLength(2);
  });

  it('rejects a listener that is not a function at once', () => {
    const memory = new ConversationMemory();
    expect(() => memory.subscribe(5 as never)).toThrow(
      'ConversationMemory.subscribe: listener must be a function, received 5',
    );
    memory.add(user('still fine'));
    expect(memory.length).toBe(1);
  });

  it('does not call listeners when nothing changed', () => {
    const memory = new ConversationMemory();
    const listener = vi.fn();
    memory.subscribe(listener);
    memory.clear();
    memory.summary = null;
    expect(listener).not.toHaveBeenCalled();
  });

  it('keeps the change and calls every listener when one throws, then reports it', () => {
    const memory = new ConversationMemory();
    const boom = new Error('boom');
    const after = vi.fn();
    memory.subscribe(() => {
      throw boom;
    });
    memory.subscribe(after);
    let caught: unknown;
    try {
      memory.add(user('kept'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ListenerError);
    expect((caught as ListenerError).cause).toBe(boom);
    expect(after).toHaveBeenCalledTimes(1);
    expect(contents(memory.getHistory())).toEqual(['kept']);
  });
});
