import {
  addMessage,
  createMemory,
  isConversationMemoryError,
  type SessionStore,
  userMessage,
} from 'conversation-memory';

/**
 * The agent's read-modify-write on a shared session: load, append one message, save with the
 * loaded revision, and on `SessionConflictError` start again from a fresh load. Resolves to the
 * number of conflicts it met. Used by the multi-writer tests, in this process and in workers.
 */
export const appendWithRetry = async (
  store: SessionStore,
  sessionId: string,
  text: string,
): Promise<number> => {
  for (let conflicts = 0; ; conflicts++) {
    const loaded = await store.load(sessionId);
    const base = loaded?.state ?? createMemory({ maxMessages: 10_000, tokenizer: 'heuristic' });
    const next = addMessage(base, userMessage(text)).state;
    try {
      await store.save(sessionId, next, { expectedRevision: loaded?.revision ?? 0 });
      return conflicts;
    } catch (error) {
      if (!(isConversationMemoryError(error) && error.code === 'CM_SESSION_CONFLICT')) throw error;
    }
  }
};
