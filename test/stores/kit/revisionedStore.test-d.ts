import { describe, expectTypeOf, it } from 'vitest';
import {
  InMemorySessionStore,
  type LoadedSession,
  type MemoryState,
  type SaveOptions,
  type SavedSession,
  type SessionMetadata,
  type SessionOptions,
  type SessionStore,
} from 'conversation-memory';
import {
  InMemoryKnowledgeStore,
  type KnowledgeListing,
  type KnowledgeSaveOptions,
  type KnowledgeState,
  type KnowledgeStore,
  type KnowledgeStoreOptions,
  type LoadedKnowledge,
  type SavedKnowledge,
} from 'conversation-memory/knowledge';
import type {
  LoadedRevision,
  RevisionedRecordOptions,
  RevisionedSaveOptions,
  RevisionedStore,
  SavedRevision,
} from 'conversation-memory/store-kit';

/** The methods every revisioned store has. */
type RevisionedMethod = 'load' | 'save' | 'delete' | 'list' | 'close';

/**
 * Whether each method of `Store` accepts every call `Base` allows and returns what `Base`
 * promises, checked both ways round on purpose: TypeScript compares method parameters
 * bivariantly, so `Store extends Base` alone would let a store narrow its options unnoticed.
 */
type ImplementsEachMethod<Store, Base> = {
  [K in RevisionedMethod]: K extends keyof Store & keyof Base
    ? Store[K] extends (...args: infer StoreArgs) => infer StoreResult
      ? Base[K] extends (...args: infer BaseArgs) => infer BaseResult
        ? [BaseArgs] extends [StoreArgs]
          ? [StoreResult] extends [BaseResult]
            ? true
            : false
          : false
        : false
      : false
    : false;
};

type SessionContract = RevisionedStore<MemoryState, LoadedSession, SessionMetadata>;
type KnowledgeContract = RevisionedStore<KnowledgeState, LoadedKnowledge, KnowledgeListing>;

/** Every method checked: `true` for each. */
type AllTrue = Record<RevisionedMethod, true>;

describe('RevisionedStore: the contract the session and knowledge stores share', () => {
  it('SessionStore is a revisioned store of MemoryState, method by method', () => {
    expectTypeOf<SessionStore>().toMatchTypeOf<SessionContract>();
    expectTypeOf<ImplementsEachMethod<SessionStore, SessionContract>>().toEqualTypeOf<AllTrue>();
    expectTypeOf<InMemorySessionStore>().toMatchTypeOf<SessionContract>();
  });

  it('KnowledgeStore is a revisioned store of KnowledgeState, method by method', () => {
    expectTypeOf<KnowledgeStore>().toMatchTypeOf<KnowledgeContract>();
    expectTypeOf<
      ImplementsEachMethod<KnowledgeStore, KnowledgeContract>
    >().toEqualTypeOf<AllTrue>();
    expectTypeOf<InMemoryKnowledgeStore>().toMatchTypeOf<KnowledgeContract>();
  });

  it("the families' options and results are the contract's, field for field", () => {
    // Read off the methods, so a method that stops taking its family's options fails too.
    expectTypeOf<SessionStore['load']>().parameter(1).toEqualTypeOf<SessionOptions | undefined>();
    expectTypeOf<SessionStore['save']>().parameter(2).toEqualTypeOf<SaveOptions | undefined>();
    expectTypeOf<SessionStore['delete']>().parameter(1).toEqualTypeOf<SessionOptions | undefined>();
    expectTypeOf<KnowledgeStore['load']>()
      .parameter(1)
      .toEqualTypeOf<KnowledgeStoreOptions | undefined>();
    expectTypeOf<KnowledgeStore['save']>()
      .parameter(2)
      .toEqualTypeOf<KnowledgeSaveOptions | undefined>();
    expectTypeOf<KnowledgeStore['delete']>()
      .parameter(1)
      .toEqualTypeOf<KnowledgeStoreOptions | undefined>();
    expectTypeOf<SessionOptions>().toEqualTypeOf<RevisionedRecordOptions>();
    expectTypeOf<KnowledgeStoreOptions>().toEqualTypeOf<RevisionedRecordOptions>();
    expectTypeOf<SaveOptions>().toEqualTypeOf<RevisionedSaveOptions>();
    expectTypeOf<KnowledgeSaveOptions>().toEqualTypeOf<RevisionedSaveOptions>();
    expectTypeOf<SavedSession>().toEqualTypeOf<SavedRevision>();
    expectTypeOf<SavedKnowledge>().toEqualTypeOf<SavedRevision>();
    expectTypeOf<LoadedSession>().toMatchTypeOf<LoadedRevision<MemoryState>>();
    expectTypeOf<LoadedKnowledge>().toEqualTypeOf<LoadedRevision<KnowledgeState>>();
  });

  it('code written against the contract takes either store', () => {
    const touch = async <S>(store: RevisionedStore<S>, id: string) => {
      const loaded = await store.load(id, { namespace: 'acme' });
      if (loaded === null) return null;
      return store.save(id, loaded.state, { expectedRevision: loaded.revision });
    };
    expectTypeOf(touch<MemoryState>).toBeCallableWith(new InMemorySessionStore(), 's1');
    expectTypeOf(touch<KnowledgeState>).toBeCallableWith(new InMemoryKnowledgeStore(), 'user-42');
    const listAll = <L>(store: RevisionedStore<unknown, LoadedRevision<unknown>, L>) =>
      store.list();
    expectTypeOf(listAll(new InMemorySessionStore())).resolves.toEqualTypeOf<
      readonly SessionMetadata[]
    >();
    expectTypeOf(listAll(new InMemoryKnowledgeStore())).resolves.toEqualTypeOf<
      readonly KnowledgeListing[]
    >();
    // A session store is not a knowledge store: the state types keep the families apart.
    expectTypeOf<SessionStore>().not.toMatchTypeOf<RevisionedStore<KnowledgeState>>();
  });
});
