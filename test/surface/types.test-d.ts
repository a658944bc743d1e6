import type { either as E } from 'fp-ts';
import { describe, expectTypeOf, it } from 'vitest';
import {
  addMessage,
  addMessages,
  assistantMessage,
  ConversationMemory,
  type JsonObject,
  type MessageInput,
  createMemory,
  decodeConfig,
  fromDict,
  getHistory,
  type MemoryConfigError,
  type MemoryDecodeError,
  type MemoryEffect,
  type MemoryState,
  type Message,
  toDict,
  type Transition,
} from 'conversation-memory';

describe('public types', () => {
  it('reducers return a named Transition, never a tuple', () => {
    expectTypeOf(addMessage).returns.toEqualTypeOf<Transition>();
    expectTypeOf<Transition>().toHaveProperty('state').toEqualTypeOf<MemoryState>();
    expectTypeOf<Transition>().toHaveProperty('effects').toEqualTypeOf<readonly MemoryEffect[]>();
  });

  it('state is deeply readonly', () => {
    expectTypeOf(getHistory).returns.toEqualTypeOf<readonly Message[]>();
    const state = createMemory();
    // @ts-expect-error messages cannot be reassigned
    state.messages = [];
    // @ts-expect-error the window cannot be pushed to
    state.messages.push({ role: 'user', content: 'x' });
  });

  it('messages are written as literals and roles are checked', () => {
    const ok: Message = { role: 'tool', content: '42', toolCallId: 'c1', toolName: 'calc' };
    expectTypeOf(ok).toMatchTypeOf<Message>();
    // @ts-expect-error 'USER' is not a role
    const bad: Message = { role: 'USER', content: 'x' };
    void bad;
    // @ts-expect-error optional fields take no undefined (exactOptionalPropertyTypes)
    const undef: Message = { role: 'user', content: 'x', toolCallId: undefined };
    void undef;
  });

  it('effects narrow on type and reason', () => {
    const describe = (effect: MemoryEffect): number | string | null => {
      if (effect.type === 'memory/summaryChanged') return effect.summary;
      if (effect.type === 'memory/reconfigured') return effect.to.maxMessages;
      if (effect.type === 'knowledge/added') return effect.fact.id;
      if (effect.type === 'memory/pendingDiscarded' || effect.type === 'memory/heldForSummary') {
        return effect.positions.length;
      }
      // The other knowledge effects (merged, retired, dropped, cursorMoved).
      if (effect.type !== 'memory/trimmed') return null;
      if (effect.reason === 'enforce_limits') return effect.breakdown.toolPairBoundary;
      expectTypeOf(effect.remaining).toEqualTypeOf<0>();
      return effect.removed.length;
    };
    void describe;
  });

  it('decoders return Either, never throwing types', () => {
    expectTypeOf(fromDict).returns.toEqualTypeOf<E.Either<MemoryDecodeError, MemoryState>>();
    expectTypeOf(decodeConfig).returns.toEqualTypeOf<
      E.Either<MemoryConfigError, MemoryState['config']>
    >();
  });

  it('toDict is typed in the reference shape', () => {
    const dict = toDict(createMemory());
    expectTypeOf(dict.max_tokens).toEqualTypeOf<number | null>();
    expectTypeOf(dict.messages).items.toHaveProperty('tool_call_id').toEqualTypeOf<string | null>();
  });

  it('the facade exposes readonly views', () => {
    const memory = new ConversationMemory();
    expectTypeOf(memory.lastTrimmed).toEqualTypeOf<readonly Message[]>();
    expectTypeOf(memory.state).toEqualTypeOf<MemoryState>();
    expectTypeOf(memory.subscribe).returns.toEqualTypeOf<() => void>();
  });

  it('tool-call arguments may be any object type; the stored type stays exact', () => {
    interface WeatherArgs {
      city: string;
      days?: number;
    }
    const args: WeatherArgs = { city: 'Paris' };
    const fromSdk: Record<string, unknown> = JSON.parse('{"q":"cats"}');
    const state = createMemory();
    // An interface (no index signature) and an SDK's Record<string, unknown>, without a cast.
    const added = addMessage(state, {
      role: 'assistant',
      content: null,
      toolCalls: [
        { id: 'c1', name: 'get_weather', parameters: args },
        { id: 'c2', name: 'search', parameters: fromSdk },
      ],
    });
    assistantMessage(null, [{ name: 'get_weather', parameters: args }]);
    addMessages(state, [
      { role: 'assistant', content: null, toolCalls: [{ name: 's', parameters: fromSdk }] },
    ]);
    new ConversationMemory().add({
      role: 'assistant',
      content: null,
      toolCalls: [{ name: 'g', parameters: args }],
    });
    // Optional fields may be written as undefined (exactOptionalPropertyTypes callers).
    const maybeId: string | undefined = undefined;
    addMessage(state, { role: 'tool', content: '4', toolCallId: maybeId });
    // What is stored is the exact Message type: parameters are a JSON object.
    const stored = added.state.messages[0]?.toolCalls?.[0];
    expectTypeOf(stored?.parameters).toEqualTypeOf<JsonObject | undefined>();
    expectTypeOf(added.state.messages).toEqualTypeOf<readonly Message[]>();
    // Every stored Message is accepted back as input.
    expectTypeOf<Message>().toMatchTypeOf<MessageInput>();
    // The application's id and metadata: metadata may be an interface type, stored as JSON.
    interface RowMeta {
      sentAt: number;
    }
    const meta: RowMeta = { sentAt: 1 };
    const withApp = addMessage(state, { role: 'user', content: 'hi', id: 'row-1', metadata: meta });
    expectTypeOf(withApp.state.messages[0]?.metadata).toEqualTypeOf<JsonObject | undefined>();
    expectTypeOf(withApp.state.messages[0]?.id).toEqualTypeOf<string | undefined>();
    // @ts-expect-error an id is a string
    addMessage(state, { role: 'user', content: 'hi', id: 7 });
    // Arguments must still be an object.
    const asString = { name: 'f', parameters: '{}' };
    // @ts-expect-error a JSON string is not parameters
    assistantMessage(null, [asString]);
  });
});
