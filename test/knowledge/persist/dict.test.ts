// The knowledge persists with the conversation's JSON: toDict writes it under the extension key,
// fromDict and decodeState read it back (checked with decodeKnowledgeState), and a state without
// knowledge writes exactly what it wrote before.
import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  decodeState,
  fromDict,
  memoryTransition,
  type MemoryAction,
  type MemoryState,
  toDict,
} from 'conversation-memory';
import { EXTENSION_KEY } from 'conversation-memory/store-kit';
import { decodeKnowledgeState } from 'conversation-memory/knowledge';
import { knowledgeStateArb } from '../../arbitraries/knowledge';
import { conversationStepsArb, playSteps } from '../../arbitraries/knowledgeActions';
import { user } from '../../helpers';

const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const extracted = (from: number, to: number, object: string): MemoryAction => ({
  type: 'knowledge/factsExtracted',
  payload: {
    source: 'relations',
    at: 1000 * (to + 1),
    from,
    to,
    triples: [{ subject: 'Alice', relation: 'works_at', object, confidence: 1 }],
  },
});

/** Two messages, then an extraction of each (the second retires the first fact). */
const withKnowledge = (): MemoryState => {
  let state = addMessages(createMemory(), [user('I work at Acme'), user('Now at Globex')]).state;
  state = memoryTransition(state, extracted(0, 0, 'Acme')).state;
  return memoryTransition(state, extracted(1, 1, 'Globex')).state;
};

const problems = (result: E.Either<{ problems: readonly string[] }, unknown>): readonly string[] =>
  E.isLeft(result) ? result.left.problems : [];

