// Knowledge actions are memory actions: memoryTransition applies them to state.knowledge, an
// event log records and replays them exactly, decodeAction reads them back from JSON, and a
// clear (the per-user reset) leaves no fact behind.
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  appendAction,
  createEventLog,
  createMemory,
  decodeAction,
  memoryActions,
  memoryTransition,
  replay,
  seek,
  userMessage,
} from '../../src/entries/index';
import type { MemoryAction } from '../../src/model/actions';

const extracted: MemoryAction = {
  type: 'knowledge/factsExtracted',
  payload: {
    source: 'relations',
    at: 1000,
    from: 0,
    to: 0,
    triples: [{ subject: 'Alice', relation: 'works_at', object: 'Acme', confidence: 1 }],
  },
};
const moved: MemoryAction = {
  type: 'knowledge/factsExtracted',
  payload: {
    source: 'relations',
    at: 2000,
    from: 1,
    to: 1,
    triples: [{ subject: 'Alice', relation: 'works_at', object: 'Globex', confidence: 1 }],
  },
};
const remember: MemoryAction = {
  type: 'knowledge/remembered',
  payload: {
    id: 'k1',
    content: 'Likes tea',
    category: 'preference',
    importance: 0.8,
    persistent: true,
    ttlDays: null,
    metadata: { by: 'test' },
    at: 3000,
  },
};

describe('knowledge in the memory state', () => {
  it('memoryTransition applies a knowledge action to state.knowledge, with its effects', () => {
    const start = addMessage(createMemory(), userMessage('I work at Acme')).state;
    expect(start.knowledge).toBeUndefined();
    const { state, effects } = memoryTransition(start, extracted);
    expect(state.messages).toBe(start.messages);
    expect(state.knowledge?.relations.map((r) => r.object)).toEqual(['Acme']);
    expect(effects.map((e) => e.type)).toEqual(['knowledge/cursorMoved', 'knowledge/added']);
    // A repeat changes nothing: the same state, no effects.
    const again = memoryTransition(state, extracted);
    expect(again.state).toBe(state);
    expect(again.effects).toEqual([]);
  });

  it('a later memory action keeps the knowledge; clear drops every fact and reports it', () => {
    let state = addMessage(createMemory(), userMessage('Alice works at Acme')).state;
    state = memoryTransition(state, extracted).state;
    state = addMessage(state, userMessage('hi')).state;
    expect(state.knowledge?.relations).toHaveLength(1);
    const cleared = memoryTransition(state, memoryActions.cleared());
    expect(cleared.state.knowledge).toMatchObject({ relations: [], cursors: { relations: 1 } });
    // An extraction of messages the memory never had is refused.
    expect(() => memoryTransition(createMemory(), extracted)).toThrow(
      /action.payload.to \(0\) must be below the conversation's next position \(0\)/,
    );
    expect(cleared.effects).toContainEqual({
      type: 'knowledge/dropped',
      kind: 'relation',
      ids: ['r1'],
    });
  });

  it('an event log replays facts exactly, and seek shows the retired fact at each step', () => {
    const actions = [
      memoryActions.messageAdded(userMessage('I work at Acme')),
      extracted,
      memoryActions.messageAdded(userMessage('I work at Globex')),
      moved,
      remember,
    ];
    let log = createEventLog();
    for (const action of actions) log = appendAction(log, action);
    let live = createMemory();
    for (const action of actions) live = memoryTransition(live, action).state;
    expect(replay(log).knowledge).toEqual(live.knowledge);
    expect(seek(log, 2).knowledge?.relations.map((r) => [r.object, r.retiredBy])).toEqual([
      ['Acme', null],
    ]);
    expect(seek(log, 4).knowledge?.relations.map((r) => [r.object, r.retiredBy])).toEqual([
      ['Acme', 'superseded'],
      ['Globex', null],
    ]);
  });

  it('appendAction checks a knowledge payload as its reducer does, naming the field', () => {
    expect(() =>
      appendAction(createEventLog(), {
        type: 'knowledge/remembered',
        payload: { ...(remember as { payload: object }).payload, importance: 7 },
      } as never),
    ).toThrow(/action.payload.importance must be a number from 0 to 1, received 7/);
    expect(() => appendAction(createEventLog(), { type: 'knowledge/remember' } as never)).toThrow(
      /not a memory or knowledge action type \(did you mean knowledge\/remembered\?\)/,
    );
  });

  it('decodeAction reads knowledge actions back from JSON, and refuses a bad one with the path', () => {
    for (const action of [
      extracted,
      moved,
      remember,
      { type: 'knowledge/cleared' },
      { type: 'knowledge/forgotten', payload: { id: 'k1', at: 4 } },
    ]) {
      const decoded = decodeAction(JSON.parse(JSON.stringify(action)));
      expect(E.isRight(decoded) && decoded.right).toEqual(action);
    }
    const bad = decodeAction({ type: 'knowledge/forgotten', payload: { at: 4 } });
    expect(E.isLeft(bad) && bad.left.message).toMatch(/exactly one of id and content/);
  });
});