describe('toDict / fromDict / decodeState keep the knowledge', () => {
  it('round-trips every state of a conversation mixing memory and knowledge actions', () => {
    fc.assert(
      fc.property(conversationStepsArb(30), (steps) => {
        for (const state of playSteps(steps).states) {
          const dict = toDict(state);
          expect(dict[EXTENSION_KEY]?.knowledge).toBe(state.knowledge);
          for (const input of [dict, viaJson(dict)]) {
            const loaded = fromDict(input);
            if (E.isLeft(loaded)) throw loaded.left;
            expect(loaded.right).toStrictEqual(state);
          }
          const decoded = decodeState(viaJson(state));
          if (E.isLeft(decoded)) throw decoded.left;
          expect(decoded.right).toStrictEqual(state);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('writes the knowledge as the state’s own JSON, and nothing new without it', () => {
    const state = withKnowledge();
    expect(state.knowledge?.relations.map((r) => [r.object, r.retiredBy])).toEqual([
      ['Acme', 'superseded'],
      ['Globex', null],
    ]);
    expect(viaJson(toDict(state))).toEqual({
      ...viaJson(toDict({ ...state, knowledge: undefined } as unknown as MemoryState)),
      [EXTENSION_KEY]: { knowledge: viaJson(state.knowledge) },
    });
    const plain = addMessages(createMemory(), [user('hi')]).state;
    expect(JSON.stringify(toDict(plain))).toBe(
      '{"max_messages":20,"max_tokens":null,"message_count":1,"messages":[{"role":"user","content":"hi","image_base64":null,"tool_name":null,"tool_result":null,"tool_calls":null,"tool_call_id":null,"content_parts":null}],"summary":null}',
    );
    const loaded = fromDict(toDict(plain));
    expect(E.isRight(loaded) && 'knowledge' in loaded.right).toBe(false);
  });

  it('reports a corrupt knowledge under conversation_memory.knowledge, with the other problems', () => {
    const dict = viaJson(toDict(withKnowledge())) as unknown as Record<string, unknown>;
    const extension = dict[EXTENSION_KEY] as { knowledge: Record<string, unknown> };
    const knowledge = extension.knowledge;
    const relations = knowledge['relations'] as Record<string, unknown>[];
    const bad = {
      ...dict,
      max_messages: 0,
      [EXTENSION_KEY]: {
        knowledge: { ...knowledge, relations: [{ ...relations[0], mentions: 0 }, relations[1]] },
      },
    };
    expect(problems(fromDict(bad))).toEqual([
      'max_messages must be at least 1, received 0',
      'conversation_memory.knowledge.relations[0].mentions must be an integer ≥ 1, received 0',
    ]);
    expect(problems(fromDict({ ...dict, [EXTENSION_KEY]: { knowledge: 'facts' } }))).toEqual([
      'conversation_memory.knowledge: expected knowledge state, got "facts"',
    ]);
    // A rule between fields (retiredBy without retiredAt) is named the same way.
    const unretired = { ...relations[0], retiredAt: null };
    expect(
      problems(
        fromDict({
          ...dict,
          [EXTENSION_KEY]: { knowledge: { ...knowledge, relations: [unretired, relations[1]] } },
        }),
      ),
    ).toEqual([
      'conversation_memory.knowledge.relations[0].retiredBy must be null while retiredAt is null, received "superseded"',
    ]);
  });

  it('refuses a cursor past next_position, naming both; a cursor at next_position loads', () => {
    const state = withKnowledge();
    expect(state.nextPosition).toBe(2);
    expect(state.knowledge?.cursors).toEqual({ entities: 0, relations: 2 });
    const dict = viaJson(toDict(state));
    const knowledge = dict[EXTENSION_KEY]?.knowledge;
    const past = {
      ...dict,
      [EXTENSION_KEY]: { knowledge: { ...knowledge, cursors: { entities: 3, relations: 2 } } },
    };
    expect(problems(fromDict(past))).toEqual([
      'conversation_memory.knowledge.cursors.entities: must not be past next_position (2), received 3',
    ]);
    // With next_position written (positions that are not 0, 1, …), the same rule.
    const moved = {
      ...dict,
      [EXTENSION_KEY]: {
        positions: [5, 6],
        next_position: 7,
        knowledge: { ...knowledge, cursors: { entities: 7, relations: 8 } },
      },
    };
    expect(problems(fromDict(moved))).toEqual([
      'conversation_memory.knowledge.cursors.relations: must not be past next_position (7), received 8',
    ]);
    const atNext = {
      ...dict,
      [EXTENSION_KEY]: { knowledge: { ...knowledge, cursors: { entities: 2, relations: 2 } } },
    };
    expect(problems(fromDict(atNext))).toEqual([]);
  });

  it('reads any value under conversation_memory.knowledge as decodeKnowledgeState does, never throwing', () => {
    const base = viaJson(toDict(addMessages(createMemory(), [user('a'), user('b')]).state));
    const valueArb = fc.oneof(
      // Valid knowledge states (their cursors anywhere up to 2^48), and each made wrong somewhere.
      knowledgeStateArb,
      knowledgeStateArb.map((k) => ({ ...k, nextId: 0 })),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(valueArb, (value) => {
        const expected = decodeKnowledgeState(value);
        const loaded = fromDict({ ...base, [EXTENSION_KEY]: { knowledge: value } });
        if (E.isLeft(expected)) {
          expect(problems(loaded)).toEqual(
            expected.left.problems.map((p) =>
              p.startsWith('(root)')
                ? `conversation_memory.knowledge${p.slice('(root)'.length)}`
                : `conversation_memory.knowledge.${p}`,
            ),
          );
          return;
        }
        const { cursors } = expected.right;
        if (cursors.entities > 2 || cursors.relations > 2) {
          expect(problems(loaded)).toEqual(
            (['entities', 'relations'] as const)
              .filter((source) => cursors[source] > 2)
              .map(
                (source) =>
                  `conversation_memory.knowledge.cursors.${source}: must not be past next_position (2), received ${cursors[source]}`,
              ),
          );
          return;
        }
        expect(E.isRight(loaded) && loaded.right.knowledge).toStrictEqual(expected.right);
      }),
      { numRuns: 300 },
    );
  });

  it('decodeState reads knowledge and names its problems by the state’s fields', () => {
    const json = viaJson(withKnowledge()) as unknown as Record<string, unknown>;
    const knowledge = json['knowledge'] as Record<string, unknown>;
    expect(problems(decodeState({ ...json, knowledge: { ...knowledge, nextId: 0 } }))).toEqual([
      'knowledge.nextId must be an integer ≥ 1, received 0',
    ]);
    expect(
      problems(
        decodeState({
          ...json,
          knowledge: { ...knowledge, cursors: { entities: 9, relations: 0 } },
        }),
      ),
    ).toEqual(['knowledge.cursors.entities: must not be past next_position (2), received 9']);
    // Absent stays absent.
    const without = { ...json };
    delete without['knowledge'];
    const decoded = decodeState(without);
    expect(E.isRight(decoded) && 'knowledge' in decoded.right).toBe(false);
  });
});
